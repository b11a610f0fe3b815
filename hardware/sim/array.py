"""A simulated reader array on the far end of a pseudo-terminal pair (``os.openpty``).

The bridge opens the pty's slave side exactly as it opens ``/dev/ttyACM0``; this end writes the
frames the firmware would, from :mod:`hardware.protocol`, with its own millisecond clock and
sequence numbers, and can misbehave on demand: noise, a line cut short, a frame sent twice, lost
frames, a reader that stops answering, a link that falls silent, an unplug and a re-plug.

Give it a ``link`` path and it keeps a symlink there pointing at the current pty, as the udev rule
keeps ``/dev/table-array`` pointing at the real array, so a re-plug appears at the same path.
"""

from __future__ import annotations

import errno
import logging
import os
import random
import select
import threading
import time
import tty
from pathlib import Path
from typing import TypeVar

from hardware.protocol import BootFrame, HeartbeatFrame, TagFrame, encode_frame

log = logging.getLogger(__name__)

WRITE_TIMEOUT_S = 2.0

F = TypeVar("F", BootFrame, TagFrame, HeartbeatFrame)


class SimulatedArray:
    """A reader array with ``channels`` readers. Use as a context manager, or plug()/close()."""

    def __init__(
        self,
        channels: int = 4,
        *,
        link: str | Path | None = None,
        heartbeat_s: float | None = 1.0,
        firmware: str = "sim-1",
        seed: int = 7,
    ) -> None:
        if not 1 <= channels <= 16:
            raise ValueError(f"an array has 1 to 16 channels, not {channels}")
        self.channels = channels
        self.link = Path(link) if link is not None else None
        self.heartbeat_s = heartbeat_s
        self.firmware = firmware
        self._random = random.Random(seed)
        self._lock = threading.RLock()
        self._master: int | None = None
        self._slave: int | None = None
        self._slave_path = ""
        self._seq = 0
        self._t0 = time.monotonic()
        self._failed: set[int] = set()
        self._quiet = False
        self._cut_next = False
        self._last_line = b""
        self._stop = threading.Event()
        self._beats: threading.Thread | None = None
        self.sent = 0
        """Frames written so far (duplicates and cut frames included)."""
        self.dropped = 0
        """Frames that could not be written (unplugged, or nobody reading for a long while)."""

    # -- the cable --------------------------------------------------------------------------

    @property
    def port(self) -> str:
        """What to give the bridge: the stable link if there is one, else the pty's slave path."""
        if self.link is not None:
            return str(self.link)
        if not self._slave_path:
            raise RuntimeError("the simulated array is not plugged in")
        return self._slave_path

    @property
    def plugged(self) -> bool:
        return self._master is not None

    def plug(self, boot: bool = True) -> str:
        """Create the pty (and the link), power the array up; returns :attr:`port`."""
        with self._lock:
            if self._master is not None:
                raise RuntimeError("the simulated array is already plugged in")
            master, slave = os.openpty()
            tty.setraw(slave)  # no echo, no CR/LF translation, until the bridge sets its own mode
            os.set_blocking(master, False)
            self._master, self._slave = master, slave
            self._slave_path = os.ttyname(slave)
            if self.link is not None:
                tmp = self.link.with_name(self.link.name + ".new")
                tmp.unlink(missing_ok=True)
                tmp.symlink_to(self._slave_path)
                os.replace(tmp, self.link)
            self._t0 = time.monotonic()
            self._seq = 0
            if boot:
                self.boot()
        if self.heartbeat_s and self._beats is None:
            self._stop.clear()
            self._beats = threading.Thread(target=self._beat, name="sim-array-heartbeat", daemon=True)
            self._beats.start()
        return self.port

    def unplug(self) -> None:
        """Pull the cable: the bridge's next read fails; the link path disappears."""
        with self._lock:
            for fd in (self._master, self._slave):
                if fd is not None:
                    os.close(fd)
            self._master = self._slave = None
            self._slave_path = ""
            if self.link is not None:
                self.link.unlink(missing_ok=True)

    def close(self) -> None:
        self._stop.set()
        beats, self._beats = self._beats, None
        if beats is not None:
            beats.join(5.0)
        self.unplug()

    def __enter__(self) -> "SimulatedArray":
        if not self.plugged:
            self.plug()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- what the firmware sends ------------------------------------------------------------

    @property
    def ms(self) -> int:
        """The array's own clock: milliseconds since it was plugged in (powered up)."""
        return int((time.monotonic() - self._t0) * 1000)

    def boot(self) -> BootFrame:
        with self._lock:
            self._seq = 0
            return self._send(BootFrame(0, self.ms, self.firmware, self.channels))

    def arrive(self, channel: int, uid: str, ms: int | None = None) -> TagFrame:
        return self._tag("arrive", channel, uid, ms)

    def depart(self, channel: int, uid: str, ms: int | None = None) -> TagFrame:
        return self._tag("depart", channel, uid, ms)

    def heartbeat(self) -> HeartbeatFrame:
        with self._lock:
            health = "".join("F" if ch in self._failed else "O" for ch in range(self.channels))
            return self._send(HeartbeatFrame(self._seq, self.ms, health))

    def _tag(self, event: str, channel: int, uid: str, ms: int | None) -> TagFrame:
        if not 0 <= channel < self.channels:
            raise ValueError(f"channel {channel} is not one of 0..{self.channels - 1}")
        with self._lock:
            frame = TagFrame(self._seq, self.ms if ms is None else ms, "arrive" if event == "arrive" else "depart", channel, uid)
            return self._send(frame)

    def _send(self, frame: F) -> F:
        line = encode_frame(frame)
        self._seq = (self._seq + 1) % 65536
        if self._cut_next:
            self._cut_next = False
            line = line[: len(line) // 2]  # no newline: it runs into the next frame
        self._last_line = line
        self._write(line)
        return frame

    # -- misbehaving ------------------------------------------------------------------------

    def send_raw(self, data: bytes) -> None:
        with self._lock:
            self._write(data)

    def garbage(self, length: int = 24) -> bytes:
        """A line of noise (as a loose connector or a boot message would make)."""
        noise = bytes(self._random.choice(b"abcdefXYZ0123456789,*#!@%&") for _ in range(length)) + b"\n"
        self.send_raw(noise)
        return noise

    def cut_next(self) -> None:
        """The next frame loses its second half and its newline."""
        with self._lock:
            self._cut_next = True

    def repeat_last(self) -> None:
        """Send the last line again, sequence number and all (a duplicate)."""
        with self._lock:
            self._write(self._last_line)

    def skip(self, frames: int = 1) -> None:
        """Lose the next ``frames`` sequence numbers (as if those frames never made it)."""
        with self._lock:
            self._seq = (self._seq + frames) % 65536

    def fail_reader(self, channel: int, failed: bool = True) -> None:
        """The reader on ``channel`` stops (or starts again) answering the array."""
        with self._lock:
            (self._failed.add if failed else self._failed.discard)(channel)

    def quiet(self, on: bool = True) -> None:
        """Stop (or resume) heartbeats: the link falls silent though still plugged."""
        self._quiet = on

    def host_bytes(self) -> bytes:
        """What the host has written to the array since last asked (its LED frames), never waiting."""
        with self._lock:
            if self._master is None:
                return b""
            try:
                return os.read(self._master, 4096)
            except BlockingIOError:
                return b""
            except OSError as exc:
                if exc.errno != errno.EIO:  # EIO: nobody has the other end open
                    raise
                return b""

    # -- inside -----------------------------------------------------------------------------

    def _beat(self) -> None:
        assert self.heartbeat_s
        while not self._stop.wait(self.heartbeat_s):
            if self.plugged and not self._quiet:
                self.heartbeat()

    def _write(self, data: bytes) -> None:
        if self._master is None:
            self.dropped += 1
            return
        view = memoryview(data)
        deadline = time.monotonic() + WRITE_TIMEOUT_S
        while view:
            try:
                written = os.write(self._master, view)
            except BlockingIOError:
                written = 0
            except OSError as exc:
                if exc.errno != errno.EIO:
                    raise
                self.dropped += 1  # nobody has the other end open
                return
            view = view[written:]
            if view:
                left = deadline - time.monotonic()
                if left <= 0:
                    self.dropped += 1
                    log.warning("simulated array: nobody read %d bytes for %.0f s; dropped", len(view), WRITE_TIMEOUT_S)
                    return
                select.select([], [self._master], [], min(left, 0.1))
        self.sent += 1
