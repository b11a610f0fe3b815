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
    assert main.LED_PIN not in used and main.LED_PIN not in main.BUTTON_PINS, "the LED data pin is wired to something else"
    assert 0 < main.LED_BRIGHTNESS <= 0.25  # 16 LEDs at full white would draw ~1 A (docs/hardware.md, "Lights")
    vpiles = [channel for channel, kind in enumerate(main.KINDS[: main.CHANNELS]) if kind == tcarray.VPILE]
    busy = [main.BUSY_PINS[channel] for channel in vpiles]  # every ISO 15693 pile has its BUSY input
    assert not set(busy) & (set(main.CS_PINS[: main.CHANNELS]) | set(bus_pins) | {main.RESET_PIN, main.MAINTENANCE_PIN, main.LED_PIN})
    # The firmware accepts the layout as main.py hands it over (two neighbouring piles are refused).
    tcarray.ArrayFirmware([object()] * 16, lambda line: None, lambda: 0, kinds=main.KINDS, neighbours=main.NEIGHBOURS)
    sys.modules.pop("main", None)


class _Builtin:
    desc_dev = b"\x12\x01device"
    desc_cfg = b"\x09\x02config"


class _USBDevice:
    """machine.USBDevice as MicroPython 1.23+ documents it: a singleton with the built-in driver's descriptors."""

    BUILTIN_DEFAULT = _Builtin()
    made: list["_USBDevice"] = []

    def __init__(self) -> None:
        self.builtin_driver: object = None
        self.calls: list[tuple[str, object]] = []
        _USBDevice.made.append(self)

    def active(self, value: bool) -> None:
        self.calls.append(("active", value))

    def config(self, desc_dev: bytes, desc_cfg: bytes, desc_strs: dict[int, str]) -> None:
        self.calls.append(("config", (desc_dev, desc_cfg, desc_strs)))


def run_boot(monkeypatch: Any, jumper: int, usb: bool) -> list[_USBDevice]:
    class Pin(_Pin):
        def value(self, *args: Any) -> int:
            return jumper

    machine = types.ModuleType("machine")
    machine.Pin = Pin  # type: ignore[attr-defined]
    if usb:
        machine.USBDevice = _USBDevice  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "machine", machine)
    _USBDevice.made = []
    sys.modules.pop("boot", None)
    importlib.import_module("boot")
    sys.modules.pop("boot", None)
    return _USBDevice.made


def test_boot_names_the_usb_port_keeping_the_builtin_serial_driver(monkeypatch: Any) -> None:
    (usbd,) = run_boot(monkeypatch, jumper=1, usb=True)
    assert usbd.builtin_driver is _USBDevice.BUILTIN_DEFAULT
    assert usbd.calls[0] == ("active", False) and usbd.calls[-1] == ("active", True)  # configured while inactive
    (config,) = [args for name, args in usbd.calls if name == "config"]
    assert config == (_Builtin.desc_dev, _Builtin.desc_cfg, {2: "TC reader array"})


def test_boot_leaves_usb_alone_for_flashing_or_on_an_older_micropython(monkeypatch: Any) -> None:
    assert run_boot(monkeypatch, jumper=0, usb=True) == []  # the maintenance jumper is fitted
    assert run_boot(monkeypatch, jumper=1, usb=False) == []  # no machine.USBDevice: nothing to do, no error
