"""A simulated MFRC522 on a simulated SPI bus, with ISO/IEC 14443-3A tags that come and go.

Just enough of the chip for the firmware's driver: register reads and writes over SPI (address
byte, then data), the FIFO, the Transceive command started by StartSend, the interrupt and error
registers, and the antenna switch. The tag answers WUPA/REQA, anticollision and select at each
cascade level, and HLTA, moving through IDLE / READY / ACTIVE / HALT as a real one does.
"""

from __future__ import annotations

import sys
from pathlib import Path

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"
if str(FIRMWARE) not in sys.path:
    sys.path.insert(0, str(FIRMWARE))

from mfrc522 import crc_a  # noqa: E402  (firmware/ is not a package)


class SimTag:
    def __init__(self, uid: bytes) -> None:
        assert len(uid) in (4, 7, 10)
        self.uid = uid
        self.state = "IDLE"
        self.halted = False
        if len(uid) == 4:
            self.levels = [uid]
        elif len(uid) == 7:
            self.levels = [b"\x88" + uid[:3], uid[3:]]
        else:
            self.levels = [b"\x88" + uid[:3], b"\x88" + uid[3:6], uid[6:]]

    def _part(self, level: int) -> bytes:
        part = self.levels[level]
        return part + bytes([part[0] ^ part[1] ^ part[2] ^ part[3]])

    def handle(self, frame: bytes, last_bits: int) -> bytes | None:
        if last_bits == 7 and len(frame) == 1:
            if frame[0] == 0x52 or (frame[0] == 0x26 and self.state == "IDLE"):
                self.state = "READY"
                return b"\x44\x00" if len(self.uid) > 4 else b"\x04\x00"
            return None
        if self.state == "READY" and len(frame) >= 2 and frame[0] in (0x93, 0x95, 0x97):
            level = (0x93, 0x95, 0x97).index(frame[0])
            if level >= len(self.levels):
                self._unexpected()
                return None
            if frame[1] == 0x20:
                return self._part(level)
            if frame[1] == 0x70 and len(frame) == 9 and crc_a(frame[:7]) == frame[7:] and frame[2:7] == self._part(level):
                last = level == len(self.levels) - 1
                sak = bytes([0x00 if last else 0x04])
                if last:
                    self.state = "ACTIVE"
                answer: bytes = sak + crc_a(sak)
                return answer
            self._unexpected()
            return None
        if self.state == "ACTIVE" and frame == b"\x50\x00" + crc_a(b"\x50\x00"):
            self.state = "HALT"
            self.halted = True
            return None
        self._unexpected()
        return None

    def _unexpected(self) -> None:
        self.state = "HALT" if self.halted else "IDLE"
        return None

    def power_off(self) -> None:
        self.state = "IDLE"
        self.halted = False


class SimChip:
    """One MFRC522. ``tag`` is the tag in its field (None: none); ``alive`` False: unplugged."""

    VERSION = 0x92

    def __init__(self) -> None:
        self.alive = True
        self.tag: SimTag | None = None
        self.regs: dict[int, int] = {}
        self.fifo: list[int] = []
        self.transceive = False
        self.frames: list[bytes] = []
        self._addr: int | None = None
        self._read = False

    # the field
    def place(self, uid: bytes) -> None:
        self.tag = SimTag(uid)

    def take(self) -> None:
        if self.tag is not None:
            self.tag.power_off()
        self.tag = None

    # SPI, one transaction between chip-select low and high
    def begin(self) -> None:
        self._addr = None

    def spi_write(self, data: bytes) -> None:
        for byte in data:
            if self._addr is None:
                self._read = bool(byte & 0x80)
                self._addr = (byte >> 1) & 0x3F
            elif not self._read:
                self._write_reg(self._addr, byte)

    def spi_read(self, count: int) -> bytes:
        assert self._addr is not None and self._read, "read without a read address"
        return bytes(self._read_reg(self._addr) for _ in range(count))

    # registers
    def _read_reg(self, reg: int) -> int:
        if not self.alive:
            return 0x00
        if reg == 0x37:
            return self.VERSION
        if reg == 0x0A:
            return len(self.fifo)
        if reg == 0x09:
            return self.fifo.pop(0) if self.fifo else 0
        return self.regs.get(reg, 0)

    def _write_reg(self, reg: int, value: int) -> None:
        if not self.alive:
            return
        if reg == 0x01:
            command = value & 0x0F
            if command == 0x0F:
                self.regs = {}
                self.fifo = []
            self.transceive = command == 0x0C
            self.regs[reg] = value & 0x0F
        elif reg == 0x04:
            current = self.regs.get(reg, 0)
            self.regs[reg] = current | (value & 0x7F) if value & 0x80 else current & ~value & 0x7F
        elif reg == 0x0A:
            if value & 0x80:
                self.fifo = []
        elif reg == 0x09:
            self.fifo.append(value)
        elif reg == 0x0D:
            self.regs[reg] = value & 0x7F
            if value & 0x80 and self.transceive:
                self._exchange(value & 0x07)
        else:
            self.regs[reg] = value

    def _exchange(self, last_bits: int) -> None:
        frame = bytes(self.fifo)
        self.fifo = []
        self.frames.append(frame)
        antenna_on = self.regs.get(0x14, 0) & 0x03 == 0x03
        answer = self.tag.handle(frame, last_bits) if (self.tag is not None and antenna_on) else None
        self.regs[0x06] = 0
        if answer is None:
            self.regs[0x04] = self.regs.get(0x04, 0) | 0x01  # TimerIRq
        else:
            self.fifo = list(answer)
            self.regs[0x04] = self.regs.get(0x04, 0) | 0x30  # RxIRq | IdleIRq


class SimBus:
    """An SPI bus whose chip-select pins route each transaction to one chip."""

    def __init__(self) -> None:
        self.selected: SimChip | None = None

    def pin(self, chip: SimChip) -> "SimPin":
        return SimPin(self, chip)

    def write(self, data: bytes) -> None:
        assert self.selected is not None, "SPI write with no chip selected"
        self.selected.spi_write(data)

    def read(self, count: int, write: int = 0) -> bytes:
        assert self.selected is not None, "SPI read with no chip selected"
        return self.selected.spi_read(count)


class SimPin:
    def __init__(self, bus: SimBus, chip: SimChip) -> None:
        self.bus = bus
        self.chip = chip
        self.level = 1

    def value(self, level: int | None = None) -> int:
        if level is None:
            return self.level
        if level == 0 and self.level == 1:
            assert self.bus.selected is None, "two chips selected at once"
            self.bus.selected = self.chip
            self.chip.begin()
        elif level == 1 and self.level == 0:
            self.bus.selected = None
        self.level = level
        return level
