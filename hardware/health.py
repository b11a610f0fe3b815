"""Reader and serial-link health, reported through one callback the lead wires to the scoreboard.

Every reader (``array:N``, an nfcpy path) and the serial link (``array``) has a status and a few
counters. A change of status, or of a counter that signals trouble, calls
``on_health(reader_id, status)`` with the whole status dict::

    {"reader": "array:3", "status": "ok", "detail": "", "since": 1718000000.0,
     "events": 12, "bad_frames": 0, "gaps": 0, "duplicates": 0, "unknown_tags": 1,
     "reconnects": 0}

Statuses: ``ok``; ``reconnecting`` (lost, retrying with backoff); ``silent`` (connected, but no
heartbeat for a while); ``down`` (failing for long, or the array says the reader does not answer).
"""

from __future__ import annotations

import enum
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)


class Status(str, enum.Enum):
    OK = "ok"
    RECONNECTING = "reconnecting"
    SILENT = "silent"
    DOWN = "down"


COUNTERS = ("events", "bad_frames", "gaps", "duplicates", "unknown_tags", "reconnects")
"""Counters every status dict carries (others appear once counted)."""

QUIET_COUNTERS = frozenset({"events"})
"""Counters that change on every tag and so do not, alone, call ``on_health``."""

COUNTER_REPORT_S = 0.5
"""A burst of trouble (a bad cable garbling every line) reports its counts at most this often per
reader; a change of status always reports at once, with the counts as they are."""

HealthCallback = Callable[[str, dict[str, Any]], object]


class HealthBoard:
    """The health of every reader and link. Thread-safe; callbacks run in the reporting thread."""

    def __init__(self, on_health: HealthCallback | None = None, clock: Callable[[], float] = time.time) -> None:
        self._on_health = on_health
        self._clock = clock
        self._lock = threading.RLock()
        self._entries: dict[str, dict[str, Any]] = {}
        self._reported: dict[str, float] = {}  # monotonic time of the last report, per reader
        self._dirty: set[str] = set()  # counts changed since the last report

    def _entry(self, reader_id: str) -> dict[str, Any]:
        entry = self._entries.get(reader_id)
        if entry is None:
            entry = self._blank(reader_id)
            self._entries[reader_id] = entry
        return entry

    def _blank(self, reader_id: str) -> dict[str, Any]:
        entry: dict[str, Any] = {"reader": reader_id, "status": Status.DOWN.value, "detail": "never reported", "since": self._clock()}
        entry.update((name, 0) for name in COUNTERS)
        return entry

    def set_status(self, reader_id: str, status: Status, detail: str = "") -> None:
        """Report a status; calls ``on_health`` only if the status or its detail changed."""
        with self._lock:
            entry = self._entry(reader_id)
            if entry["status"] == status.value and entry["detail"] == detail:
                return
            if entry["status"] != status.value:
                entry["since"] = self._clock()
                log.info("%s: %s%s", reader_id, status.value, f" ({detail})" if detail else "")
            entry["status"] = status.value
            entry["detail"] = detail
            self._emit(reader_id, entry)

    def count(self, reader_id: str, counter: str, n: int = 1) -> None:
        with self._lock:
            entry = self._entry(reader_id)
            entry[counter] = int(entry.get(counter, 0)) + n
            if counter in QUIET_COUNTERS:
                return
            if time.monotonic() - self._reported.get(reader_id, -COUNTER_REPORT_S) >= COUNTER_REPORT_S:
                self._emit(reader_id, entry)
            else:
                self._dirty.add(reader_id)

    def flush(self) -> None:
        """Report counts held back by the rate limit once it allows (readers call this as they poll)."""
        if not self._dirty:
            return
        with self._lock:
            now = time.monotonic()
            for reader_id in sorted(self._dirty):
                if now - self._reported.get(reader_id, -COUNTER_REPORT_S) >= COUNTER_REPORT_S:
                    self._emit(reader_id, self._entries[reader_id])

    def status(self, reader_id: str) -> dict[str, Any]:
        """The status of ``reader_id`` (``down``, "never reported", for one never heard of)."""
        with self._lock:
            entry = self._entries.get(reader_id)
            return dict(entry) if entry is not None else self._blank(reader_id)

    def snapshot(self) -> dict[str, dict[str, Any]]:
        with self._lock:
            return {reader_id: dict(entry) for reader_id, entry in self._entries.items()}

    def _emit(self, reader_id: str, entry: dict[str, Any]) -> None:
        self._reported[reader_id] = time.monotonic()
        self._dirty.discard(reader_id)
        if self._on_health is None:
            return
        try:
            self._on_health(reader_id, dict(entry))
        except Exception:  # a broken scoreboard must not stop a reader; logged with its trace
            log.exception("on_health failed for %s", reader_id)


class Backoff:
    """Waits between reconnection attempts: ``initial``, doubling, at most ``maximum`` seconds."""

    def __init__(self, initial: float = 0.2, maximum: float = 5.0, factor: float = 2.0) -> None:
        if not 0 < initial <= maximum or factor < 1:
            raise ValueError("backoff needs 0 < initial <= maximum and factor >= 1")
        self.initial = initial
        self.maximum = maximum
        self.factor = factor
        self._next = initial
        self.failing_since: float | None = None

    def failed(self, now: float) -> float:
        """Record a failure at ``now``; returns how long to wait before the next attempt."""
        if self.failing_since is None:
            self.failing_since = now
        wait = self._next
        self._next = min(self.maximum, self._next * self.factor)
        return wait

    def succeeded(self) -> None:
        self._next = self.initial
        self.failing_since = None

    def failing_for(self, now: float) -> float:
        return 0.0 if self.failing_since is None else now - self.failing_since
