"""Mapping the reader array's millisecond clock to table time.

The array stamps each event with its own clock, read when the reader saw the tag, so two plays on
one pile 3 ms apart stay 3 ms apart however the USB link batches them. The host learns the offset
between the two clocks from when lines arrive: a line can only arrive *after* its event, so the
smallest (arrival - device time) seen lately is the best estimate of the offset. A sliding window
lets the estimate follow a crystal's drift (tens of ppm); table times never run backwards and are
never later than the moment the line arrived.
"""

from __future__ import annotations

from collections import deque


class DeviceClock:
    def __init__(self, window_s: float = 60.0, restart_tolerance_ms: int = 2000) -> None:
        self.window_s = window_s
        self.restart_tolerance_ms = restart_tolerance_ms
        self._samples: deque[tuple[float, float]] = deque()  # (arrival, offset), offsets increasing
        self._last_ms: int | None = None
        self._last_t: float | None = None

    def reset(self) -> None:
        """Forget the offset (the array restarted, or the link was re-opened)."""
        self._samples.clear()
        self._last_ms = None
        self._last_t = None

    @property
    def offset(self) -> float | None:
        """Table time minus device time, in seconds, as now estimated."""
        return self._samples[0][1] if self._samples else None

    def to_table(self, device_ms: int, arrived: float) -> float:
        """The table time of an event stamped ``device_ms`` whose line arrived at ``arrived``."""
        if self._last_ms is not None and device_ms < self._last_ms - self.restart_tolerance_ms:
            self.reset()  # the device clock went back: it restarted
        sample = arrived - device_ms / 1000.0
        while self._samples and self._samples[-1][1] >= sample:
            self._samples.pop()
        self._samples.append((arrived, sample))
        while self._samples[0][0] < arrived - self.window_s:
            self._samples.popleft()
        t = device_ms / 1000.0 + self._samples[0][1]
        if self._last_t is not None and self._last_ms is not None and device_ms >= self._last_ms and t < self._last_t:
            t = self._last_t  # the offset estimate moved: keep table time from running backwards
        self._last_ms = device_ms
        self._last_t = t
        return t
