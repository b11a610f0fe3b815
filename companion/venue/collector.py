"""The venue's broker side: subscribes to every table of a venue, stores events, asks for gaps.

The venue knows it is behind on a table when the table's (retained) board, or an event past a gap,
shows a seq it has not stored. While it is behind it asks the table to replay
(``{"instance", "from": next_seq}`` on the table's ``replay`` topic): at once on a gap, and again on
a timer for as long as it stays behind and nothing new has arrived since the last request. A lost
request (the table was offline, the broker restarted, the request crossed the table's own replay)
is therefore asked again, not waited on until the table's next board. A replay already streaming in
moves the stored mark, which holds the next request back: asking again would only double the traffic.

Bad payloads and unknown topics get one warning each (per topic) and a count; they never stop the
collector. A payload is measured before it is parsed (:mod:`companion.venue.limits`): too many bytes
or too deep is a bad message, not a ``RecursionError``. Every paho callback is guarded and the
network thread watched (:mod:`companion.venue.link`): the ticker notices a dead one and connects again,
and :meth:`VenueCollector.health` says so.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from typing import Any

import paho.mqtt.client as mqtt

from companion.core import JsonObject
from companion.venue.broker import BrokerConfig, new_client_id, topic
from companion.venue.limits import BOARD_BYTES, EVENT_BYTES, PACKET_BYTES, BadMessage, name_of, read_object, seq_of
from companion.venue.link import BrokerLink, Callback
from companion.venue.store import Stored, VenueStore

log = logging.getLogger(__name__)

__all__ = ["ASK_AGAIN_S", "BadMessage", "VenueCollector"]

ASK_AGAIN_S = 1.0
"""How long a table may stay behind with nothing new arriving before the venue asks again."""
TICK_S = 0.25
WARNED_TOPICS = 1000
"""Topics the venue has warned about once; past this many, bad messages are only counted."""
ASKED_KEPT_S = 60.0
"""A replay request older than this is forgotten (so the map of requests stays as small as the tables behind)."""


class VenueCollector:
    def __init__(self, store: VenueStore, config: BrokerConfig, client_id: str = "") -> None:
        self.store = store
        self.config = config
        self.client_id = client_id or new_client_id("venue")
        """Random unless given: a table that could guess it could connect with it and knock the venue off."""
        self.counters = {
            "bad": 0, "asked": 0, "unknown_topic": 0, "disconnects": 0, "callback_errors": 0, "network_restarts": 0,
        }
        self._asked: dict[tuple[str, str, str], tuple[float, int]] = {}
        """(venue, table, instance) → (when the venue last asked, the next seq it asked from)."""
        self._warned: set[str] = set()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._connected = threading.Event()
        self._subscribed = threading.Event()
        self._subscribing: set[int] = set()
        """Message ids of the subscriptions the broker has not acknowledged yet."""
        self._ticker = threading.Thread(target=self._tick, name="venue-ask", daemon=True)
        callbacks: dict[str, Callback] = {
            "on_connect": self._on_connect, "on_disconnect": self._on_disconnect,
            "on_subscribe": self._on_subscribe, "on_message": self._on_message,
        }
        self.link = BrokerLink("venue", config, self.client_id, callbacks, self.counters, PACKET_BYTES)

    @property
    def client(self) -> mqtt.Client:
        """The paho client in use (a new one after the network thread was restarted)."""
        return self.link.client

    def start(self) -> "VenueCollector":
        self.link.start()
        self._ticker.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._ticker.is_alive():
            self._ticker.join(5)
        self.link.stop()

    @property
    def connected(self) -> bool:
        return self._connected.is_set() and self.link.alive

    @property
    def subscribed(self) -> bool:
        """Connected, and the broker acknowledged both subscriptions: every message from now on comes
        here (false as soon as paho's network thread is found dead, whatever its flags said)."""
        return self._subscribed.is_set() and self.link.alive

    def health(self) -> JsonObject:
        """The collector's state for the venue's status: the network thread, the connection, the counts."""
        return {
            "network": "running" if self.link.alive else "stopped",
            "connected": self.connected,
            "subscribed": self.subscribed,
            "client_id": self.client_id,
            "counters": dict(self.counters),
        }

    # -- paho callbacks (its network thread; each one guarded by the link) -----------------------

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        if reason.is_failure:
            log.warning("broker %s:%d refused the venue: %s", self.config.host, self.config.port, reason)
            return
        mids = [client.subscribe(topic(self.config.venue, "+", leaf), qos=1)[1] for leaf in ("event", "board")]
        with self._lock:  # the acknowledgements come on this same thread, after this callback returns
            self._subscribing = {m for m in mids if m is not None}
        self._connected.set()
        log.info("venue %s subscribed at %s:%d", self.config.venue, self.config.host, self.config.port)

    def _on_subscribe(self, client: mqtt.Client, userdata: Any, mid: int, reasons: Any, props: Any) -> None:
        if any(getattr(r, "is_failure", False) for r in reasons):
            log.warning("broker %s:%d refused the venue's subscription: %s", self.config.host, self.config.port, reasons)
            return
        with self._lock:
            self._subscribing.discard(mid)
            done = not self._subscribing
        if done:
            self._subscribed.set()

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        self._connected.clear()
        self._subscribed.clear()
        if not self._stop.is_set():
            self.counters["disconnects"] += 1
            log.warning("venue lost the broker (%s); reconnecting, then asking for what it missed", reason)

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        where = "(a topic that is not UTF-8)"
        try:
            where = message.topic
            self._take(where, message.payload)
        except (ValueError, KeyError, TypeError, AttributeError) as exc:  # BadMessage, JSON and UTF-8 errors are ValueErrors
            self.counters["bad"] += 1
            if where not in self._warned and len(self._warned) < WARNED_TOPICS:  # one message per topic, then the count
                self._warned.add(where)
                log.warning("ignored a message on %s: %s (further ones are only counted)", where[:200], exc)

    def _take(self, topic: str, payload: bytes | bytearray) -> None:
        parts = topic.split("/")
        if len(parts) != 4 or parts[0] != "venue" or parts[3] not in ("event", "board"):
            self.counters["unknown_topic"] += 1
            raise BadMessage("not venue/<venue>/<table>/event or /board")
        _, venue, table, leaf = parts
        name_of(table, "the table's name")
        if leaf == "board":
            board = read_object(payload, BOARD_BYTES, "board")
            seq_of(board.get("seq"), "the board's seq", low=0)
            name_of(board.get("instance"), "the board's instance")
            self.store.set_board(venue, table, board)
            return
        body = read_object(payload, EVENT_BYTES, "event")
        row = body["row"]
        if not isinstance(row, dict):
            raise BadMessage('"row" is not an object')
        instance, seq = name_of(body["instance"], "the instance"), seq_of(body["seq"], "seq")
        hash_ = name_of(body["hash"], "the hash")
        if self.store.add_event(venue, table, instance, seq, hash_, row) is Stored.BUFFERED:
            self._ask(venue, table, instance, self.store.last_seq(venue, table, instance) + 1)

    # -- asking for what is missing, and watching the network thread ------------------------------

    def _tick(self) -> None:
        while not self._stop.wait(TICK_S):
            try:
                self._tick_once()
            except Exception:  # logged and counted; the next tick tries again
                self.counters["bad"] += 1
                log.exception("checking which tables the venue is behind on failed")

    def _tick_once(self) -> None:
        self.link.watch(self._forget_connection)
        if not self._connected.is_set():
            return
        for behind in self.store.behind():
            self._ask(behind.venue, behind.table, behind.instance, behind.next_seq)
        self._forget_old_requests()

    def _forget_connection(self) -> None:
        """paho's thread had died: the flags its callbacks left say nothing any more."""
        self._connected.clear()
        self._subscribed.clear()

    def _forget_old_requests(self) -> None:
        cut = time.monotonic() - ASKED_KEPT_S
        with self._lock:
            for key in [k for k, (when, _) in self._asked.items() if when < cut]:
                del self._asked[key]

    def _ask(self, venue: str, table: str, instance: str, start: int) -> None:
        """Ask for a replay from ``start`` unless a request went out less than :data:`ASK_AGAIN_S` ago.
        When the stored mark has moved since that request, the replay is arriving: the clock starts
        again from now instead of asking a second time."""
        key = (venue, table, instance)
        t = time.monotonic()
        with self._lock:
            when, asked_from = self._asked.get(key, (-1e9, 0))
            if t - when < ASK_AGAIN_S:
                if asked_from != start:
                    self._asked[key] = (t, start)
                return
            self._asked[key] = (t, start)
        self.counters["asked"] += 1
        self.client.publish(topic(venue, table, "replay"), json.dumps({"instance": instance, "from": start}), qos=1)
        log.info("asked %s/%s (game %s) to replay from %d", venue, table, instance, start)
