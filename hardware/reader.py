"""The reader seam: what every kind of reader is to the rest of the companion, and what it is given.

A reader watches one zone and is named by that zone's reader address
(:class:`~companion.core.readers.ReaderAddress`). Whatever the kind (an nfcpy device, a channel
of the reader array, later an ISO 15693 pile reader), it is opened with a :class:`ReaderContext`
and then only: started, stopped, asked its health. It reports by calling the context's sinks from
its own thread: ``on_event`` for each tag arriving or departing, ``on_state`` (if it can list what
lies on it) for the whole list, and the context's health board for its status and counters. The
factory that picks the class from the address's scheme is :mod:`hardware.readers`.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from companion.core.readers import ButtonPress, ReaderEvent
from hardware.health import HealthBoard
from hardware.worker import Around, ReaderThread

EventSink = Callable[[ReaderEvent], object]
"""Where a reader sends each tag event (the table model's ``reader_event``)."""
StateSink = Callable[[str, tuple[str, ...], float, bool], object]
"""``(reader, uids, table_time, judge)``: what lies on a reader now (the table model's ``resync``)."""
PressSink = Callable[[ButtonPress], object]
"""Where a button wired to an array sends each press (the table model's ``button_pressed``)."""


class Reader(Protocol):
    """One reader of the table, whatever its kind."""

    @property
    def reader_id(self) -> str:
        """What it watches: its address as the config writes it; the ``reader`` of its events, its health key."""

    @property
    def running(self) -> bool: ...

    def start(self, around: Around | None = None) -> None:
        """Start reading in the background; ``around`` wraps the thread's body (a profiler)."""

    def request_stop(self) -> None:
        """Ask it to stop without waiting, so that several readers stop in parallel."""

    def stop(self, timeout: float = 5.0) -> None:
        """Stop it and wait, at most ``timeout`` seconds."""

    def health(self) -> dict[str, Any]:
        """Its status dict on the health board (:mod:`hardware.health`)."""


class ArrayPort(Protocol):
    """Where one reader array is plugged in (the config's ``ArrayConfig`` is one)."""

    @property
    def port(self) -> str:
        """A serial device, a udev name or a pyserial URL."""

    @property
    def baud(self) -> int: ...


Link = TypeVar("Link", bound=ReaderThread)


class SharedLink(Generic[Link]):
    """A link several readers share (a reader array's serial bridge): it runs while any of them does."""

    def __init__(self, link: Link) -> None:
        self.link = link
        self._users: set[object] = set()
        self._lock = threading.Lock()

    def acquire(self, user: object, around: Around | None = None) -> None:
        with self._lock:
            self._users.add(user)
            if not self.link.running:
                self.link.start(around)

    def request_release(self, user: object) -> None:
        with self._lock:
            self._users.discard(user)
            if not self._users:
                self.link.request_stop()

    def release(self, user: object, timeout: float = 5.0) -> None:
        with self._lock:
            self._users.discard(user)
            if not self._users:
                self.link.stop(timeout)

    def used_by(self, user: object) -> bool:
        return user in self._users and self.link.running


@dataclass
class ReaderContext:
    """What every reader is opened with: where it reports, the table's arrays, the clock."""

    on_event: EventSink
    health: HealthBoard
    on_state: StateSink | None = None
    arrays: Mapping[str, ArrayPort] = field(default_factory=dict)
    """The table's reader arrays by name: ``""`` is ``[array]`` (``array:N``), others ``[arrays.NAME]``."""
    clock: Callable[[], float] = time.time
    """Table time for readers with no clock of their own (nfcpy); an array maps its own clock to it."""
    links: dict[str, SharedLink[Any]] = field(default_factory=dict)
    """Links shared by the readers opened with this context, by health id (``array``), made as they are first needed."""
    on_press: PressSink | None = None
    """Where a button's presses go (the table model's ``button_pressed``); None: a table with no buttons."""
