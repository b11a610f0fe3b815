"""A table publishes its public game to an MQTT broker (issue 16).

The table's log is the truth. A session listener only puts row numbers into a bounded queue; a
thread of its own drains it, reads the rows back from the log and publishes their public form
(:meth:`Session.public_row`) with QoS 1, and the board retained. Nothing touches the network under
the session lock. When the queue overflows, or the broker is away, nothing is lost: the publisher
remembers the last seq the broker acknowledged and, on (re)connect, replays the rest from the log
in order.

Topics, per venue and per table::

    venue/<venue>/<table>/event    {"instance", "seq", "hash", "row"}: one public row, QoS 1, in seq order
    venue/<venue>/<table>/board    the latest public board (with its "instance"), retained, QoS 1
    venue/<venue>/<table>/replay   (the venue writes) {"instance", "from": seq}: publish again from there

``instance`` names one game at the table (the first 16 hex of its log's header-row hash): a new game
is a new log whose seqs start again at 1, so the venue keys every event by (table, instance, seq).

A replay request is answered idempotently: the publisher rewinds its "sent" mark to ``from - 1``
(never forward) and publishes the log from there, then the board. Two equal requests cost a second
copy of the same rows, which the venue drops as duplicates; a request for another game is ignored
(counted). The rewind bumps a generation number, so a catch-up already running notices it and starts
again from the rewound mark instead of writing its own mark over it.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
import time
from typing import Any

import paho.mqtt.client as mqtt

from companion.venue.broker import BrokerConfig, new_client_id, topic
from companion.venue.limits import REPLAY_BYTES, TABLE_PACKET_BYTES, name_of, read_object, seq_of
from companion.venue.link import BrokerLink, Callback
from companion.core import JsonObject
from companion.log.store import LogRow
from companion.referee.session import Session

log = logging.getLogger(__name__)

QUEUE_LIMIT = 1000
"""Row numbers waiting to be published; on overflow they are dropped and replayed from the log."""
REPLAY_BATCH = 200


def _bound_queue(client: mqtt.Client) -> None:
    client.max_queued_messages_set(QUEUE_LIMIT)


class TablePublisher:
    """Publishes one session's public rows and board; never blocks the referee."""

    def __init__(self, session: Session, config: BrokerConfig) -> None:
        self.session = session
        self.config = config
        self.instance = session.instance
        self.counters = {
            "published": 0, "dropped": 0, "replays": 0, "errors": 0, "foreign": 0, "held": 0,
            "disconnects": 0, "callback_errors": 0, "network_restarts": 0,
        }
        self._queue: queue.Queue[int | None] = queue.Queue(QUEUE_LIMIT)
        self._stop = threading.Event()
        self._connected = threading.Event()
        self._lock = threading.Lock()
        self._sent = 0
        """The last seq handed to paho; a reconnect or a replay request moves it back (never forward)."""
        self._acked = 0
        """Every seq up to here was acknowledged by the broker (QoS 1) on some connection."""
        self._high = 0
        """The highest seq handed to paho on this connection."""
        self._generation = 0
        """Bumped by every rewind, so that a catch-up in progress starts again from the rewound mark."""
        self._board_due = True
        self._pending: dict[int, int] = {}
        """paho message id → seq, for QoS 1 acknowledgements."""
        self._unsubscribe: Any = None
        self._thread = threading.Thread(target=self._run, name="mqtt-publish", daemon=True)
        callbacks: dict[str, Callback] = {
            "on_connect": self._on_connect, "on_disconnect": self._on_disconnect,
            "on_publish": self._on_publish, "on_message": self._on_message,
        }
        # A random client id: one that could be guessed could be used to knock the table off the broker.
        self.link = BrokerLink(
            f"table {config.venue}/{config.table}", config, new_client_id(f"table-{config.venue}-{config.table}"),
            callbacks, self.counters, TABLE_PACKET_BYTES, setup=_bound_queue,
        )

    @property
    def client(self) -> mqtt.Client:
        """The paho client in use (a new one after its network thread was restarted)."""
        return self.link.client

    # -- life --------------------------------------------------------------------------------

    def start(self) -> "TablePublisher":
        self._unsubscribe = self.session.subscribe(self._listener)
        self.link.start()
        self._thread.start()
        return self

    def stop(self, flush_s: float = 0.0) -> None:
        """Stop publishing; with ``flush_s``, first wait up to that long for the broker to acknowledge
        every row (a table moving on to a new game hands over the last one whole if it can)."""
        if self._unsubscribe is not None:
            self._unsubscribe()
        if flush_s > 0:
            self._wake()
            deadline = time.monotonic() + flush_s
            while time.monotonic() < deadline and self.acked < self.session.log.last_seq and self._connected.is_set():
                time.sleep(0.02)
        self._stop.set()
        try:
            self._queue.put_nowait(None)
        except queue.Full:
            pass
        self._thread.join(5)
        self.link.stop()

    @property
    def acked(self) -> int:
        with self._lock:
            return self._acked

    # -- the session side: cheap, never the network ---------------------------------------------

    def _listener(self, rows: list[LogRow], board: JsonObject) -> None:
        if not rows:
            return  # a health refresh with no row: the next row carries the board
        try:
            self._queue.put_nowait(rows[-1].seq)
        except queue.Full:
            self.counters["dropped"] += 1  # the log has it; the drain thread catches up from there

    # -- the publishing thread -----------------------------------------------------------------

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                item = self._queue.get(timeout=0.5)
            except queue.Empty:
                item = -1
            if item is None:
                return
            try:
                self.link.watch(self._connected.clear)  # a dead network thread: a new client, whose connect rewinds
                if not self._connected.is_set():
                    continue
                self._catch_up()
            except Exception:  # logged and counted; the next wake-up tries again from the log
                self.counters["errors"] += 1
                log.exception("publishing to the broker failed")

    def _catch_up(self) -> None:
        """Publish every log row after the sent mark, in order, then the board."""
        published = False
        while self._connected.is_set():
            with self._lock:
                after, generation = self._sent, self._generation
            rows = list(self.session.log.rows(after=after, limit=REPLAY_BATCH))
            if not rows:
                break
            for row in rows:
                if not self._connected.is_set():
                    return
                payload = {"instance": self.instance, "seq": row.seq, "hash": row.hash[:16], "row": self.session.public_row(row)}
                info = self.client.publish(self._topic("event"), json.dumps(payload), qos=1)
                if info.rc == mqtt.MQTT_ERR_QUEUE_SIZE:
                    self.counters["held"] += 1  # paho's queue is full: this row waits for acks (the log has it)
                    return
                with self._lock:
                    if self._generation != generation:
                        break  # rewound meanwhile: start again from the rewound mark
                    self._pending[info.mid] = row.seq
                    self._sent = row.seq
                    self._high = max(self._high, row.seq)
                self.counters["published"] += 1
                published = True
        with self._lock:
            due, self._board_due = self._board_due or published, False
        if due and self._connected.is_set():
            self.publish_board()

    def publish_board(self) -> None:
        board = self.session.board()
        board["instance"] = self.instance
        self.client.publish(self._topic("board"), json.dumps(board), qos=1, retain=True)

    def _topic(self, leaf: str) -> str:
        return topic(self.config.venue, self.config.table, leaf)

    def _rewind(self, to: int) -> None:
        with self._lock:
            self._sent = min(self._sent, max(to, 0))
            self._generation += 1
            self._board_due = True
        self._wake()

    # -- paho callbacks (its network thread) -------------------------------------------------

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        if reason.is_failure:
            log.warning("broker %s:%d refused the table: %s", self.config.host, self.config.port, reason)
            return
        with self._lock:
            self._high = self._acked
            self._pending.clear()
        client.subscribe(self._topic("replay"), qos=1)
        self._connected.set()
        self.counters["replays"] += 1
        self._rewind(self._acked)  # whatever was not acknowledged is sent again, in order, from the log
        log.info("publishing to %s:%d as %s/%s", self.config.host, self.config.port, self.config.venue, self.config.table)

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        self._connected.clear()
        if self._stop.is_set():
            return
        self.counters["disconnects"] += 1
        log.warning("broker connection lost (%s); the log keeps every row for the replay", reason)

    def _on_publish(self, client: mqtt.Client, userdata: Any, mid: int, reason: Any, props: Any) -> None:
        with self._lock:
            if self._pending.pop(mid, None) is None:
                return
            # QoS 1 acks arrive in order on one connection: all below the oldest unacknowledged one are in.
            done = min(self._pending.values()) - 1 if self._pending else self._high
            self._acked = max(self._acked, done)

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        try:  # written by the venue's user, but read as untrusted: measured before it is parsed
            body = read_object(message.payload, REPLAY_BYTES, "replay request")
            instance, start = name_of(body["instance"], "the instance"), seq_of(body["from"], "from")
        except (ValueError, KeyError, TypeError) as exc:
            self.counters["errors"] += 1
            log.warning("ignored a replay request %r: %s", message.payload[:80], exc)
            return
        if instance != self.instance:
            self.counters["foreign"] += 1
            log.info("ignored a replay request for game %s: this table now plays %s", instance, self.instance)
            return
        self.counters["replays"] += 1
        self._rewind(start - 1)

    def _wake(self) -> None:
        try:
            self._queue.put_nowait(-1)
        except queue.Full:
            pass
