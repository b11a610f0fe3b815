"""The lights waiting to go to one reader array: the latest per channel, never more.

The referee decides a zone's light and moves on; the bridge's writer thread sends it when it can.
A zone's light that is replaced before it went out is stale and dropped (counted): the table wants
what is true now, not a replay. So the queue holds at most one light per channel (16) and a caller
never waits on the serial link.
"""

from __future__ import annotations

import threading

from companion.core.lights import Light


class LightQueue:
    def __init__(self) -> None:
        self._ready = threading.Condition()
        self._waiting: dict[int, Light] = {}  # channel -> its latest light, in the order first queued
        self.superseded = 0
        """Lights replaced by a newer one for the same channel before they were sent."""

    def put(self, channel: int, light: Light) -> None:
        with self._ready:
            if channel in self._waiting:
                self.superseded += 1
                del self._waiting[channel]  # the newest goes last
            self._waiting[channel] = light
            self._ready.notify()

    def take(self, timeout: float) -> list[tuple[int, Light]]:
        """Everything waiting (oldest first), after waiting at most ``timeout`` s for something."""
        with self._ready:
            if not self._waiting:
                self._ready.wait(timeout)
            out = list(self._waiting.items())
            self._waiting.clear()
            return out

    def clear(self) -> int:
        """Drop what waits (the array has no LEDs); how many were dropped."""
        with self._ready:
            dropped = len(self._waiting)
            self._waiting.clear()
            return dropped

    def wake(self) -> None:
        """Wake a writer waiting in :meth:`take` (the bridge is stopping)."""
        with self._ready:
            self._ready.notify_all()

    def __len__(self) -> int:
        with self._ready:
            return len(self._waiting)
