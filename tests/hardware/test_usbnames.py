"""Stable USB reader names looked up in a sysfs tree laid out as the kernel lays out /sys/bus/usb/devices."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from companion.core.errors import HardwareError
from hardware.nfc_reader import open_frontend
from hardware.usbnames import ARRAY_PRODUCT, UsbIdentity, resolve, tty_identity
from tests.hardware.helpers import ROOT


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


def pico_port(root: Path, tty: str, product: str | None, serial: str = "E6614C311B4A2F35") -> Path:
    """A USB serial port laid out as the kernel does: /sys/class/tty/ttyACM0/device -> the USB interface,
    whose parent (the USB device) has idVendor, idProduct, product, serial; and /dev/ttyACM0."""
    device = root / "sys" / "devices" / "platform" / "usb1" / "1-1" / "1-1.2"
    interface = device / "1-1.2:1.0"
    interface.mkdir(parents=True, exist_ok=True)
    for name, value in [("idVendor", "2e8a"), ("idProduct", "0005"), ("serial", serial), ("product", product)]:
        if value is not None:
            (device / name).write_text(f"{value}\n")
    entry = root / "sys" / "class" / "tty" / tty
    entry.mkdir(parents=True)
    (entry / "device").symlink_to(interface)
    (root / "dev").mkdir(exist_ok=True)
    port = root / "dev" / tty
    port.touch()
    return port


def test_the_reader_array_is_told_from_any_other_pico_by_its_product_string(tmp_path: Path) -> None:
    port = pico_port(tmp_path, "ttyACM0", ARRAY_PRODUCT)
    link = tmp_path / "dev" / "table-array"
    link.symlink_to(port)  # as the udev rule makes it
    identity = tty_identity(str(link), tmp_path / "sys" / "class" / "tty")
    assert identity == UsbIdentity("2e8a", "0005", ARRAY_PRODUCT, "E6614C311B4A2F35")
    assert identity.is_reader_array and "/dev/table-array-E6614C311B4A2F35" in identity.sentence()


def test_a_pico_without_the_arrays_name_is_told_to_get_boot_py(tmp_path: Path) -> None:
    port = pico_port(tmp_path, "ttyACM1", "Board in FS mode")  # MicroPython's default product string
    identity = tty_identity(str(port), tmp_path / "sys" / "class" / "tty")
    assert identity is not None and identity.is_pico and not identity.is_reader_array
    assert "firmware/boot.py" in identity.sentence()


def test_a_port_that_is_not_usb_has_no_identity(tmp_path: Path) -> None:
    assert tty_identity("/dev/pts/0", tmp_path / "sys" / "class" / "tty") is None


def test_the_udev_rule_boot_py_and_the_host_agree_on_the_arrays_name() -> None:
    rules = (ROOT / "hardware" / "99-table-companion.rules").read_text()
    (array_rule,) = [line for line in rules.splitlines() if 'SYMLINK+="table-array"' in line]
    assert 'ATTRS{idVendor}=="2e8a", ATTRS{idProduct}=="0005", ATTRS{product}=="' + ARRAY_PRODUCT + '"' in array_rule
    boot = ast.parse((ROOT / "firmware" / "boot.py").read_text())
    constants = {t.id: n.value.value for n in boot.body if isinstance(n, ast.Assign) for t in n.targets
                 if isinstance(t, ast.Name) and isinstance(n.value, ast.Constant)}
    assert constants["PRODUCT"] == ARRAY_PRODUCT and constants["PRODUCT_INDEX"] == 2
    assert len(ARRAY_PRODUCT) <= 19  # MicroPython's USB string descriptors hold 20 (MICROPY_HW_USB_DESC_STR_MAX)
