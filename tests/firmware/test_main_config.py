"""firmware/main.py's pin map and reader layout are consistent (it only runs on the Pico: imported
here with the maintenance jumper set, so it returns before touching any bus)."""

from __future__ import annotations

import importlib
import sys
import types
from typing import Any

from hardware.sim.firmware import firmware_module

tcarray = firmware_module("tcarray")


class _Pin:
    IN = OUT = PULL_UP = 0

    def __init__(self, number: int, *args: Any, **kwargs: Any) -> None:
        self.number = number

    def value(self, *args: Any) -> int:
        return 0  # the maintenance jumper (GP13 to GND) is fitted


def test_main_pins_do_not_clash_and_the_layout_is_valid(monkeypatch: Any) -> None:
    machine = types.ModuleType("machine")
    machine.Pin = _Pin  # type: ignore[attr-defined]
    machine.SPI = machine.WDT = object  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "machine", machine)
    sys.modules.pop("main", None)
    main = importlib.import_module("main")
    bus_pins = [pin for bus in main.BUS_PINS for pin in bus]
    used = list(main.CS_PINS) + bus_pins + [main.RESET_PIN, main.MAINTENANCE_PIN]
    assert len(used) == len(set(used)), "a GPIO is used twice"
    assert all(0 <= pin <= 22 or 26 <= pin <= 28 for pin in used), "not a Pico GPIO"
    assert len(main.CS_PINS) == len(main.KINDS) == 16
    # The firmware accepts the layout as main.py hands it over (two neighbouring piles are refused).
    tcarray.ArrayFirmware([object()] * 16, lambda line: None, lambda: 0, kinds=main.KINDS, neighbours=main.NEIGHBOURS)
    sys.modules.pop("main", None)
