"""The reader-array bridge: reads the array's serial protocol and hands tag events to the table.

One thread per array. It opens the port with pyserial (``serial.serial_for_url``, so a device
path, a udev symlink or a pyserial URL all work), validates every frame, counts and skips bad
ones, detects lost and repeated frames by sequence number, maps the array's clock to table time,
and turns ``A``/``D`` frames into :class:`ReaderEvent` values for reader ``array:N`` (``array:NAME:N``
for the array named NAME: :class:`~companion.core.readers.ArrayChannel`), and ``P`` frames into
:class:`ButtonPress` values for button ``button:N`` (``button:NAME:N``). When the
port fails (unplugged) it reports ``reconnecting`` and retries with backoff; when the array falls
quiet it reports ``silent``; it never stops on bad input.

Restarts are safe. The port is opened exclusively (a second service, or ``companion hw check``
while the service runs, is refused rather than splitting the frames between them). Bytes buffered
while nobody read the port are discarded, and so is the part-line after them. Tag frames are then
held until the first heartbeat listing (every reader's known tags, firmware 2.0) that arrives
``settle_s`` (half a second) after the opening, so within two heartbeats: those stamped before the
port was opened are stale and dropped (counted), the rest delivered, and the table is rebuilt from
the listing without judging anything again. After lost frames the next listing delivers what was
missed. A step of the system clock (time sync on a Pi with no real-time clock) re-learns the
array's clock offset, so table time follows the synced clock at once.

Lights (firmware 2.3): :meth:`ArrayBridge.show` queues a light for one channel's LED and returns at
once; a writer thread beside the reading loop sends it (:class:`~hardware.leds.ArrayLights`). The
reading loop tells the lights what the array says: how many LEDs (``T`` frames), heartbeats, a boot.
An ``R`` frame (the array refused something the host sent) is counted (``led_refused``) and logged.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

import serial

from companion.core.errors import ConfigError, FrameError
from companion.core.lights import Light
from companion.core.readers import BUTTON_SCHEME, ArrayChannel, ButtonPress, ReaderEvent, array_link_id
from hardware.clock import DeviceClock
from hardware.health import Backoff, HealthBoard, Status
from hardware.leds import LIGHT_WRITE_TIMEOUT_S, ArrayLights
from hardware.protocol import (
    BootFrame,
    Frame,
    HeartbeatFrame,
    KnownFrame,
    LedFrame,
    RefusalFrame,
    SequenceTracker,
    SeqVerdict,
    StatsFrame,
    TagFrame,
    TimingFrame,
    LineAssembler,
    PressFrame,
    decode_line,
)
from hardware.reader import EventSink, PressSink, StateSink
from hardware.resync import ListingAssembler, Snapshot
from hardware.worker import ReaderThread

log = logging.getLogger(__name__)

SerialOpener = Callable[..., Any]

STALE_TOLERANCE_S = 0.05
"""A tag frame stamped this long before the port was opened is stale (clock estimate slack)."""
CLOCK_STEP_S = 0.5
"""A jump of the system clock against the monotonic clock bigger than this is a time-sync step."""
MAX_HELD = 1000
"""Tag frames held waiting for the first listing, at most (an array that never lists releases them)."""


class ArrayBridge(ReaderThread):
    """Reads one reader array. ``start()`` it, ``stop()`` it; health goes to ``health``.

    ``name`` is the array's name in the table config: ``""`` for ``[array]`` (its link reports as
    ``array``, its channels as ``array:N``), ``east`` for ``[arrays.east]`` (``array:east``,
    ``array:east:N``).
    """

    def __init__(
        self,
        port: str,
        on_event: EventSink,
        health: HealthBoard,
        *,
        baudrate: int = 115200,
        clock: Callable[[], float] = time.time,
        name: str = "",
        channels: Iterable[int] = (),
        silent_after_s: float = 3.0,
        down_after_s: float = 30.0,
        backoff: Backoff | None = None,
        read_timeout_s: float = 0.05,
        open_serial: SerialOpener = serial.serial_for_url,
        on_state: StateSink | None = None,
        settle_s: float = 0.5,
        on_press: PressSink | None = None,
    ) -> None:
        super().__init__()
        self.port = port
        self.name = name
        self.link_id = array_link_id(name)
        self._reader_ids: dict[int, str] = {}
        self._watched: dict[int, str] = {}  # channel -> the address of the reader a zone has on it
        self._on_event = on_event
        self._on_state = on_state
        self._on_press = on_press
        self._buttons: dict[int, str] = {}  # input -> the address of the button a zone has on it
        self._settle_s = settle_s
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
        self._listings = ListingAssembler()
        self._opened_at = 0.0
        self._rebuilt = False  # the first listing since the port was opened has been applied
        self._dirty = False  # frames were lost since the last listing
        self._held: list[TagFrame | PressFrame] = []
        self._clock_base: float | None = None  # system clock minus monotonic, to see it step
        self.stale = 0
        """Tag frames dropped because they were stamped before the port was opened."""
        self.discarded_bytes = 0
        """Bytes found buffered in the port when it was opened, and dropped unread."""
        self.rebuilt_from_ms: int | None = None
        """The array's clock at the listing the table was last rebuilt from (after an opening)."""
        self.stats: dict[int, StatsFrame] = {}
        """Each reader's latest statistics from the array (polls, reads, collisions, errors)."""
        self.timing: dict[str, str] = {}
        """The array's latest timing figures (T frames, firmware 2.1: `companion hw check --timing`)."""
        self.lights = ArrayLights(port, health, f"lights:{self.link_id}", clock)
        """The array's LEDs: lights queued by :meth:`show`, sent by the lights' writer thread."""
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

    def reader_id(self, channel: int) -> str:
        """The reader id of one of its channels: as watched, else ``array:3`` (``array:east:3``)."""
        known = self._reader_ids.get(channel)
        if known is None:
            known = self._reader_ids[channel] = ArrayChannel(self.name, channel).reader_id
        return known

    def watch(self, channel: ArrayChannel) -> None:
        """A channel a zone's reader uses: reported under that reader's address, its status following
        the link's from now on, even before the array lists it.

        Call it before :meth:`start`: the bridge's thread reads the channels unlocked.
        """
        reader = channel.reader_id
        if channel.scheme == BUTTON_SCHEME:
            self._watch_button(channel)
            return
        if self._watched.get(channel.channel, reader) != reader:
            raise ConfigError(f'readers "{self._watched[channel.channel]}" and "{reader}" are the same channel of one reader array')
        self._watched[channel.channel] = self._reader_ids[channel.channel] = reader
        self._channels.add(channel.channel)
        link = self._health.status(self.link_id)
        self._health.set_status(reader, Status(link["status"]), f"link {link['status']}")

    def _watch_button(self, button: ArrayChannel) -> None:
        address = button.reader_id
        if self._buttons.get(button.channel, address) != address:
            raise ConfigError(f'buttons "{self._buttons[button.channel]}" and "{address}" are the same input of one reader array')
        self._buttons[button.channel] = address
        link = self._health.status(self.link_id)
        self._health.set_status(address, Status(link["status"]), f"link {link['status']}")

    def _buttons_follow(self, status: Status) -> None:
        """A button has no health letter of its own: it is as well as its link."""
        for button in sorted(self._buttons):
            self._health.set_status(self._buttons[button], status, "" if status is Status.OK else f"link {status.value}")

    def show(self, channel: int, light: Light) -> None:
        """Queue ``light`` for the LED on ``channel``; never waits (the writer thread sends it)."""
        self.lights.show(channel, light)

    # -- the loop ---------------------------------------------------------------------------

    def _run(self) -> None:
        writer = threading.Thread(target=self.lights.run, args=(self._stop,), name=f"array-lights:{self.port}", daemon=True)
        writer.start()
        try:
            self._read_link()
        finally:
            self.lights.queue.wake()
            writer.join(2.0)

    def _read_link(self) -> None:
        while not self._stop.is_set():
            try:
                link = self._open_serial(self.port, baudrate=self._baudrate, timeout=self._read_timeout_s, exclusive=True)
            except (serial.SerialException, OSError, ValueError) as exc:
                self._failed(f"cannot open {self.port}: {exc}")
                continue
            link.write_timeout = LIGHT_WRITE_TIMEOUT_S
            self._backoff.succeeded()
            self._seq.reset()
            self._device_clock.reset()
            self._opened_at = self._clock()
            self._rebuilt = False
            self._dirty = True
            self._held.clear()
            self._last_frame = time.monotonic()
            self._silent = False
            try:
                # What the port buffered while it was closed goes before the link is reported open:
                # a frame the array sends once the link reads "ok" is read, never dropped as stale.
                self._discard_stale(link)
                self._health.set_status(self.link_id, Status.OK, f"open on {self.port}")
                self._buttons_follow(Status.OK)
                self.lights.opened(link, self._opened_at)
                self._pump(link)
            except (serial.SerialException, OSError) as exc:
                self._health.count(self.link_id, "reconnects")
                self._failed(f"lost {self.port}: {exc}")
            finally:
                self.lights.closed()
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
            self._health.set_status(self.reader_id(channel), status, f"link {status.value}")
        self._buttons_follow(status)
        if status is not Status.OK:
            self._channel_status.clear()

    def _discard_stale(self, link: Any) -> None:
        """Drop what the port buffered while nobody read it: those frames are not news."""
        waiting = int(link.in_waiting)
        link.reset_input_buffer()
        self.discarded_bytes += waiting
        if waiting:
            log.info("%s: %d stale byte(s) buffered while the port was closed: discarded", self.port, waiting)

    def _clock_stepped(self) -> None:
        base = self._clock() - time.monotonic()
        if self._clock_base is not None and abs(base - self._clock_base) > CLOCK_STEP_S:
            log.info("%s: the system clock stepped by %+.1f s (time sync); table time follows it", self.port, base - self._clock_base)
            self._device_clock.reset()
        self._clock_base = base

    def _pump(self, link: Any) -> None:
        lines = LineAssembler()
        while not self._stop.is_set():
            self._health.flush()
            chunk = link.read(link.in_waiting or 1)
            if chunk:
                arrived = self._clock()
                self._clock_stepped()
                complete, noise = lines.feed(chunk)
                for line in complete:
                    self._line(line, arrived)
                if noise is not None:  # noise with no newline: dropped, counted once
                    self._bad(noise)
            elif not self._silent and time.monotonic() - self._last_frame > self._silent_after_s:
                self._silent = True
                self._set_all(Status.SILENT, f"no frame for {self._silent_after_s:.0f} s")

    # -- frames -----------------------------------------------------------------------------

    def _line(self, line: bytes, arrived: float) -> None:
        for frame in decode_line(line):
            if isinstance(frame, FrameError):
                self._bad(frame)
            else:
                self._frame(frame, arrived)

    def _bad(self, error: FrameError) -> None:
        self._health.count(self.link_id, "bad_frames")
        log.warning("%s: bad frame skipped: %s", self.port, error)

    def _frame(self, frame: Frame, arrived: float) -> None:
        if isinstance(frame, BootFrame):
            self._seq.reset()
            self._device_clock.reset()
            self._dirty = True
            log.info("%s: array booted (firmware %s, %d channels)", self.port, frame.firmware, frame.channels)
            self._channels.update(range(frame.channels))
            self.lights.booted()  # its LEDs came up dark; it says again whether it drives any
        verdict, missing = self._seq.check(frame.seq)
        if verdict is SeqVerdict.DUPLICATE:
            self._health.count(self.link_id, "duplicates")
            log.warning("%s: frame %d came twice; skipped", self.port, frame.seq)
            return
        if verdict is not SeqVerdict.OK:
            self._dirty = True
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
            self._buttons_follow(Status.OK)
        snapshot = None
        if isinstance(frame, KnownFrame):
            snapshot = self._listings.known(frame)
        else:
            self._listings.other()
        if isinstance(frame, (TagFrame, PressFrame)):
            if self._on_state is not None and not self._rebuilt:
                self._held.append(frame)  # until the first listing says what is news
                if len(self._held) >= MAX_HELD:
                    log.warning("%s: %d tag frames and no listing yet: delivering them", self.port, len(self._held))
                    self._release_held()
            elif isinstance(frame, TagFrame):
                self._tag(frame, table_time)
            else:
                self._press(frame, table_time)
        elif isinstance(frame, HeartbeatFrame):
            self._heartbeat(frame)
            snapshot = self._listings.heartbeat(frame)
            if frame.listing is None and not self._rebuilt:
                self._release_held()  # firmware 1.x lists nothing to wait for: only the stale check
        elif isinstance(frame, StatsFrame):
            self._stats(frame)
        elif isinstance(frame, TimingFrame):
            self.timing.update(frame.figures)
            leds = frame.number("leds")
            if leds is not None:
                self.lights.leds = int(leds)
        elif isinstance(frame, RefusalFrame):
            self._health.count(self.link_id, "led_refused")
            log.warning("%s: the array refused a frame the host sent (%s)", self.port, frame.reason)
        elif isinstance(frame, LedFrame):
            self._bad(FrameError(f"an LED frame came from the array, which only takes them: seq {frame.seq}"))
        if snapshot is not None:
            self._snapshot(snapshot)

    def _settled(self) -> bool:
        """Open long enough that what arrives now was written after the port was opened.

        A Pico that could not send while nobody read keeps a little in its own USB buffer and
        sends it the moment the port opens: those frames, and the listing among them, arrive in
        the first moments. Fresh heartbeats after ``settle_s`` also correct the clock offset those
        stale frames misled, so every held frame can then be told stale or fresh by its stamp.
        """
        return self._clock() - self._opened_at >= self._settle_s

    def _table_time(self, ms: int) -> float:
        offset = self._device_clock.offset
        return self._clock() if offset is None else ms / 1000.0 + offset

    def _release_held(self) -> None:
        """The tag frames held since the port opened: stale ones dropped, fresh ones delivered."""
        self._rebuilt = True
        held, self._held = self._held, []
        for frame in held:
            when = self._table_time(frame.ms)
            if when < self._opened_at - STALE_TOLERANCE_S:
                self.stale += 1
                self._health.count(self.link_id, "stale_frames")
                if isinstance(frame, TagFrame):
                    log.info("%s: stale frame from before the port was opened, not judged: %s %s on channel %d", self.port, frame.event, frame.uid, frame.channel)
                else:
                    log.info("%s: stale press of button %d from before the port was opened, not judged", self.port, frame.button)
                continue
            if isinstance(frame, TagFrame):
                self._tag(frame, when)
            else:
                self._press(frame, when)

    def _snapshot(self, snapshot: Snapshot) -> None:
        if self._on_state is None:
            return
        first = not self._rebuilt
        if first:
            if not self._settled():
                return
            self._release_held()
            self.rebuilt_from_ms = snapshot.ms
        elif not self._dirty:
            return  # nothing was lost: the table already knows all this
        when = self._table_time(snapshot.ms)
        for channel in sorted(self._channels | set(range(snapshot.channels))):
            try:
                self._on_state(self.reader_id(channel), snapshot.on(channel), when, not first)
            except Exception:  # as for events: the table's failure must not stop the link
                log.exception("rebuilding %s from the listing failed", self.reader_id(channel))
        self._dirty = False
        self._health.count(self.link_id, "rebuilds" if first else "resyncs")

    def _stats(self, frame: StatsFrame) -> None:
        self.stats[frame.channel] = frame
        if frame.errors:
            self._health.count(self.reader_id(frame.channel), "read_errors", frame.errors)

    def _tag(self, frame: TagFrame, table_time: float) -> None:
        reader = self.reader_id(frame.channel)
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

    def _press(self, frame: PressFrame, table_time: float) -> None:
        address = self._buttons.get(frame.button) or ArrayChannel(self.name, frame.button, BUTTON_SCHEME).reader_id
        self._health.count(address, "presses")
        if self._on_press is None:
            log.warning("%s: button %d was pressed, and nothing listens to buttons", self.port, frame.button)
            return
        try:
            self._on_press(ButtonPress(address, table_time))
        except Exception:  # as for tags: the table's failure must not stop the link
            log.exception("handling the press of %s failed", address)

    def _heartbeat(self, frame: HeartbeatFrame) -> None:
        self.lights.heartbeat()
        for channel, letter in enumerate(frame.health):
            self._channels.add(channel)
            status = Status.OK if letter == "O" else Status.DOWN
            if self._channel_status.get(channel) is not status:
                self._channel_status[channel] = status
                detail = "" if status is Status.OK else f"the reader on channel {channel} does not answer the array"
                self._health.set_status(self.reader_id(channel), status, detail)
