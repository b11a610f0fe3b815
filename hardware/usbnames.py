"""Stable names for USB NFC readers.

nfcpy names a USB reader ``usb:VID:PID`` (the first of that model) or ``usb:BUS:DEV``, and the
device number changes every time the reader re-enumerates (re-plugged, a hub reset). With several
readers of one model under a table that makes a zone's reader unstable. A zone may therefore name
its reader by something that does not change:

- ``usb-serial:<serial>``: the reader's USB serial number (``udevadm info -a -n /dev/bus/usb/BUS/DEV``
  or ``lsusb -v`` shows it; an ACR122U and most PN533 sticks have one);
- ``usb-port:<port path>``: the physical USB port it is plugged into, as the kernel names it
  (``1-1.3``: bus 1, port 1, then port 3 of the hub there), for readers with no serial number.

Each time the reader is opened the name is looked up in sysfs (``/sys/bus/usb/devices``) and turned
into nfcpy's ``usb:BUS:DEV`` for that moment; the zone's reader id stays the stable name.

The reader array is told apart from any other MicroPython Pico (all are USB ``2e8a:0005``) by the
product string its ``firmware/boot.py`` gives its USB port, :data:`ARRAY_PRODUCT`, which the udev
rule matches to name it ``/dev/table-array``; :func:`tty_identity` reads what a serial port's USB
device says of itself, for ``companion hw check``.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from pathlib import Path

from companion.core.errors import HardwareError

log = logging.getLogger(__name__)

SYSFS_USB = Path("/sys/bus/usb/devices")
SYSFS_TTY = Path("/sys/class/tty")
PICO = ("2e8a", "0005")
"""A Raspberry Pi Pico running MicroPython: USB vendor and product id."""
ARRAY_PRODUCT = "TC reader array"
"""The reader array's USB product string (firmware/boot.py's PRODUCT; the udev rule matches it)."""
SERIAL = "usb-serial:"
PORT = "usb-port:"


def is_stable_name(path: str) -> bool:
    return path.startswith((SERIAL, PORT))


def _read(device: Path, name: str) -> str | None:
    try:
        return (device / name).read_text(encoding="ascii", errors="replace").strip()
    except OSError:
        return None


def _nfcpy_path(device: Path, stable: str) -> str:
    bus, dev = _read(device, "busnum"), _read(device, "devnum")
    if not bus or not dev or not bus.isdigit() or not dev.isdigit():
        raise HardwareError(f"{stable}: {device} has no bus and device number (not a USB device?)")
    return f"usb:{int(bus):03d}:{int(dev):03d}"


def resolve(path: str, sysfs: Path = SYSFS_USB) -> str:
    """nfcpy's path for ``path`` now: stable names looked up in sysfs, any other path unchanged.

    Raises :class:`HardwareError` naming the stable name when no such device is plugged in.
    """
    if path.startswith(SERIAL):
        serial = path[len(SERIAL) :]
        if not serial:
            raise HardwareError(f'"{path}": no serial number after "{SERIAL}"')
        found = [d for d in sorted(sysfs.iterdir()) if _read(d, "serial") == serial] if sysfs.is_dir() else []
        if not found:
            raise HardwareError(f"no USB reader with serial number {serial} is plugged in")
        if len(found) > 1:
            raise HardwareError(f"{len(found)} USB devices have serial number {serial}: name the reader by its port (usb-port:)")
        resolved = _nfcpy_path(found[0], path)
    elif path.startswith(PORT):
        port = path[len(PORT) :]
        device = sysfs / port
        if not port or "/" in port or not device.is_dir():
            raise HardwareError(f"nothing is plugged into USB port {port or '(none given)'}")
        resolved = _nfcpy_path(device, path)
    else:
        return path
    log.debug("%s is %s now", path, resolved)
    return resolved


@dataclass(frozen=True)
class UsbIdentity:
    """What a USB device says of itself (sysfs attributes of the device, not its interface)."""

    vendor: str
    product_id: str
    product: str | None
    serial: str | None

    @property
    def is_pico(self) -> bool:
        return (self.vendor, self.product_id) == PICO

    @property
    def is_reader_array(self) -> bool:
        """A Pico whose firmware named its port the reader array (firmware/boot.py)."""
        return self.is_pico and self.product == ARRAY_PRODUCT

    def sentence(self) -> str:
        named = f'"{self.product}"' if self.product else "no product string"
        said = f"USB {self.vendor}:{self.product_id} {named}, serial {self.serial or '(none)'}"
        if self.is_reader_array:
            return f"{said}: the reader array (the udev rule names it /dev/table-array and /dev/table-array-{self.serial})"
        if self.is_pico:
            return (f"{said}: a MicroPython Pico, not named as the reader array: copy firmware/boot.py to it "
                    f'(MicroPython 1.23 or later) so that its port says "{ARRAY_PRODUCT}" and udev names it /dev/table-array')
        return f"{said}: not a Raspberry Pi Pico"


def tty_identity(port: str, sys_class_tty: Path = SYSFS_TTY) -> UsbIdentity | None:
    """The USB device behind serial port ``port`` (a udev symlink such as /dev/table-array is followed),
    or None when it is not a USB device (a pty, a UART)."""
    name = Path(os.path.realpath(port)).name
    link = sys_class_tty / name / "device"
    if not link.exists():
        return None
    device = link.resolve()
    for candidate in (device, *device.parents):  # the serial interface's parent is the USB device
        vendor, product_id = _read(candidate, "idVendor"), _read(candidate, "idProduct")
        if vendor and product_id:
            return UsbIdentity(vendor, product_id, _read(candidate, "product"), _read(candidate, "serial"))
        if candidate == sys_class_tty.parent.parent:
            break
    return None
