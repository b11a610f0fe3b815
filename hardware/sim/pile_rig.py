"""The array's real firmware polling ISO 15693 piles on simulated PN5180s (and RC522 pads beside
them), in simulated time: :class:`PileRig`, for the tests and bench/pile15693.py.

Time moves only through the firmware's work (:mod:`hardware.sim.pn5180` says what each SPI frame,
pin read and air exchange costs), so a poll takes as long here as the figures say it would on a
Pico, and two simulated hours run in minutes. The pads are the simulated MFRC522s of
:mod:`hardware.sim.field`, their SPI frames timed the same way; a pad's antenna, while on, is a
field reaching its neighbouring pile's tags.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from hardware.protocol import Frame, TagFrame, parse_frame
from hardware.sim.field import FieldSettings, SimChip, SimField
from hardware.sim.firmware import firmware_module
from hardware.sim.pn5180 import SPI_FRAME_US, SimBusy, SimClockUs, SimPN5180
from hardware.sim.spi import SimPin
from hardware.sim.vicinity import PileTable, VicinityPile
from hardware.stacktable import SHIPPED_TABLE

VPILE = "vpile"


def _field_of(pile: VicinityPile) -> Callable[[], bool]:
    return lambda: pile.rf_on


def _antenna_of(chip: SimChip) -> Callable[[], bool]:
    return lambda: chip.antenna_on


class TimedPin:
    """An MFRC522's chip-select whose every frame costs the simulated clock one SPI frame's time."""

    def __init__(self, pin: SimPin, clock: SimClockUs) -> None:
        self.pin = pin
        self.clock = clock

    def value(self, level: int | None = None) -> int:
        if level == 1 and self.pin.level == 0:
            self.clock.advance(SPI_FRAME_US)
        return self.pin.value(level)


class PileRig:
    """Channels of ``kinds`` ("vpile" or "pad"); ``neighbours`` as the firmware is told (pad, pile
    pairs: the pad's field reaches the pile's tags); ``reach``: (pile, pile, probability) pairs, the
    first pile's requests reaching the second's tags (what a layout too close would do)."""

    def __init__(
        self,
        kinds: Sequence[str],
        *,
        neighbours: Iterable[tuple[int, int]] = (),
        reach: Iterable[tuple[int, int, float]] = (),
        table: PileTable | None = None,
        table_path: Path = SHIPPED_TABLE,
        seed: int = 1,
        **options: Any,
    ) -> None:
        tcarray = firmware_module("tcarray")
        pn5180 = firmware_module("pn5180")
        mfrc522 = firmware_module("mfrc522")
        self.kinds = list(kinds)
        self.clock = SimClockUs()
        self.table = table or PileTable.load(table_path)
        rng = random.Random(seed)
        neighbours = tuple(neighbours)
        pads = [i for i, k in enumerate(self.kinds) if k != VPILE]
        self.field = SimField(len(self.kinds), FieldSettings(seed=seed), [(a, b) for a, b in neighbours if a in pads and b in pads])
        self.piles: dict[int, VicinityPile] = {}
        self.chips: dict[int, SimPN5180] = {}
        readers: list[Any] = []
        for channel, kind in enumerate(self.kinds):
            if kind == VPILE:
                pile = VicinityPile(self.table, random.Random(rng.random()))
                chip = SimPN5180(self.clock, pile)
                self.piles[channel], self.chips[channel] = pile, chip
                # One SPI bus for every reader, as main.py wires the array: a PN5180 and an MFRC522 selected at once fails.
                readers.append(pn5180.PN5180(self.field.bus, self.field.bus.pin(chip), SimBusy(chip), self.clock.ticks_us,
                                             self.clock.ticks_diff, self.clock.sleep_ms))
            else:
                readers.append(mfrc522.MFRC522(self.field.bus, TimedPin(self.field.pins[channel], self.clock), self.clock.sleep_ms))
        for a, b in neighbours:
            for pad, on in ((a, b), (b, a)):
                if on in self.piles and pad not in self.piles:
                    self.piles[on].other_fields.append(_antenna_of(self.field.chips[pad]))
        for a, b, p in reach:
            self.piles[a].neighbours.append((self.piles[b], p))
            self.piles[b].other_fields.append(_field_of(self.piles[a]))
        self.lines: list[str] = []
        self.frames: list[Frame] = []
        self.on_line: Callable[[str], object] | None = None
        """Also given every line the firmware writes (a pty, for :class:`~hardware.sim.pile_array.PileArray`)."""
        self.sent_ms: list[int] = []
        """Per frame: the clock when the firmware wrote it (a D frame is stamped earlier: when the card was first missed)."""
        self.firmware: Any = tcarray.ArrayFirmware(
            readers, self._line, self.clock.ms, kinds=self.kinds, neighbours=neighbours,
            ticks_us=self.clock.ticks_us, ticks_diff=self.clock.ticks_diff, **options,
        )

    def _line(self, line: str) -> None:
        self.lines.append(line)
        if self.on_line is not None:
            self.on_line(line)
        self.sent_ms.append(self.clock.ms())
        self.frames.append(parse_frame(line.rstrip("\n").encode()))

    @property
    def ms(self) -> int:
        return self.clock.ms()

    def boot(self) -> None:
        self.firmware.boot()

    def run_until(self, ms: float) -> None:
        """Poll until the simulated clock reads ``ms``."""
        while self.clock.ms() < ms:
            self.firmware.step()

    def run(self, ms: float) -> None:
        self.run_until(self.clock.ms() + ms)

    def tag_frames(self, since: int = 0) -> list[TagFrame]:
        return [f for f in self.frames[since:] if isinstance(f, TagFrame)]

    def sent(self, since: int = 0) -> list[tuple[int, TagFrame]]:
        """Tag frames from frame ``since`` on, each with the clock when it was sent."""
        return [(at, f) for at, f in zip(self.sent_ms[since:], self.frames[since:]) if isinstance(f, TagFrame)]

    def place_until_reported(self, channel: int, uid: bytes, limit_ms: int = 5000) -> int | None:
        """Slap ``uid`` on pile ``channel`` and poll until its arrival is sent: milliseconds it took (None: not within the limit)."""
        since, at = len(self.frames), self.clock.ms()
        self.piles[channel].place(uid)
        wanted = uid.hex().upper()
        while self.clock.ms() - at < limit_ms:
            self.firmware.step()
            for sent_at, frame in self.sent(since):
                if frame.event == "arrive" and frame.channel == channel and frame.uid.upper() == wanted:
                    return sent_at - at
            since = len(self.frames)
        return None

    def lift_until_cleared(self, channel: int, limit_ms: int = 10000) -> int | None:
        """Lift pile ``channel`` whole and poll until every card on it is reported gone: milliseconds it took."""
        at = self.clock.ms()
        self.piles[channel].lift()
        while self.clock.ms() - at < limit_ms:
            self.firmware.step()
            if not self.firmware.channels[channel].known:
                return self.clock.ms() - at
        return None

    def known(self, channel: int) -> list[bytes]:
        return list(self.firmware.channels[channel].known)
