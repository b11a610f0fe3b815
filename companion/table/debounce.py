"""Debouncing a tag that flickers in and out of a reader's field.

A card resting at the edge of an antenna, or nudged by a hand, can be reported as departing and
arriving again a moment later. The debouncer holds each departure for ``window_s``; if the same
tag arrives at the same reader before then, both are dropped and nothing happened. Arrivals pass
at once (they carry the latency promise); only departures wait.

Order: events of one reader leave in the order they came (an arrival first releases that reader's
held departures). Across readers a held departure may leave after a later event of another reader;
every event keeps its own table time, which is what orders plays.

Pure: the caller passes ``now`` (a monotonic clock) and calls :meth:`expire` when :meth:`next_due`
says; :class:`~companion.table.model.TableModel` does that on a small timer thread.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from companion.core.readers import ReaderEvent


@dataclass(frozen=True, slots=True)
class _Held:
    event: ReaderEvent
    due: float


_Which = Callable[[_Held], bool]


class Debouncer:
    def __init__(self, window_s: float) -> None:
        if window_s < 0:
            raise ValueError(f"debounce window {window_s} s is negative")
        self.window_s = window_s
        self._held: dict[tuple[str, str], _Held] = {}  # insertion order = arrival order
        self.suppressed = 0
        """Flickers swallowed so far (a departure and its re-arrival count as one)."""

    def feed(self, event: ReaderEvent, now: float) -> list[ReaderEvent]:
        """The events to pass on now, in order, after ``event`` came in at ``now``."""
        if self.window_s == 0:
            return [event]
        key = (event.reader, event.uid)
        if event.event == "depart":
            self._held.pop(key, None)  # a repeated depart restarts the wait
            self._held[key] = _Held(event, now + self.window_s)
            return []
        if key in self._held:
            del self._held[key]
            self.suppressed += 1
            return []
        out = self._release(lambda held: held.event.reader == event.reader)
        out.append(event)
        return out

    def expire(self, now: float) -> list[ReaderEvent]:
        """Held departures whose wait is over, in the order they came."""
        return self._release(lambda held: held.due <= now)

    def flush(self) -> list[ReaderEvent]:
        """Every held departure (on shutdown)."""
        return self._release(lambda held: True)

    def release_reader(self, reader: str) -> list[ReaderEvent]:
        """Every held departure of one reader (its reader has just said what lies on it)."""
        return self._release(lambda held: held.event.reader == reader)

    def next_due(self) -> float | None:
        if not self._held:
            return None
        return min(held.due for held in self._held.values())

    def __len__(self) -> int:
        return len(self._held)

    def _release(self, which: _Which) -> list[ReaderEvent]:
        keys = [key for key, held in self._held.items() if which(held)]
        return [self._held.pop(key).event for key in keys]

