"""Fan-out of session events to every open page (server-sent events).

Each stream has its own bounded queue. A stream that cannot keep up is closed rather than
allowed to grow without bound; the browser reconnects with ``Last-Event-ID`` and the stream
resumes from the log, so a slow phone misses nothing and slows no one else.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
from dataclasses import dataclass

from companion.core import JsonObject
from companion.log import LogRow
from companion.session import Session

log = logging.getLogger(__name__)

QUEUE_LIMIT = 4096


@dataclass(frozen=True)
class Event:
    """One server-sent event. ``id`` is the log row's seq for row events, None for board updates."""

    name: str
    data: str
    id: int | None = None

    def encode(self) -> bytes:
        lines = []
        if self.id is not None:
            lines.append(f"id: {self.id}")
        lines.append(f"event: {self.name}")
        lines.extend(f"data: {part}" for part in self.data.split("\n"))
        return ("\n".join(lines) + "\n\n").encode("utf-8")


class Overflow(Exception):
    """A stream fell too far behind and is closed; the client resumes from the log."""


class Closing(Exception):
    """The server is shutting down; the stream ends (the browser reconnects to the next server)."""


_CLOSING = Event("closing", "")


class Stream:
    def __init__(self) -> None:
        self.queue: queue.Queue[Event | None] = queue.Queue(QUEUE_LIMIT)
        self.overflowed = False

    def put(self, event: Event) -> None:
        if self.overflowed:
            return
        try:
            self.queue.put_nowait(event)
        except queue.Full:
            self.overflowed = True
            log.warning("an event stream fell %d events behind; closing it so it resumes from the log", QUEUE_LIMIT)
            try:
                self.queue.get_nowait()
                self.queue.put_nowait(None)
            except (queue.Empty, queue.Full):
                pass

    def get(self, timeout: float) -> Event | None:
        """The next event; None when nothing came within ``timeout`` (time for a heartbeat)."""
        try:
            event = self.queue.get(timeout=timeout)
        except queue.Empty:
            return None
        if event is None:
            raise Overflow()
        if event is _CLOSING:
            raise Closing()
        return event

    def end(self) -> None:
        try:
            self.queue.put_nowait(_CLOSING)
        except queue.Full:
            self.overflowed = True


def row_event(session: Session, row: LogRow) -> Event:
    return Event("row", json.dumps(session.public_row(row), separators=(",", ":")), row.seq)


def board_event(board: JsonObject) -> Event:
    return Event("board", json.dumps(board, separators=(",", ":")))


class Broadcaster:
    """Subscribes to the session once and copies every batch to every open stream."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self._streams: set[Stream] = set()
        self._lock = threading.Lock()
        self.unsubscribe = session.subscribe(self._on_batch)

    def _on_batch(self, rows: list[LogRow], board: JsonObject) -> None:
        with self._lock:
            streams = list(self._streams)
        if not streams:
            return
        events = [row_event(self.session, row) for row in rows]
        events.append(board_event(board))
        for stream in streams:
            for event in events:
                stream.put(event)

    def open(self) -> Stream:
        stream = Stream()
        with self._lock:
            self._streams.add(stream)
        return stream

    def close(self, stream: Stream) -> None:
        with self._lock:
            self._streams.discard(stream)

    def shutdown(self) -> None:
        """End every open stream (server shutdown)."""
        self.unsubscribe()
        with self._lock:
            streams = list(self._streams)
        for stream in streams:
            stream.end()

    @property
    def listeners(self) -> int:
        with self._lock:
            return len(self._streams)
