"""A PN532 on a UART left at 921,600 baud by a process that died: nfcpy's real driver (nfc.clf.pn532)
against a simulated chip on a pty that hears only its own speed, and the restoring of 115,200."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator

import nfc.clf.pn532
import nfc.clf.transport
import pytest

from hardware.pn532_speed import POWER_UP_BAUD, pn532_tty, restore_speed
from hardware.sim.pn532 import SimPN532


@pytest.fixture
def chip() -> Iterator[SimPN532]:
    sim = SimPN532()
    try:
        yield sim
    finally:
        sim.close()


def nfcpy_open(port: str) -> nfc.clf.pn532.Device:
    """What ContactlessFrontend("tty:AMA0:pn532") does once it has found the port: nfcpy's own driver."""
    transport = nfc.clf.transport.TTY(port)
    try:
        return nfc.clf.pn532.init(transport)
    except OSError:
        transport.close()
        raise


def killed(device: nfc.clf.pn532.Device) -> None:
    """The process dies (SIGKILL, a crash): the kernel closes the port, nobody closes the chip."""
    device.chipset.transport.close()


def test_nfcpy_raises_the_speed_and_a_killed_process_leaves_the_chip_unreachable(chip: SimPN532) -> None:
    device = nfcpy_open(chip.port)
    assert chip.speed == 921600 and 0x10 in chip.commands  # SetSerialBaudRate, after `stty 921600` succeeded
    assert device.chipset.get_firmware_version() == bytearray((0x32, 0x01, 0x06, 0x07))
    killed(device)
    with pytest.raises(OSError):  # nfcpy opens at 115,200 only: nothing answers ("No such device")
        nfcpy_open(chip.port)
    assert chip.unheard > 0 and chip.speed == 921600


def test_the_chip_is_set_back_to_115200_and_nfcpy_opens_it_again(chip: SimPN532) -> None:
    killed(nfcpy_open(chip.port))
    assert restore_speed(chip.port) == 921600
    assert chip.speed == POWER_UP_BAUD
    device = nfcpy_open(chip.port)
    assert chip.speed == 921600  # nfcpy raised it again, as it does at every opening
    device.close()  # a clean close sets it back itself
    assert chip.speed == POWER_UP_BAUD


def test_a_chip_already_at_115200_is_left_alone(chip: SimPN532) -> None:
    assert restore_speed(chip.port) is None
    assert chip.speed == POWER_UP_BAUD and chip.commands == []
    nfcpy_open(chip.port).close()


def test_nothing_on_the_port_is_none_quickly() -> None:
    master, slave = os.openpty()
    try:
        start = time.monotonic()
        assert restore_speed(os.ttyname(slave), answer_s=0.05) is None
        assert time.monotonic() - start < 2.0
    finally:
        os.close(master)
        os.close(slave)


def test_only_a_pn532_on_one_uart_is_restored() -> None:
    assert pn532_tty("usb:072f:2200") is None
    assert pn532_tty("udp:127.0.0.1:50001") is None
    assert pn532_tty("tty:AMA77:pn532") is None  # no such UART here
