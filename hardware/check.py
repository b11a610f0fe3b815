"""``companion hw check``: listen to the reader array for a while and say how each reader is doing.

On the bench, with the array wired and cards laid on its readers, this tells whether each reader
answers, which tags it holds, how often it reads, and how often its answers collide or arrive
garbled: a reader with errors has a bad wire, a shared MISO line held low by a module that does not
release it (docs/hardware.md, "Wiring"), or a neighbour too close. It opens the port exclusively, so
it cannot run beside the service: stop the service first.

It also tests the LEDs (firmware 2.3): once the array has said how many it drives, each channel's LED
is lit white in turn, ``LED_STEP_S`` each, so a person walking the table sees each zone's light
come on in channel order (a dark one: a broken data line at that pixel, or one wired out of order).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import serial

from companion.core.errors import CompanionError, FrameError
from companion.core.lights import DARK, Light, Pattern
from companion.core.readers import ArrayChannel
from hardware.protocol import (
    BootFrame,
    Frame,
    HeartbeatFrame,
    KnownFrame,
    LedFrame,
    LineAssembler,
    RefusalFrame,
    StatsFrame,
    TagFrame,
    TimingFrame,
    decode_line,
    encode_frame,
)
from hardware.resync import ListingAssembler, Snapshot

log = logging.getLogger(__name__)


class CheckError(CompanionError):
    """The array's port cannot be opened or read."""


LED_STEP_S = 0.3
"""How long each LED is lit in the LED test."""
TEST_LIGHT = Light((255, 255, 255), Pattern.STEADY)


@dataclass
class LedTest:
    """Each LED lit in turn, then all dark: the frames to write as time goes (pure but for ``now``)."""

    step_s: float = LED_STEP_S
    lit: list[int] = field(default_factory=list)
    """Channels lit so far, in order."""
    done: bool = False
    _next_at: float = 0.0
    _seq: int = 0

    def due(self, leds: int, now: float) -> list[bytes]:
        """The frames to send at ``now`` for an array with ``leds`` LEDs."""
        if self.done or now < self._next_at or leds <= 0:
            return []
        out = []
        if self.lit:
            out.append(self._frame(self.lit[-1], DARK, now))
        if len(self.lit) == leds:
            self.done = True
            return out
        channel = len(self.lit)
        out.append(self._frame(channel, TEST_LIGHT, now))
        self.lit.append(channel)
        self._next_at = now + self.step_s
        return out

    def _frame(self, channel: int, light: Light, now: float) -> bytes:
        self._seq += 1
        return encode_frame(LedFrame(self._seq, int(now * 1000) % 10**9, channel, light))


@dataclass
class ReaderTally:
    health: str = "?"
    polls: int = 0
    reads: int = 0
    collisions: int = 0
    errors: int = 0
    arrived: int = 0
    departed: int = 0
    tags: tuple[str, ...] = ()


