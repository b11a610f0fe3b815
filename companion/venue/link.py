"""One paho client to the broker, kept alive: every callback guarded, the network thread watched.

paho runs the callbacks on its network thread. An exception that escapes a callback ends that
thread for good (paho re-raises it unless ``suppress_exceptions``, and a ``BaseException`` passes
any such setting): the client then neither reads nor reconnects, while the flags its callbacks set
still say "connected". One hostile payload stopped the venue that way (issue 26, item 1). So:

- every callback runs inside :func:`guard`: an exception is counted (``callback_errors``) and
  logged in one line (the first of each kind per callback; later ones are counted only, so a flood
  of one bad message cannot flood the journal), and the network thread goes on;
- the owner's own thread calls :meth:`BrokerLink.watch` on each wake-up: a network thread that has
  ended while the link is not stopping is noticed (``network_restarts``, one warning) and a new
  client connects in its place, with the same client id, so the broker drops what is left of the
  old connection. What was missed meanwhile is asked for again by the replay protocol.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt

from companion.venue.broker import BrokerConfig, client_for, connect_properties

log = logging.getLogger(__name__)

KEEPALIVE_S = 10
RESTART_S = 1.0
"""Least time between two restarts of the network thread (something that kills it at once is not spun on)."""
REASON_CHARS = 200
"""How much of an exception's message a log line carries."""

Callback = Callable[..., None]


def guard(name: str, callback: Callback, counters: dict[str, int]) -> Callback:
    """``callback`` as paho may call it: nothing it raises (short of ``BaseException``) leaves it."""
    warned: set[str] = set()

    def guarded(*args: Any) -> None:
        try:
            callback(*args)
        except Exception as exc:
            counters["callback_errors"] = counters.get("callback_errors", 0) + 1
            kind = type(exc).__name__
            if kind not in warned:
                warned.add(kind)
                log.error(
                    "%s: %s raised %s: %s (counted; further ones of this kind are only counted)",
                    name, getattr(callback, "__name__", "a callback"), kind, str(exc)[:REASON_CHARS],
                )

    return guarded


def network_alive(client: mqtt.Client) -> bool:
    """Whether paho's network thread (``loop_start``) still runs. paho asks no public question for it;
    its thread handle is cleared by the thread itself however it ends (paho 1.x and 2.x)."""
    thread = client._thread  # noqa: SLF001  (see above; tests/venue/test_hostile_payloads.py kills it)
    return thread is not None and thread.is_alive()


class BrokerLink:
    """The client of one owner (the venue's collector, a table's publisher), replaced when its network thread dies.

    ``callbacks`` (paho's attribute name → the owner's method) are guarded and set on every new
    client, and ``setup`` runs on it (a queue size, say)."""

    def __init__(
        self,
        name: str,
        config: BrokerConfig,
        client_id: str,
        callbacks: dict[str, Callback],
        counters: dict[str, int],
        max_packet: int,
        setup: Callable[[mqtt.Client], None] | None = None,
    ) -> None:
        self.name = name
        self.config = config
        self.client_id = client_id
        self.counters = counters
        self.counters.setdefault("callback_errors", 0)
        self.counters.setdefault("network_restarts", 0)
        self._callbacks = {event: guard(name, fn, counters) for event, fn in callbacks.items()}
        self._max_packet = max_packet
        self._setup = setup
        self._stopping = threading.Event()
        self._restarted = -1e9
        self.client = self._new_client()

    def _new_client(self) -> mqtt.Client:
        client = client_for(self.config, self.client_id)
        for event, fn in self._callbacks.items():
            setattr(client, event, fn)
        if self._setup is not None:
            self._setup(client)
        return client

    def _connect(self) -> None:
        self.client.connect_async(
            self.config.host, self.config.port, keepalive=KEEPALIVE_S, properties=connect_properties(self._max_packet)
        )
        self.client.loop_start()

    def start(self) -> None:
        self._connect()

    @property
    def alive(self) -> bool:
        """The network thread runs (it may still be connecting)."""
        return network_alive(self.client)

    def watch(self, forget: Callable[[], None] | None = None) -> bool:
        """Called from the owner's thread: if the network thread has ended (and the link is not
        stopping), call ``forget`` (the owner clears what the dead client's callbacks had set) and
        start a new client in its place. Whether it did."""
        if self._stopping.is_set() or self.alive:
            return False
        now = time.monotonic()
        if now - self._restarted < RESTART_S:
            return False
        self._restarted = now
        self.counters["network_restarts"] += 1
        log.warning("%s: the MQTT network thread had stopped; connecting again with a new client", self.name)
        old = self.client
        sock = old.socket()
        if sock is not None:
            sock.close()  # no thread reads it any more; the broker sees the connection go
        if forget is not None:
            forget()  # before the new client's callbacks can set anything
        self.client = self._new_client()
        self._connect()
        return True

    def stop(self) -> None:
        self._stopping.set()
        self.client.disconnect()
        self.client.loop_stop()
