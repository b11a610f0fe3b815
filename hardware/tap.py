"""One reader as a source of taps, for enrolment: the next tag that arrives at it.

Opens any reader the factory knows (:mod:`hardware.readers`): an nfcpy reader, or one channel of
a reader array (``array:N``, ``array:NAME:N``, through the bridge on that array's serial port),
and queues the arrivals it sees.
"""

from __future__ import annotations

import queue
import time
from collections.abc import Mapping

from companion.core.errors import HardwareError
from companion.core.readers import ReaderEvent
from hardware.health import HealthBoard
from hardware.reader import ArrayPort, ReaderContext
from hardware.readers import open_reader


class TapSource:
    """``with TapSource("array:2", arrays={"": ArrayConfig("/dev/table-array")}) as taps: uid = taps.next_arrival(30)``.

    ``arrays``: the table's reader arrays by name (``""`` for ``[array]``), as for every reader.
    """

    def __init__(self, reader: str, *, arrays: Mapping[str, ArrayPort] | None = None) -> None:
        self.reader = reader
        self.health = HealthBoard()
        self._queue: queue.Queue[ReaderEvent] = queue.Queue()
        self._device = open_reader(reader, ReaderContext(self._on_event, self.health, arrays=dict(arrays or {})))

    def _on_event(self, event: ReaderEvent) -> None:
        if event.reader == self.reader:
            self._queue.put(event)

    def start(self, timeout: float = 10.0) -> None:
        """Open the reader; :class:`HardwareError` if it is not working within ``timeout``."""
        self._device.start()
        deadline = time.monotonic() + timeout
        while self._device.health()["status"] != "ok":
            if time.monotonic() > deadline:
                # The reader and what it depends on (an array channel's serial link), each as it is.
                detail = "; ".join(f"{name}: {s['detail']}" for name, s in sorted(self.health.snapshot().items()) if s["status"] != "ok")
                self.stop()
                raise HardwareError(f"reader {self.reader} is not working: {detail}")
            time.sleep(0.02)

    def stop(self) -> None:
        self._device.stop()

    def next_arrival(self, timeout: float | None) -> str | None:
        """The UID of the next tag to arrive, or None after ``timeout`` seconds (None: wait on)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            wait = 0.5 if deadline is None else min(0.5, deadline - time.monotonic())
            if wait <= 0:
                return None
            try:
                event = self._queue.get(timeout=wait)  # short waits, so Ctrl-C is prompt
            except queue.Empty:
                continue
            if event.event == "arrive":
                return event.uid

    def __enter__(self) -> "TapSource":
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
