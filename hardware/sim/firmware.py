"""The array firmware (``firmware/*.py``, MicroPython code) run unchanged on CPython, against
simulated MFRC522 chips and a simulated field (:mod:`hardware.sim.field`).

:class:`FirmwareRig` is the array in one object: the field with its chips, the firmware's own
``MFRC522`` driver objects on the simulated bus, and the firmware's ``ArrayFirmware`` polling them,
with a clock the caller moves (``advance``) or real time. Its lines are the firmware's own frames.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

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
        **options: Any,
    ) -> None:
        mfrc522 = firmware_module("mfrc522")
        tcarray = firmware_module("tcarray")
        neighbours = tuple(neighbours)
        self.field = SimField(channels, settings, neighbours)
        self.clock = StepClock(per_reading=1)
        self.lines: list[str] = []
        sleep = sleep_ms or (self.clock.sleep_ms if clock_ms is None else None)
        self.readers = [mfrc522.MFRC522(self.field.bus, pin, sleep) for pin in self.field.pins]
        self.buttons = [SimButton() for _ in range(buttons)]
        self.firmware: Any = tcarray.ArrayFirmware(
            self.readers,
            write or self.lines.append,
            clock_ms or self.clock.ms,
            kinds=list(kinds) if kinds is not None else None,
            neighbours=neighbours,
            buttons=self.buttons,
            **options,
        )

    @property
    def chips(self) -> list[Any]:
        return list(self.field.chips)

    def known(self, channel: int) -> list[bytes]:
        """The tags the firmware believes lie on ``channel``, oldest first."""
        return list(self.firmware.channels[channel].known)
