"""The venue's MQTT broker as both sides reach it: the topics, and a paho client set up from a
``[broker]`` config (MQTT 5, the user's password, TLS with the venue's CA, quick reconnects).
Tables publish through :mod:`companion.venue.publish`, the venue listens through
:mod:`companion.venue.collector`; both make their client here."""

from __future__ import annotations

import secrets
import ssl
from dataclasses import dataclass

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties


@dataclass(frozen=True)
class BrokerConfig:
    """``[broker]`` in the table config: where to publish, as whom."""

    host: str
    port: int = 8883
    venue: str = "venue"
    table: str = "table"
    username: str = ""
    password: str = ""
    ca_file: str = ""
    """A CA certificate file: TLS is on when this is given."""


def topic(venue: str, table: str, leaf: str) -> str:
    """``venue/<venue>/<table>/<leaf>`` (``+`` as the table subscribes to every table)."""
    return f"venue/{venue}/{table}/{leaf}"


def new_client_id(prefix: str) -> str:
    """``prefix`` and 16 random hex digits: a client id no one can guess, so no one can connect with
    it and knock this client off (a broker that binds ids to users, ``use_username_as_clientid``,
    replaces it with the username anyway; docs/venue.md)."""
    return f"{prefix}-{secrets.token_hex(8)}"


def connect_properties(max_packet: int) -> Properties:
    """MQTT 5 CONNECT properties: the largest packet this client reads (the broker drops larger ones for it)."""
    props = Properties(PacketTypes.CONNECT)  # type: ignore[no-untyped-call]
    props.MaximumPacketSize = max_packet
    return props


def client_for(config: BrokerConfig, client_id: str) -> mqtt.Client:
    """A paho client for ``config``, not yet connected; reconnects after 1 to 5 s."""
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv5)
    if config.username:
        client.username_pw_set(config.username, config.password)
    if config.ca_file:
        client.tls_set(ca_certs=config.ca_file, tls_version=ssl.PROTOCOL_TLS_CLIENT)
    client.reconnect_delay_set(1, 5)
    return client
