"""A table publishes its public game to an MQTT broker (issue 16).

The table's log is the truth. A session listener only puts row numbers into a bounded queue; a
thread of its own drains it, reads the rows back from the log and publishes their public form
(:meth:`Session.public_row`) with QoS 1, and the board retained. Nothing touches the network under
the session lock. When the queue overflows, or the broker is away, nothing is lost: the publisher
remembers the last seq the broker acknowledged and, on (re)connect, replays the rest from the log
in order.

Topics, per venue and per table::

    venue/<venue>/<table>/event    one public row per message, QoS 1, in seq order
    venue/<venue>/<table>/board    the latest public board, retained, QoS 1
    venue/<venue>/<table>/replay   (the venue writes) {"after": seq}: publish again from there
"""

from __future__ import annotations

import json
import logging
import queue
import ssl
import threading
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from companion.config import BrokerConfig
from companion.core import JsonObject
from companion.log import LogRow
from companion.session import Session

log = logging.getLogger(__name__)

QUEUE_LIMIT = 1000
"""Row numbers waiting to be published; on overflow they are dropped and replayed from the log."""
REPLAY_BATCH = 200


def topic(venue: str, table: str, leaf: str) -> str:
    return f"venue/{venue}/{table}/{leaf}"


def chain_head(board: JsonObject, last: LogRow | None) -> str:
    """The chain-head fingerprint: ``board["chain"]`` when the session gives one, else the last row's hash prefix."""
    chain = board.get("chain")
    if isinstance(chain, str) and chain:
        return chain
    return last.hash[:16] if last is not None else ""


class TablePublisher:
    """Publishes one session's public rows and board; never blocks the referee."""

    def __init__(self, session: Session, config: BrokerConfig) -> None:
        self.session = session
        self.config = config
        self.counters = {"published": 0, "dropped": 0, "replays": 0, "errors": 0}
        self._queue: queue.Queue[int | None] = queue.Queue(QUEUE_LIMIT)
        self._stop = threading.Event()
        self._connected = threading.Event()
        self._sent = 0
        """The last seq handed to the broker while connected; a reconnect replays from the acked mark."""
        self._acked = 0
        self._pending: dict[int, int] = {}
        """paho message id → seq, for QoS 1 acknowledgements."""
        self._lock = threading.Lock()
        self._unsubscribe: Any = None
        self._thread = threading.Thread(target=self._run, name="mqtt-publish", daemon=True)
        self.client = mqtt.Client(
            CallbackAPIVersion.VERSION2, client_id=f"table-{config.venue}-{config.table}", protocol=mqtt.MQTTv5
        )
        if config.username:
            self.client.username_pw_set(config.username, config.password)
        if config.ca_file:
            self.client.tls_set(ca_certs=config.ca_file, tls_version=ssl.PROTOCOL_TLS_CLIENT)
        self.client.max_queued_messages_set(QUEUE_LIMIT)
        self.client.reconnect_delay_set(1, 5)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_publish = self._on_publish
        self.client.on_message = self._on_message

    # -- life --------------------------------------------------------------------------------

    def start(self) -> "TablePublisher":
        self._unsubscribe = self.session.subscribe(self._listener)
        self.client.connect_async(self.config.host, self.config.port, keepalive=10)
        self.client.loop_start()
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
        self._stop.set()
        try:
            self._queue.put_nowait(None)
        except queue.Full:
            pass
        self._thread.join(5)
        self.client.disconnect()
        self.client.loop_stop()

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
            if not self._connected.is_set():
                continue
            try:
                self._catch_up()
            except Exception:  # logged and counted; the next wake-up tries again from the log
                self.counters["errors"] += 1
                log.exception("publishing to the broker failed")

    def _catch_up(self) -> None:
        """Publish every log row after the last one sent, in order, then the board."""
        last: LogRow | None = None
        while self._connected.is_set():
            with self._lock:
                after = self._sent
            rows = list(self.session.log.rows(after=after, limit=REPLAY_BATCH))
            if not rows:
                break
            for row in rows:
                if not self._connected.is_set():
                    return
                payload = {"seq": row.seq, "hash": row.hash[:16], "row": self.session.public_row(row)}
                info = self.client.publish(self._topic("event"), json.dumps(payload), qos=1)
                with self._lock:
                    self._pending[info.mid] = row.seq
                    self._sent = row.seq
                self.counters["published"] += 1
                last = row
        if last is not None:
            board = self.session.board()
            board["chain"] = chain_head(board, last)
            self.client.publish(self._topic("board"), json.dumps(board), qos=1, retain=True)

    def _topic(self, leaf: str) -> str:
        return topic(self.config.venue, self.config.table, leaf)

    # -- paho callbacks (its network thread) -------------------------------------------------

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        if reason.is_failure:
            log.warning("broker %s:%d refused the table: %s", self.config.host, self.config.port, reason)
            return
        with self._lock:
            self._sent = self._acked  # whatever was not acknowledged is sent again, in order, from the log
            self._pending.clear()
        client.subscribe(self._topic("replay"), qos=1)
        self._connected.set()
        self.counters["replays"] += 1
        self._wake()
        log.info("publishing to %s:%d as %s/%s", self.config.host, self.config.port, self.config.venue, self.config.table)

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        self._connected.clear()
        log.warning("broker connection lost (%s); the log keeps every row for the replay", reason)

    def _on_publish(self, client: mqtt.Client, userdata: Any, mid: int, reason: Any, props: Any) -> None:
        with self._lock:
            seq = self._pending.pop(mid, None)
            if seq is not None and seq == self._acked + 1:
                self._acked = seq
            elif seq is not None and seq > self._acked:
                # acks of QoS 1 arrive in order on one connection; a gap means an earlier one is pending
                if all(s > self._acked for s in self._pending.values()) and not any(s < seq for s in self._pending.values()):
                    self._acked = seq

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        try:
            after = int(json.loads(message.payload)["after"])
        except (ValueError, KeyError, TypeError) as exc:
            self.counters["errors"] += 1
            log.warning("ignored a replay request %r: %s", message.payload[:80], exc)
            return
        with self._lock:
            self._sent = min(self._sent, max(after, 0))
        self._wake()

    def _wake(self) -> None:
        try:
            self._queue.put_nowait(-1)
        except queue.Full:
            pass
