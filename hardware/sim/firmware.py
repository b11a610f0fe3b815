"""The array firmware (``firmware/*.py``, MicroPython code) run unchanged on CPython, against
simulated MFRC522 chips and a simulated field (:mod:`hardware.sim.field`).

:class:`FirmwareRig` is the array in one object: the field with its chips, the firmware's own
``MFRC522`` driver objects on the simulated bus, and the firmware's ``ArrayFirmware`` polling them,
with a clock the caller moves (``advance``) or real time. Its lines are the firmware's own frames.
"""

from __future__ import annotations

import importlib
import sys
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from companion.core.lights import Colour
from hardware.sim.field import FieldSettings, SimField

FIRMWARE_DIR = Path(__file__).resolve().parents[2] / "firmware"


def firmware_module(name: str) -> ModuleType:
    """``tcarray``, ``tcproto`` or ``mfrc522`` from firmware/ (not a package: it is the Pico's root)."""
    if not FIRMWARE_DIR.is_dir():
        raise RuntimeError(f"the firmware sources are not at {FIRMWARE_DIR}: run from a source checkout")
    if str(FIRMWARE_DIR) not in sys.path:
        sys.path.insert(0, str(FIRMWARE_DIR))
    return importlib.import_module(name)


class StepClock:
    """Milliseconds that move only when told, or by ``per_reading`` on every reading."""

    def __init__(self, start: int = 1000, per_reading: int = 0) -> None:
        self.now = start
        self.per_reading = per_reading

    def ms(self) -> int:
        self.now += self.per_reading
        return self.now

    def sleep_ms(self, ms: int) -> None:
        self.now += ms


class SimButton:
    """A call button on an input pin with a pull-up: ``value()`` reads 0 while it is held down."""

    def __init__(self) -> None:
        self.held = False

    def value(self) -> int:
        return 0 if self.held else 1


@dataclass(frozen=True)
class Lit:
    """One write of the LED chain: what every channel's LED showed from then on."""

    at: float
    """``time.monotonic()`` when it was written."""
    ms: int
    """The array's clock then."""
    colours: tuple[Colour, ...]


class SimPixels:
    """MicroPython's ``neopixel.NeoPixel`` as the firmware uses it (set pixels, then ``write()``),
    recording every write with its time: what the simulated array lit, and when."""

    def __init__(self, count: int, clock_ms: Callable[[], int]) -> None:
        self._buffer: list[Colour] = [(0, 0, 0)] * count
        self._clock_ms = clock_ms
        self._lock = threading.Lock()
        self.writes: list[Lit] = []

    def __len__(self) -> int:
        return len(self._buffer)

    def __setitem__(self, index: int, colour: Colour) -> None:
        r, g, b = colour
        self._buffer[index] = (int(r), int(g), int(b))

    def write(self) -> None:
        with self._lock:
            self.writes.append(Lit(time.monotonic(), self._clock_ms(), tuple(self._buffer)))

    def history(self) -> list[Lit]:
        with self._lock:
            return list(self.writes)

    def colour(self, channel: int) -> Colour:
        """What the LED on ``channel`` shows now (as last written)."""
        with self._lock:
            return self.writes[-1].colours[channel] if self.writes else (0, 0, 0)


class FirmwareRig:
    """Simulated readers polled by the real firmware; ``lines`` collects what it would send."""

    def __init__(
        self,
        channels: int = 4,
        *,
        kinds: Sequence[str] | None = None,
        neighbours: Iterable[tuple[int, int]] = (),
        settings: FieldSettings | None = None,
        clock_ms: Callable[[], int] | None = None,
        sleep_ms: Callable[[int], None] | None = None,
        write: Callable[[str], object] | None = None,
        buttons: int = 0,
        leds: bool = False,
        host_input: Callable[[], bytes] | None = None,
        brightness: float = 1.0,
        **options: Any,
    ) -> None:
        """``leds``: an LED per channel (firmware 2.3), recorded in :attr:`pixels`; ``host_input``:
        where the firmware reads the host's frames from (the pty, for :class:`FirmwareArray`)."""
        mfrc522 = firmware_module("mfrc522")
        tcarray = firmware_module("tcarray")
        tcleds = firmware_module("tcleds")
        neighbours = tuple(neighbours)
        self.field = SimField(channels, settings, neighbours)
        self.clock = StepClock(per_reading=1)
        self.lines: list[str] = []
        sleep = sleep_ms or (self.clock.sleep_ms if clock_ms is None else None)
        self.readers = [mfrc522.MFRC522(self.field.bus, pin, sleep) for pin in self.field.pins]
        self.buttons = [SimButton() for _ in range(buttons)]
        self.pixels: SimPixels | None = SimPixels(channels, clock_ms or self.clock.ms) if leds else None
        self.leds: Any = tcleds.Leds(self.pixels, channels, brightness) if self.pixels is not None else None
        self.firmware: Any = tcarray.ArrayFirmware(
            self.readers,
            write or self.lines.append,
            clock_ms or self.clock.ms,
            kinds=list(kinds) if kinds is not None else None,
            neighbours=neighbours,
            buttons=self.buttons,
            leds=self.leds,
            host_input=host_input,
            **options,
        )

    @property
    def chips(self) -> list[Any]:
        return list(self.field.chips)

    def known(self, channel: int) -> list[bytes]:
        """The tags the firmware believes lie on ``channel``, oldest first."""
        return list(self.firmware.channels[channel].known)
