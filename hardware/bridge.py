"""The reader-array bridge: reads the array's serial protocol and hands tag events to the table.

One thread per array. It opens the port with pyserial (``serial.serial_for_url``, so a device
path, a udev symlink or a pyserial URL all work), validates every frame, counts and skips bad
ones, detects lost and repeated frames by sequence number, maps the array's clock to table time,
and turns ``A``/``D`` frames into :class:`ReaderEvent` values for reader ``array:N``. When the
port fails (unplugged) it reports ``reconnecting`` and retries with backoff; when the array falls
quiet it reports ``silent``; it never stops on bad input.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable
from typing import Any

import serial

from companion.errors import FrameError
from companion.table.events import ReaderEvent
from hardware.clock import DeviceClock
from hardware.health import Backoff, HealthBoard, Status
from hardware.protocol import (
    MAX_LINE,
    BootFrame,
    Frame,
    HeartbeatFrame,
    SequenceTracker,
    SeqVerdict,
    TagFrame,
    parse_frame,
    split_line,
)
from hardware.worker import ReaderThread

log = logging.getLogger(__name__)

EventSink = Callable[[ReaderEvent], object]
SerialOpener = Callable[..., Any]


class ArrayBridge(ReaderThread):
    """Reads one reader array. ``start()`` it, ``stop()`` it; health goes to ``health``."""

    def __init__(
        self,
        port: str,
        on_event: EventSink,
        health: HealthBoard,
        *,
        baudrate: int = 115200,
        clock: Callable[[], float] = time.time,
        link_id: str = "array",
        channels: Iterable[int] = (),
        silent_after_s: float = 3.0,
        down_after_s: float = 30.0,
        backoff: Backoff | None = None,
        read_timeout_s: float = 0.05,
        open_serial: SerialOpener = serial.serial_for_url,
    ) -> None:
        super().__init__()
        self.port = port
        self.link_id = link_id
        self._on_event = on_event
        self._health = health
        self._baudrate = baudrate
        self._clock = clock
        self._silent_after_s = silent_after_s
        self._down_after_s = down_after_s
        self._backoff = backoff or Backoff(0.1, 5.0)
        self._read_timeout_s = read_timeout_s
        self._open_serial = open_serial
        self._seq = SequenceTracker()
        self._device_clock = DeviceClock()
        self._channels: set[int] = set(channels)
        """Channels this array carries: from the config (the zones' readers), boot and heartbeats."""
        self._channel_status: dict[int, Status] = {}
        self._last_frame = 0.0
        self._silent = False
        self.frames = 0
        """Valid frames read so far (all types)."""
        self._set_all(Status.RECONNECTING, "not opened yet")

    # -- lifecycle --------------------------------------------------------------------------

    @property
    def thread_name(self) -> str:
        return f"array-bridge:{self.port}"

    def __enter__(self) -> "ArrayBridge":
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- the loop ---------------------------------------------------------------------------

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                link = self._open_serial(self.port, baudrate=self._baudrate, timeout=self._read_timeout_s)
            except (serial.SerialException, OSError, ValueError) as exc:
                self._failed(f"cannot open {self.port}: {exc}")
                continue
            self._backoff.succeeded()
            self._seq.reset()
            self._device_clock.reset()
            self._last_frame = time.monotonic()
            self._silent = False
            self._health.set_status(self.link_id, Status.OK, f"open on {self.port}")
            try:
                self._pump(link)
            except (serial.SerialException, OSError) as exc:
                self._health.count(self.link_id, "reconnects")
                self._failed(f"lost {self.port}: {exc}")
            finally:
                try:
                    link.close()
                except (serial.SerialException, OSError) as exc:
                    log.debug("closing %s: %s", self.port, exc)
        self._set_all(Status.DOWN, "stopped")

    def _failed(self, detail: str) -> None:
        now = time.monotonic()
        wait = self._backoff.failed(now)
        status = Status.DOWN if self._backoff.failing_for(now) >= self._down_after_s else Status.RECONNECTING
        self._set_all(status, detail)
        log.warning("%s; retrying in %.1f s", detail, wait)
        self._stop.wait(wait)

    def _set_all(self, status: Status, detail: str) -> None:
        """The link's status, mirrored on every channel it carries."""
        self._health.set_status(self.link_id, status, detail)
        for channel in sorted(self._channels):
            self._health.set_status(f"array:{channel}", status, f"link {status.value}")
        if status is not Status.OK:
            self._channel_status.clear()

    def _pump(self, link: Any) -> None:
        pending = bytearray()
        while not self._stop.is_set():
            self._health.flush()
            chunk = link.read(link.in_waiting or 1)
            if chunk:
                arrived = self._clock()
                pending += chunk
                start = 0
                while (end := pending.find(b"\n", start)) >= 0:
                    self._line(bytes(pending[start:end]), arrived)
                    start = end + 1
                del pending[:start]
                if len(pending) > MAX_LINE:  # noise with no newline: drop it, count it once
                    self._bad(FrameError(f"{len(pending)} bytes without a newline"))
                    pending.clear()
            elif not self._silent and time.monotonic() - self._last_frame > self._silent_after_s:
                self._silent = True
                self._set_all(Status.SILENT, f"no frame for {self._silent_after_s:.0f} s")

    # -- frames -----------------------------------------------------------------------------

    def _line(self, line: bytes, arrived: float) -> None:
        for candidate in split_line(line):
            try:
                frame = parse_frame(candidate)
            except FrameError as exc:
                self._bad(exc)
                continue
            self._frame(frame, arrived)

    def _bad(self, error: FrameError) -> None:
        self._health.count(self.link_id, "bad_frames")
        log.warning("%s: bad frame skipped: %s", self.port, error)

    def _frame(self, frame: Frame, arrived: float) -> None:
        if isinstance(frame, BootFrame):
            self._seq.reset()
            self._device_clock.reset()
            log.info("%s: array booted (firmware %s, %d channels)", self.port, frame.firmware, frame.channels)
            self._channels.update(range(frame.channels))
        verdict, missing = self._seq.check(frame.seq)
        if verdict is SeqVerdict.DUPLICATE:
            self._health.count(self.link_id, "duplicates")
            log.warning("%s: frame %d came twice; skipped", self.port, frame.seq)
            return
        if verdict is SeqVerdict.GAP:
            self._health.count(self.link_id, "gaps", missing)
            log.warning("%s: %d frame(s) lost before frame %d", self.port, missing, frame.seq)
        elif verdict is SeqVerdict.RESYNC:
            self._device_clock.reset()
            log.warning("%s: sequence went back to %d without a boot frame; resynchronised", self.port, frame.seq)
        self.frames += 1
        self._last_frame = time.monotonic()
        # Every frame, heartbeats included, teaches the clock map the offset; tags then use it.
        table_time = self._device_clock.to_table(frame.ms, arrived)
        if self._silent:
            self._silent = False  # the channels get their status back from the next heartbeat
            self._health.set_status(self.link_id, Status.OK, f"open on {self.port}")
        if isinstance(frame, TagFrame):
            self._tag(frame, table_time)
        elif isinstance(frame, HeartbeatFrame):
            self._heartbeat(frame)

    def _tag(self, frame: TagFrame, table_time: float) -> None:
        reader = f"array:{frame.channel}"
        self._channels.add(frame.channel)
        if frame.channel not in self._channel_status:  # reporting tags, so it answers
            self._channel_status[frame.channel] = Status.OK
            self._health.set_status(reader, Status.OK)
        event = ReaderEvent(reader, frame.uid, frame.event, table_time)
        self._health.count(reader, "events")
        try:
            self._on_event(event)
        except Exception:  # the table's failure must not stop the link; logged with its trace
            log.exception("handling %s failed", event)

    def _heartbeat(self, frame: HeartbeatFrame) -> None:
        for channel, letter in enumerate(frame.health):
            self._channels.add(channel)
            status = Status.OK if letter == "O" else Status.DOWN
            if self._channel_status.get(channel) is not status:
                self._channel_status[channel] = status
                detail = "" if status is Status.OK else f"the reader on channel {channel} does not answer the array"
                self._health.set_status(f"array:{channel}", status, detail)
