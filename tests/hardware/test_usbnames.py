"""Stable USB reader names looked up in a sysfs tree laid out as the kernel lays out /sys/bus/usb/devices."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.core.errors import HardwareError
from hardware.nfc_reader import open_frontend
from hardware.usbnames import resolve


def usb_device(sysfs: Path, port: str, bus: int, dev: int, serial: str | None = None) -> None:
    device = sysfs / port
    device.mkdir(parents=True)
    (device / "busnum").write_text(f"{bus}\n")
    (device / "devnum").write_text(f"{dev}\n")
    if serial is not None:
        (device / "serial").write_text(f"{serial}\n")


@pytest.fixture
def sysfs(tmp_path: Path) -> Path:
    root = tmp_path / "devices"
    usb_device(root, "1-1.2", 1, 5, "ACR122U-A9-0001")
    usb_device(root, "1-1.3", 1, 7, "ACR122U-A9-0002")
    usb_device(root, "1-1.4", 1, 9)  # a reader with no serial number
    (root / "1-1.4:1.0").mkdir()  # an interface directory: no busnum, never matched
    return root


def test_a_reader_named_by_serial_number_follows_it_across_a_replug(sysfs: Path) -> None:
    assert resolve("usb-serial:ACR122U-A9-0002", sysfs) == "usb:001:007"
    for name in ("busnum", "devnum", "serial"):
        (sysfs / "1-1.3" / name).unlink()
    (sysfs / "1-1.3").rmdir()
    usb_device(sysfs, "1-1.1", 1, 12, "ACR122U-A9-0002")  # re-plugged elsewhere: a new device number
    assert resolve("usb-serial:ACR122U-A9-0002", sysfs) == "usb:001:012"


def test_a_reader_named_by_port_and_other_paths(sysfs: Path) -> None:
    assert resolve("usb-port:1-1.4", sysfs) == "usb:001:009"
    assert resolve("usb:072f:2200", sysfs) == "usb:072f:2200"  # nfcpy's own paths pass through
    assert resolve("tty:AMA0:pn532", sysfs) == "tty:AMA0:pn532"


def test_a_missing_reader_is_one_clear_error(sysfs: Path) -> None:
    with pytest.raises(HardwareError, match="no USB reader with serial number NOPE"):
        resolve("usb-serial:NOPE", sysfs)
    with pytest.raises(HardwareError, match="nothing is plugged into USB port 2-1"):
        resolve("usb-port:2-1", sysfs)
    usb_device(sysfs, "2-1", 2, 3, "ACR122U-A9-0001")
    with pytest.raises(HardwareError, match="2 USB devices have serial number"):
        resolve("usb-serial:ACR122U-A9-0001", sysfs)


def test_open_frontend_names_the_stable_name_when_nothing_is_there() -> None:
    with pytest.raises(HardwareError, match="ZZZ-NOT-PLUGGED"):
        open_frontend("usb-serial:ZZZ-NOT-PLUGGED")
