"""One reader as a source of taps, for enrolment: the next tag that arrives at it.

Opens either an nfcpy reader (any nfcpy path) or one channel of the reader array (``array:N``,
through the bridge on the array's serial port) and queues the arrivals it sees.
"""

from __future__ import annotations

import queue
import time

from companion.core.errors import ConfigError, HardwareError
from companion.core.readers import ReaderEvent
from hardware.bridge import ArrayBridge
from hardware.health import HealthBoard
from hardware.nfc_reader import NfcReader


class TapSource:
    """``with TapSource("array:2", port="/dev/table-array") as taps: uid = taps.next_arrival(30)``."""

    def __init__(self, reader: str, *, port: str | None = None, baudrate: int = 115200) -> None:
        self.reader = reader
        self.health = HealthBoard()
        self._queue: queue.Queue[ReaderEvent] = queue.Queue()
        self._device: ArrayBridge | NfcReader
        if reader.startswith("array:"):
            if not reader[6:].isdigit():
                raise ConfigError(f'reader "{reader}": an array reader is array:N, N the channel number')
            if not port:
                raise ConfigError(f"reader {reader} is on the reader array: give the array's serial port")
            self._device = ArrayBridge(port, self._on_event, self.health, baudrate=baudrate, channels=[int(reader[6:])])
            self._link = "array"
        else:
            self._device = NfcReader(reader, self._on_event, self.health)
            self._link = reader

    def _on_event(self, event: ReaderEvent) -> None:
        if event.reader == self.reader:
            self._queue.put(event)

    def start(self, timeout: float = 10.0) -> None:
        """Open the reader; :class:`HardwareError` if it is not working within ``timeout``."""
        self._device.start()
        deadline = time.monotonic() + timeout
        while self.health.status(self._link)["status"] != "ok":
            if time.monotonic() > deadline:
                detail = self.health.status(self._link)["detail"]
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