@dataclass
class ArrayCheck:
    """Frames in, a per-reader tally out (pure)."""

    readers: dict[int, ReaderTally] = field(default_factory=dict)
    firmware: str = ""
    frames: int = 0
    bad_frames: int = 0
    first_ms: int | None = None
    last_ms: int | None = None
    listed: bool = False
    timing: dict[str, str] = field(default_factory=dict)
    """The array's timing figures (T frames, firmware 2.1), latest of each."""
    leds: LedTest = field(default_factory=LedTest)
    refused: list[str] = field(default_factory=list)
    """Why the array refused frames we sent (R frames, firmware 2.3)."""
    _listing: ListingAssembler = field(default_factory=ListingAssembler)

    def reader(self, channel: int) -> ReaderTally:
        return self.readers.setdefault(channel, ReaderTally())

    def line(self, raw: bytes) -> None:
        for frame in decode_line(raw):
            if isinstance(frame, FrameError):
                self.bad(frame)
            else:
                self.frame(frame)

    def bad(self, error: FrameError) -> None:
        self.bad_frames += 1
        log.info("bad frame: %s", error)

    def frame(self, frame: Frame) -> None:
        self.frames += 1
        snapshot: Snapshot | None = None
        if isinstance(frame, KnownFrame):
            snapshot = self._listing.known(frame)
        else:
            self._listing.other()
        if isinstance(frame, BootFrame):
            self.firmware = frame.firmware
        elif isinstance(frame, HeartbeatFrame):
            for channel, letter in enumerate(frame.health):
                self.reader(channel).health = "ok" if letter == "O" else "FAILED"
            snapshot = self._listing.heartbeat(frame)
        elif isinstance(frame, StatsFrame):
            # Statistics count from the heartbeat before: the first one's span began before we listened.
            if self.first_ms is None:
                self.first_ms = frame.ms
            else:
                tally = self.reader(frame.channel)
                tally.polls += frame.polls
                tally.reads += frame.reads
                tally.collisions += frame.collisions
                tally.errors += frame.errors
                self.last_ms = frame.ms
        elif isinstance(frame, TimingFrame):
            self.timing.update(frame.figures)
        elif isinstance(frame, RefusalFrame):
            self.refused.append(frame.reason)
        elif isinstance(frame, TagFrame):
            tally = self.reader(frame.channel)
            if frame.event == "arrive":
                tally.arrived += 1
            else:
                tally.departed += 1
        if snapshot is not None:
            self.listed = True
            for channel in range(snapshot.channels):
                self.reader(channel).tags = snapshot.on(channel)

    @property
    def seconds(self) -> float:
        if self.first_ms is None or self.last_ms is None or self.last_ms <= self.first_ms:
            return 0.0
        return (self.last_ms - self.first_ms) / 1000.0

    def report(self) -> list[str]:
        span = self.seconds
        lines = [
            f"array firmware {self.firmware or '(no boot frame seen)'}; {self.frames} frames, {self.bad_frames} bad, "
            f"statistics over {span:.1f} s",
            f"{'reader':<10} {'health':<7} {'tags':>4} {'reads/s':>8} {'polls/s':>8} {'collisions':>10} {'errors':>6} {'in':>4} {'out':>4}  tags present",
        ]

        def rate(n: int) -> str:
            return f"{n / span:8.1f}" if span else f"{'-':>8}"

        for channel in sorted(self.readers):
            t = self.readers[channel]
            lines.append(
                f"{ArrayChannel('', channel).reader_id:<10} {t.health:<7} {len(t.tags):>4} {rate(t.reads)} {rate(t.polls)} {t.collisions:>10} "
                f"{t.errors:>6} {t.arrived:>4} {t.departed:>4}  {' '.join(t.tags) if t.tags else '-'}"
            )
        if not self.listed:
            lines.append("no tag listing seen: the firmware is older than 2.0, or no heartbeat came (is it polling?)")
        kinds = self.kinds_report()
        if kinds:
            lines.append(kinds)
        lines.append(self.led_report())
        return lines

    def kinds_report(self) -> str:
        """Which reader is what, as the array says (its ``kinds`` figure, firmware 2.4); empty if it did not say."""
        letters = self.timing.get("kinds", "")
        if not letters:
            return ""
        named = [f"{ArrayChannel('', channel).reader_id} {READER_KINDS.get(letter, 'unknown kind ' + repr(letter))}"
                 for channel, letter in enumerate(letters)]
        return "readers: " + ", ".join(named)

    @property
    def led_count(self) -> int | None:
        """LEDs the array drives (its ``leds`` figure), None if it did not say."""
        value = self.timing.get("leds")
        return int(value) if value is not None and value.isdigit() else None

    def led_report(self) -> str:
        count = self.led_count
        if count is None:
            return "LEDs: the array did not say it drives any (firmware older than tc-array-2.3, or LEDS = False in main.py)"
        refused = f"; the array REFUSED {len(self.refused)} frame(s): {', '.join(self.refused)}" if self.refused else ""
        order = " ".join(str(c) for c in self.leds.lit)
        return (f"LEDs: {count} fitted; lit white in turn, {self.leds.step_s:g} s each: channels {order or '(none yet)'}"
                f"{' (all done)' if self.leds.done else ' (listen longer to light them all)'}; each zone's LED should have "
                f"lit once, in that order{refused}")

    def timing_report(self) -> list[str]:
        """What the array measured of itself: its boot self-test and its polling rounds (empty: no T frame)."""
        t = self.timing
        if not t:
            return []
        where = ", ".join(part for part in (f"on {t['on']}" if "on" in t else "", f"{t['mhz']} MHz" if "mhz" in t else "",
                                             f"SPI {t['spi_khz']} kHz" if "spi_khz" in t else "") if part)
        lines = [f"timing measured by the array ({self.firmware or 'firmware not seen'}{', ' + where if where else ''}; "
                 f"boot self-test of {t.get('n', '?')} calls each):"]
        for name, what in (("rd_us", "register read (one chip-select SPI transaction, 2 bytes)"),
                           ("wr_us", "register write (one chip-select SPI transaction, 2 bytes)"),
                           ("pin_us", "Pin.value() on a chip-select pin")):
            lines.append(f"  {what:<58} {t[name] + ' us' if name in t else 'not measured (no reader answers)'}")
        if "census_ms" in t:
            lines.append(f"  {'ISO 15693 pile census (each card asked by its UID)':<58} mean {t['census_ms']} ms, "
                         f"max {t.get('census_max', '?')} ms over {t.get('censuses', '?')} censuses")
        if "round_ms" in t:
            lines.append(f"  {'polling round, as the readers lie now':<58} mean {t['round_ms']} ms, max {t.get('max_ms', '?')} ms "
                         f"over {t.get('rounds', '?')} rounds")
        return lines

    @property
    def healthy(self) -> bool:
        readers_ok = all(t.health == "ok" and not t.errors for t in self.readers.values())
        return bool(self.readers) and self.bad_frames == 0 and not self.refused and readers_ok


READER_KINDS = {"d": "pad (RC522)", "p": "pile (RC522)", "v": "ISO 15693 pile (PN5180)"}
"""The letters of the array's ``kinds`` figure (firmware/tcarray.py KIND_LETTERS)."""


def check_array(port: str, seconds: float = 10.0, open_serial: Callable[..., Any] = serial.serial_for_url) -> ArrayCheck:
    """Listen to the array on ``port`` for ``seconds``; raises :class:`CheckError` if it cannot be opened."""
    try:
        link = open_serial(port, baudrate=115200, timeout=0.1, exclusive=True)
    except (serial.SerialException, OSError, ValueError) as exc:
        raise CheckError(f"cannot open the array at {port}: {exc} (is the service running? stop it first)") from exc
    result = ArrayCheck()
    lines = LineAssembler()
    try:
        link.reset_input_buffer()
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            count = result.led_count
            if count:
                for frame in result.leds.due(count, time.monotonic()):
                    link.write(frame)
            chunk = link.read(link.in_waiting or 1)
            if not chunk:
                continue
            complete, noise = lines.feed(chunk)
            for line in complete:
                result.line(line)
            if noise is not None:
                result.bad(noise)
    except (serial.SerialException, OSError) as exc:
        raise CheckError(f"lost the array at {port}: {exc}") from exc
    finally:
        link.close()
    return result
