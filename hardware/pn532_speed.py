"""A PN532 on a UART that a dead process left at a high speed, set back to 115,200 baud.

nfcpy's PN532 driver (``nfc/clf/pn532.py``, ``init``) opens the UART at the chip's power-up speed,
115,200 baud, and on Linux then raises it to the fastest speed ``stty`` accepts (921,600 on the
Pi's ``/dev/ttyAMA0``; only ``/dev/ttyS0`` on a Pi is left alone), by the PN532's SetSerialBaudRate
command. Its ``close()`` sets it back. A process that dies without closing (SIGKILL, a crash, a
reboot that keeps the reader powered) leaves the chip at 921,600, where nfcpy, opening at 115,200,
finds nothing: "No such device" until the reader is power-cycled (nfcpy issues #63, #230; PR #191
would probe every speed, not merged), and ``Restart=on-failure`` restarts against it in vain.

Before a failed opening is reported, :func:`restore_speed` looks for the chip at each higher speed
and sends it SetSerialBaudRate(115,200) there (PN532 user manual UM0701-02, SetSerialBaudRate: the chip
answers, and changes speed once the host acknowledges the answer); nfcpy's own opening then finds
it. No wiring is needed (a GPIO on the chip's RSTPDN would do the same by a hardware reset).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from typing import Any

import nfc.clf.transport
import serial

log = logging.getLogger(__name__)

POWER_UP_BAUD = 115200
HIGHER_SPEEDS = (921600, 460800, 230400)
"""Speeds nfcpy's driver may leave the chip at, fastest first (the ones it tries with stty)."""
ACK = bytes.fromhex("0000ff00ff00")
PREAMBLE = bytes(10)
"""Zeros before a command, as nfcpy sends them (they also wake a chip in power-down on HSU)."""
SET_SERIAL_BAUDRATE = 0x10
BAUD_CODES = (9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600, 1288000)
"""SetSerialBaudRate's argument is the index of the speed here (UM0701-02; nfcpy's set_serial_baudrate)."""


def command_frame(code: int, data: bytes = b"") -> bytes:
    """A normal information frame from the host: preamble, start code, LEN, LCS, TFI D4, command, data, DCS, postamble."""
    body = bytes((0xD4, code)) + data
    return b"\x00\x00\xff" + bytes((len(body), (-len(body)) & 0xFF)) + body + bytes(((-sum(body)) & 0xFF, 0))


def response_frame(code: int, data: bytes = b"") -> bytes:
    """The chip's answer to command ``code``: TFI D5 and ``code + 1``."""
    body = bytes((0xD5, code + 1)) + data
    return b"\x00\x00\xff" + bytes((len(body), (-len(body)) & 0xFF)) + body + bytes(((-sum(body)) & 0xFF, 0))


def pn532_tty(path: str) -> str | None:
    """The serial device of an nfcpy path naming a PN532 on one UART (``tty:AMA0:pn532`` -> ``/dev/ttyAMA0``), else None."""
    if not path.startswith("tty"):
        return None
    try:
        found = nfc.clf.transport.TTY.find(path)
    except OSError as exc:  # the one device it names is there but cannot be opened: nfcpy says so itself
        log.debug("%s: %s", path, exc)
        return None
    if not found:
        return None
    ttys, driver, _ = found
    return ttys[0] if driver == "pn532" and len(ttys) == 1 else None


def restore_speed(
    port: str,
    *,
    speeds: Sequence[int] = HIGHER_SPEEDS,
    open_serial: Callable[..., Any] = serial.Serial,
    answer_s: float = 0.1,
) -> int | None:
    """Set a PN532 found on ``port`` at one of ``speeds`` back to 115,200 baud; the speed it was at, or None."""
    command = command_frame(SET_SERIAL_BAUDRATE, bytes((BAUD_CODES.index(POWER_UP_BAUD),)))
    answer = response_frame(SET_SERIAL_BAUDRATE)
    for speed in speeds:
        try:
            link = open_serial(port, speed, timeout=answer_s)
        except (serial.SerialException, OSError) as exc:
            log.debug("%s at %d baud: %s", port, speed, exc)
            return None
        try:
            link.reset_input_buffer()
            # An ACK first cancels whatever command the dead process left running (as nfcpy's close does).
            link.write(ACK + PREAMBLE + command)
            heard = b""
            deadline = time.monotonic() + answer_s
            while answer not in heard and time.monotonic() < deadline:
                heard += link.read(len(ACK) + len(answer))
            if answer in heard:
                link.write(ACK)  # the chip takes the new speed once its answer is acknowledged
                link.flush()
                time.sleep(0.005)
                log.warning("%s: the PN532 was left at %d baud (a process ended without closing it): set back to %d",
                            port, speed, POWER_UP_BAUD)
                return speed
        finally:
            link.close()
    return None
