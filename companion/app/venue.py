"""The venue service: the collector on the broker, the store, and the venue page, started and stopped as one."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from waitress.server import create_server

from companion.venue.broker import BrokerConfig
from companion.core import JsonObject
from companion.app.service import WebServer
from companion.venue.collector import VenueCollector
from companion.venue.limits import VenueLimits
from companion.venue.store import VenueStore

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class VenueConfig:
    """What ``companion venue`` runs: the broker to listen to, the database, the page's address."""

    broker: BrokerConfig
    db: Path
    host: str = "0.0.0.0"
    port: int = 8090
    threads: int = 32
    hosts: tuple[str, ...] = ()
    """Names the page answers to besides this machine's own (as ``[web] hosts`` for a table)."""
    client_id: str = ""
    """The venue's MQTT client id; empty (the default) is a random one, which no table can guess."""
    limits: VenueLimits = VenueLimits()
    """What the venue keeps per table (docs/security.md, "The venue")."""


class VenueWeb(WebServer):
    """Waitress serving the venue app; its streams end on their own when the venue stops."""

    def close(self) -> None:
        self.app.extensions["venue_stopping"].set()
        time.sleep(0.6)  # a stream notices within one wake (web.venue.WAKE_S) and says goodbye
        self._stop.set()
        self.thread.join(10)
        if self.thread.is_alive():
            log.warning("the venue web server thread did not stop within 10 s")


class VenueService:
    def __init__(self, config: VenueConfig) -> None:
        self.config = config
        self.store = VenueStore(config.db, config.limits)
        self.collector = VenueCollector(self.store, config.broker, config.client_id)
        self.web: VenueWeb | None = None

    def status(self) -> JsonObject:
        b = self.config.broker
        health = self.collector.health()
        return {
            "broker": f"{b.host}:{b.port} ({'connected' if health['subscribed'] else 'not connected'})",
            "network": health["network"],
            "collector": health["counters"],
        }

    def start(self) -> "VenueService":
        from web.venue import create_venue_app

        self.collector.start()
        app = create_venue_app(
            self.store, self.config.broker.venue, self.status,
            {"BIND_HOST": self.config.host, "ALLOWED_HOSTS": tuple(self.config.hosts)},
        )
        server: Any = create_server(app, host=self.config.host, port=self.config.port, threads=self.config.threads)
        self.web = VenueWeb(app, server)
        log.info("venue %s: page at %s", self.config.broker.venue, self.web.url)
        return self

    @property
    def url(self) -> str:
        assert self.web is not None
        return self.web.url

    def stop(self) -> None:
        if self.web is not None:
            self.web.close()
        self.collector.stop()
        self.store.close()
