"""The venue's broker side: subscribes to every table of a venue, stores events, asks for gaps.

A gap (an event past the next seq) is not stored; the collector publishes ``{"after": last}`` to
the table's ``replay`` topic, at most once per second per table, and the table republishes from
its log. Bad payloads get one warning and a count; they never stop the collector.
"""

from __future__ import annotations

import json
import logging
import ssl
import threading
import time
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from companion.config import BrokerConfig
from companion.venue.store import Stored, VenueStore

log = logging.getLogger(__name__)

ASK_EVERY_S = 1.0


class VenueCollector:
    def __init__(self, store: VenueStore, config: BrokerConfig, client_id: str = "venue") -> None:
        self.store = store
        self.config = config
        self.counters = {"bad": 0, "asked": 0}
        self._asked: dict[tuple[str, str], float] = {}
        self._lock = threading.Lock()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv5)
        if config.username:
            self.client.username_pw_set(config.username, config.password)
        if config.ca_file:
            self.client.tls_set(ca_certs=config.ca_file, tls_version=ssl.PROTOCOL_TLS_CLIENT)
        self.client.reconnect_delay_set(1, 5)
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message

    def start(self) -> "VenueCollector":
        self.client.connect_async(self.config.host, self.config.port, keepalive=10)
        self.client.loop_start()
        return self

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        if reason.is_failure:
            log.warning("broker refused the venue: %s", reason)
            return
        client.subscribe(f"venue/{self.config.venue}/+/event", qos=1)
        client.subscribe(f"venue/{self.config.venue}/+/board", qos=1)
        log.info("venue %s subscribed at %s:%d", self.config.venue, self.config.host, self.config.port)

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        parts = message.topic.split("/")
        try:
            if len(parts) != 4:
                raise ValueError("not venue/<venue>/<table>/<leaf>")
            _, venue, table, leaf = parts
            body = json.loads(message.payload)
            if leaf == "board":
                self.store.set_board(venue, table, dict(body))
                if int(body["seq"]) > self.store.last_seq(venue, table):
                    self._ask(venue, table)  # the retained board shows rows the venue never got
                return
            seq = int(body["seq"])
            result = self.store.add_event(venue, table, seq, str(body["hash"]), dict(body["row"]))
        except (ValueError, KeyError, TypeError) as exc:
            self.counters["bad"] += 1
            log.warning("ignored a message on %s: %s", message.topic, exc)
            return
        if result is Stored.GAP:
            self._ask(venue, table)

    def _ask(self, venue: str, table: str) -> None:
        now = time.monotonic()
        with self._lock:
            if now - self._asked.get((venue, table), -1e9) < ASK_EVERY_S:
                return
            self._asked[(venue, table)] = now
        after = self.store.last_seq(venue, table)
        self.counters["asked"] += 1
        self.client.publish(f"venue/{venue}/{table}/replay", json.dumps({"after": after}), qos=1)
        log.info("asked %s/%s to replay after %d", venue, table, after)
