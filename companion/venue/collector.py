"""The venue's broker side: subscribes to every table of a venue, stores events, asks for gaps.

The venue knows it is behind on a table when the table's (retained) board, or an event past a gap,
shows a seq it has not stored. While it is behind it asks the table to replay
(``{"instance", "from": next_seq}`` on the table's ``replay`` topic): at once on a gap, and again on
a timer for as long as it stays behind and nothing new has arrived since the last request. A lost
request (the table was offline, the broker restarted, the request crossed the table's own replay)
is therefore asked again, not waited on until the table's next board. A replay already streaming in
moves the stored mark, which holds the next request back: asking again would only double the traffic.

Bad payloads and unknown topics get one warning each (per topic) and a count; they never stop the collector.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from typing import Any

import paho.mqtt.client as mqtt

from companion.venue.broker import client_for, topic
from companion.venue.broker import BrokerConfig
from companion.venue.store import Stored, VenueStore

log = logging.getLogger(__name__)

ASK_AGAIN_S = 1.0
"""How long a table may stay behind with nothing new arriving before the venue asks again."""
TICK_S = 0.25
WARNED_TOPICS = 1000
"""Topics the venue has warned about once; past this many, bad messages are only counted."""


class BadMessage(ValueError):
    """A message on a venue topic that the venue cannot read."""


class VenueCollector:
    def __init__(self, store: VenueStore, config: BrokerConfig, client_id: str = "venue") -> None:
        self.store = store
        self.config = config
        self.counters = {"bad": 0, "asked": 0, "unknown_topic": 0}
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
        self.client = client_for(config, client_id)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_subscribe = self._on_subscribe
        self.client.on_message = self._on_message

    def start(self) -> "VenueCollector":
        self.client.connect_async(self.config.host, self.config.port, keepalive=10)
        self.client.loop_start()
        self._ticker.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._ticker.is_alive():
            self._ticker.join(5)
        self.client.disconnect()
        self.client.loop_stop()

    @property
    def connected(self) -> bool:
        return self._connected.is_set()

    @property
    def subscribed(self) -> bool:
        """Connected, and the broker acknowledged both subscriptions: every message from now on comes here."""
        return self._subscribed.is_set()

    # -- paho callbacks (its network thread) ---------------------------------------------------

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
            log.warning("venue lost the broker (%s); reconnecting, then asking for what it missed", reason)

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        try:
            self._take(message.topic, message.payload)
        except (BadMessage, ValueError, KeyError, TypeError, AttributeError) as exc:
            self.counters["bad"] += 1
            if message.topic not in self._warned and len(self._warned) < WARNED_TOPICS:  # one message per topic, then the count
                self._warned.add(message.topic)
                log.warning("ignored a message on %s: %s (further ones are only counted)", message.topic, exc)

    def _take(self, topic: str, payload: bytes | bytearray) -> None:
        parts = topic.split("/")
        if len(parts) != 4 or parts[0] != "venue" or parts[3] not in ("event", "board"):
            self.counters["unknown_topic"] += 1
            raise BadMessage("not venue/<venue>/<table>/event or /board")
        _, venue, table, leaf = parts
        body = json.loads(payload)
        if not isinstance(body, dict):
            raise BadMessage("the payload is not a JSON object")
        if leaf == "board":
            int(body["seq"])
            str(body["instance"])
            self.store.set_board(venue, table, body)
            return
        row = body["row"]
        if not isinstance(row, dict):
            raise BadMessage('"row" is not an object')
        instance, seq = str(body["instance"]), int(body["seq"])
        if seq < 1:
            raise BadMessage(f"seq {seq} is not a log seq")
        if self.store.add_event(venue, table, instance, seq, str(body["hash"]), row) is Stored.BUFFERED:
            self._ask(venue, table, instance, self.store.last_seq(venue, table, instance) + 1)

    # -- asking for what is missing -------------------------------------------------------------

    def _tick(self) -> None:
        while not self._stop.wait(TICK_S):
            if not self._connected.is_set():
                continue
            try:
                for behind in self.store.behind():
                    self._ask(behind.venue, behind.table, behind.instance, behind.next_seq)
            except Exception:  # logged and counted; the next tick tries again
                self.counters["bad"] += 1
                log.exception("checking which tables the venue is behind on failed")

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
