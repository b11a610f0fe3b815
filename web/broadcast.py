"""Fan-out of session events to every open page (server-sent events).

Each stream has its own bounded queue. A stream that cannot keep up is closed rather than
allowed to grow without bound; the browser reconnects with ``Last-Event-ID`` and the stream
resumes from the log, so a slow phone misses nothing and slows no one else.
"""

from __future__ import annotations

import json
import logging
import threading
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from companion.core import JsonObject
from companion.log.store import LogRow
from companion.referee.session import Session

log = logging.getLogger(__name__)

QUEUE_LIMIT = 4096


@dataclass(frozen=True)
class Event:
    """One server-sent event. ``id`` is the log row's seq for row events, None for board updates."""

    name: str
    data: str
    id: int | None = None
    wire: bytes = field(init=False, repr=False, compare=False)
    """The event as sent, encoded once: the same event goes to every open stream."""

    def __post_init__(self) -> None:
        lines = []
        if self.id is not None:
            lines.append(f"id: {self.id}")
        lines.append(f"event: {self.name}")
        lines.extend(f"data: {part}" for part in self.data.split("\n"))
        object.__setattr__(self, "wire", ("\n".join(lines) + "\n\n").encode("utf-8"))

    def encode(self) -> bytes:
        return self.wire


class Overflow(Exception):
    """A stream fell too far behind and is closed; the client resumes from the log."""


class Closing(Exception):
    """The server is shutting down; the stream ends (the browser reconnects to the next server)."""


class Stream:
    """One open page's events, waiting to be sent. Bounded: see :class:`Overflow`."""

    def __init__(self) -> None:
        self._events: deque[Event] = deque()
        self._ready = threading.Condition()
        self._closing = False
        self.overflowed = False

    def put_many(self, events: Sequence[Event]) -> None:
        """A session batch's events, in order; one lock and one wake-up for the whole batch."""
        with self._ready:
            if self.overflowed or self._closing:
                return
            if len(self._events) + len(events) > QUEUE_LIMIT:
                self.overflowed = True
                self._events.clear()
                log.warning("an event stream fell %d events behind; closing it so it resumes from the log", QUEUE_LIMIT)
            else:
                self._events.extend(events)
            self._ready.notify()

    def put(self, event: Event) -> None:
        self.put_many((event,))

    def take(self, timeout: float) -> list[Event]:
        """Every event waiting, oldest first; [] when nothing came within ``timeout`` (time for a heartbeat)."""
        with self._ready:
            if not self._events and not self.overflowed and not self._closing:
                self._ready.wait(timeout)
            if self.overflowed:
                raise Overflow()
            if self._closing and not self._events:
                raise Closing()
            events = list(self._events)
            self._events.clear()
            return events

    def qsize(self) -> int:
        return len(self._events)

    def end(self) -> None:
        with self._ready:
            self._closing = True
            self._ready.notify()


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
        self.on_rows: list[Callable[[Session], None]] = []
        """Called with the session after each batch of rows has gone to the open pages (while any is open)."""
        self.unsubscribe = session.subscribe(self._on_batch)

    def _on_batch(self, rows: list[LogRow], board: JsonObject) -> None:
        with self._lock:
            streams = list(self._streams)
        if not streams:
            return
        events = [row_event(self.session, row) for row in rows]
        events.append(board_event(board))
        for stream in streams:
            stream.put_many(events)
        if rows:
            for then in self.on_rows:
                then(self.session)

    def open(self) -> Stream:
        stream = Stream()
        with self._lock:
            self._streams.add(stream)
        return stream

    def close(self, stream: Stream) -> None:
        with self._lock:
            self._streams.discard(stream)

    def switch(self, session: Session) -> None:
        """The table moved on to a new game: every open page is told ("game") and its stream ended;
        the pages reload and listen to the new game."""
        self.unsubscribe()
        self.session = session
        self.unsubscribe = session.subscribe(self._on_batch)
        with self._lock:
            streams = list(self._streams)
        news = Event("game", json.dumps({"game": session.game.id, "players": list(session.header.players)}))
        for stream in streams:
            stream.put(news)
            stream.end()

    def shutdown(self) -> None:
        """End every open stream (server shutdown)."""
        self.unsubscribe()
        with self._lock:
            streams = list(self._streams)
        for stream in streams:
            stream.end()

    def depths(self) -> list[int]:
        """Events waiting in each open stream (a backlog gauge)."""
        with self._lock:
            streams = list(self._streams)
        return [stream.qsize() for stream in streams]

    @property
    def listeners(self) -> int:
        with self._lock:
            return len(self._streams)
