"""Simulated MFRC522 chips on a simulated SPI bus, over a simulated 13.56 MHz field full of tags.

The firmware's own driver (``firmware/mfrc522.py``) runs against these unchanged, on CPython: every
register access goes through :class:`~hardware.sim.spi.SimBus` and the chip-select pins, as on the Pico.

What the field models (docs/hardware.md, "The pile mechanism", names the sources):

- **several tags** per reader: a reader's ``stack`` lists its tags bottom first;
- **ISO/IEC 14443-3 type A states** per tag: IDLE, READY, ACTIVE, HALT. REQA wakes only IDLE tags,
  WUPA wakes HALT ones too; a halted tag stays silent as long as it is powered, and forgets it was
  halted when its field goes off (antenna switched off, soft reset), as a real tag loses power;
- **bit-oriented anticollision**: tags answering together give a collision at the first bit where
  they differ; tags sending the same bits give no collision. CollReg's CollPos counts the bits of the
  received frame as they lie in the FIFO (from bit 0 of its first byte, so a partial byte's RxAlign
  known bits count, the whole bytes sent before do not), as NXP's reference reads it
  (``phhalHw_Rc523``'s exchange, ``phpalI14443p3a_Sw``'s anticollision): beyond 32 it is not valid.
  Bits after the collision are cleared if the driver cleared ValuesAfterColl (set, as the simulated
  chip starts, they hold what the air gave, here the OR of the answers; NXP's library and
  miguelbalboa/rfid both clear it before anticollision);
- **too many tags answering at once**: beyond ``max_answers`` different answers the reader hears
  nothing decodable and times out (the MFRC522 reports of 3+ tags giving only time-outs); tags
  sending identical bits count as one;
- **detuning**: tags stacked beyond ``detune_depth`` get too little power to answer at all (the depth
  comes from a stack table, :mod:`hardware.stacktable`: measured by ``companion hw stack``, or the
  shipped guess);
- **crosstalk**: a reader whose antenna is on also reaches the powered tags of its ``neighbours``
  (miguelbalboa/rfid #589: readers 80 mm apart, each with its own field on, read each other's tags);
- **reach** (``idle_reach``): a field that is on also powers its neighbours' tags when their own
  field is off, so a pile's always-on field can read and halt a neighbouring pad's card;
- **bit errors**: with probability ``bit_error_rate`` an answer arrives with a parity error.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any

from hardware.sim.spi import SimBus
from hardware.stacktable import SHIPPED_TABLE, StackTable

REQA = 0x26
WUPA = 0x52
SEL_CODES = (0x93, 0x95, 0x97)
HLTA = b"\x50\x00"

REG_COMMAND = 0x01
REG_COM_IRQ = 0x04
REG_ERROR = 0x06
REG_FIFO_DATA = 0x09
REG_FIFO_LEVEL = 0x0A
REG_CONTROL = 0x0C
REG_BIT_FRAMING = 0x0D
REG_COLL = 0x0E
COLL_VALUES_AFTER = 0x80  # ValuesAfterColl, CollReg's one writable bit (set until a driver clears it)
COLL_POS_NOT_VALID = 0x20
REG_TX_CONTROL = 0x14
REG_VERSION = 0x37

ERR_PARITY = 0x02
ERR_COLLISION = 0x08


def crc_a(data: bytes) -> bytes:
    """ISO/IEC 14443-3 CRC_A (init 0x6363), LSB first (the same as firmware/mfrc522.py's)."""
    crc = 0x6363
    for value in data:
        value ^= crc & 0xFF
        value = (value ^ (value << 4)) & 0xFF
        crc = ((crc >> 8) ^ (value << 8) ^ (value << 3) ^ (value >> 4)) & 0xFFFF
    return bytes((crc & 0xFF, crc >> 8))


def to_bits(data: bytes) -> list[int]:
    """Bits in the order they go over the air: each byte LSB first."""
    return [(byte >> i) & 1 for byte in data for i in range(8)]


def from_bits(bits: Sequence[int], offset: int = 0) -> bytes:
    """Bytes with ``bits`` stored from bit ``offset`` of the first byte on (the chip's RxAlign)."""
    total = offset + len(bits)
    out = bytearray((total + 7) // 8)
    for i, bit in enumerate(bits):
        if bit:
            pos = offset + i
            out[pos // 8] |= 1 << (pos % 8)
    return bytes(out)


class SimTag:
    """One ISO/IEC 14443-3 type A tag (an NTAG21x sticker under a card)."""

    def __init__(self, uid: bytes) -> None:
        if len(uid) not in (4, 7, 10):
            raise ValueError(f"a type A UID is 4, 7 or 10 bytes, not {len(uid)}")
        self.uid = uid
        self.state = "IDLE"
        self.halted = False  # woken from HALT: a wrong command sends it back to HALT, not IDLE
        self.level = 0
        if len(uid) == 4:
            self.levels = [uid]
        elif len(uid) == 7:
            self.levels = [b"\x88" + uid[:3], uid[3:]]
        else:
            self.levels = [b"\x88" + uid[:3], b"\x88" + uid[3:6], uid[6:]]

    def part(self, level: int) -> bytes:
        """The 5 bytes of cascade level ``level``: four UID bytes (or CT + three) and the BCC."""
        p = self.levels[level]
        return p + bytes((p[0] ^ p[1] ^ p[2] ^ p[3],))

    def power_off(self) -> None:
        self.state = "IDLE"
        self.halted = False
        self.level = 0

    def _back(self) -> None:
        self.state = "HALT" if self.halted else "IDLE"
        self.level = 0

    def hear(self, data: bytes, tx_bits: int) -> list[int] | None:
        """The bits this tag answers to a frame of ``tx_bits`` bits, or None (silent)."""
        if tx_bits == 7 and len(data) == 1:  # a short frame: REQA or WUPA
            if data[0] == WUPA and self.state in ("IDLE", "HALT"):
                self.halted = self.state == "HALT"
            elif data[0] == REQA and self.state == "IDLE":
                self.halted = False
            else:
                self._back()
                return None
            self.state, self.level = "READY", 0
            return to_bits(b"\x44\x00" if len(self.uid) > 4 else b"\x04\x00")
        if self.state == "READY" and len(data) >= 2 and data[0] in SEL_CODES:
            if SEL_CODES.index(data[0]) != self.level:
                self._back()
                return None
            nvb = data[1]
            mine = to_bits(self.part(self.level))
            if nvb == 0x70:  # SELECT with the whole UID part
                if len(data) != 9 or crc_a(data[:7]) != data[7:]:
                    self._back()
                    return None
                if data[2:7] != self.part(self.level):
                    return None  # another tag's select: stay READY, silent
                last = self.level == len(self.levels) - 1
                sak = bytes((0x00 if last else 0x04,))
                if last:
                    self.state = "ACTIVE"
                else:
                    self.level += 1
                return to_bits(sak + crc_a(sak))
            known = ((nvb >> 4) - 2) * 8 + (nvb & 0x07)
            if not 0 <= known < 40:
                self._back()
                return None
            if to_bits(data[2:])[:known] != mine[:known]:
                return None  # anticollision for other tags' bits: stay READY, silent
            return mine[known:]
        if self.state == "ACTIVE" and data == HLTA + crc_a(HLTA):
            self.state, self.halted, self.level = "HALT", True, 0
            return None
        self._back()
        return None


@cache
def shipped_depth() -> int:
    """The shipped stack table's depth (a guess until ``companion hw stack`` replaces it)."""
    return StackTable.load(SHIPPED_TABLE).depth


@dataclass
class FieldSettings:
    """How forgiving the simulated RF is (defaults: a clean bench)."""

    max_answers: int = 2
    """Tags answering one frame together that the reader still decodes (as a collision); beyond: time-out."""
    detune_depth: int = field(default_factory=shipped_depth)
    """Tags a reader's stack can hold before the ones on top get too little power to answer: the
    stack table's depth (hardware/sim/stack-table.json, 24 and marked a guess until measured)."""
    bit_error_rate: float = 0.0
    """Probability that an answer arrives with a parity error."""
    idle_reach: bool = False
    """A field that is on powers its neighbours' tags too, though their own field is off. Off by default:
    #589's readers had every field on (it shows reach to a powered tag, not power at 80 mm), and cheap
    RC522 boards fail NTAG tokens beyond about 1 cm (issue 24); how far a field powers a tag on the
    table's parts is not measured. On: what a closer layout does (docs/hardware.md, "No lost card")."""
    seed: int = 1

    @classmethod
    def from_stack_table(cls, path: Path, **settings: Any) -> "FieldSettings":
        """Settings whose detuning depth is the one ``companion hw stack`` measured (in the table at ``path``)."""
        return replace(cls(**settings), detune_depth=StackTable.load(path).depth)


@dataclass
class SimChip:
    """One MFRC522 and its antenna. ``alive`` False: unplugged (reads 0x00, ignores writes)."""

    settings: FieldSettings = field(default_factory=FieldSettings)
    rng: random.Random = field(default_factory=lambda: random.Random(1))
    alive: bool = True
    stack: list[SimTag] = field(default_factory=list)
    neighbours: list["SimChip"] = field(default_factory=list)
    regs: dict[int, int] = field(default_factory=dict)
    fifo: list[int] = field(default_factory=list)
    frames: list[bytes] = field(default_factory=list)
    airlog: list[tuple[int, int | None]] = field(default_factory=list)
    """Per exchange: bits the reader sent, bits it received (None: it timed out). For bench/bridge.py."""
    exchanges: int = 0
    field_cycles: int = 0
    _addr: int | None = None
    _read: bool = False

    VERSION = 0x92

    # -- the table --------------------------------------------------------------------------

    def place(self, uid: bytes) -> SimTag:
        """A card lands on top of this reader's stack."""
        tag = SimTag(uid)
        self.stack.append(tag)
        return tag

    def take(self, uid: bytes | None = None) -> None:
        """A card is picked up: the top one, or the one with ``uid`` (pulled out of the stack)."""
        index = len(self.stack) - 1 if uid is None else [t.uid for t in self.stack].index(uid)
        self.stack.pop(index).power_off()
        self._repower()

    @property
    def antenna_on(self) -> bool:
        return self.alive and self.regs.get(REG_TX_CONTROL, 0) & 0x03 == 0x03

    @property
    def fed(self) -> bool:
        """A field reaches this reader's tags: its own, or (``idle_reach``) a neighbour's."""
        if self.antenna_on:
            return True
        return self.settings.idle_reach and any(other.antenna_on for other in self.neighbours)

    def powered(self) -> list[SimTag]:
        """Tags a field powers on this reader: all of them up to the detuning depth."""
        return self.stack[: self.settings.detune_depth] if self.fed else []

    def _repower(self) -> None:
        # A tag that is not powered forgets everything (a halted tag wakes IDLE on its next power-up).
        live = {id(t) for t in self.powered()}
        for tag in self.stack:
            if id(tag) not in live:
                tag.power_off()

    def _field_changed(self) -> None:
        self._repower()
        if self.settings.idle_reach:
            for other in self.neighbours:
                other._repower()

    def in_reach(self) -> list[SimTag]:
        """Tags that hear this reader now: its own, and its neighbours' while a field powers them."""
        if not self.antenna_on:
            return []
        tags = list(self.powered())
        for other in self.neighbours:
            tags.extend(other.powered())
        return tags

    # -- SPI: one transaction between chip-select low and high -----------------------------

    def select(self) -> None:
        self._addr = None

    def deselect(self) -> None:
        pass  # a register access ends with its bytes: nothing waits for the chip-select to rise

    def spi_write(self, data: bytes) -> None:
        for byte in data:
            if self._addr is None:
                self._read = bool(byte & 0x80)
                self._addr = (byte >> 1) & 0x3F
            elif not self._read:
                self._write_reg(self._addr, byte)

    def spi_read(self, count: int) -> bytes:
        if self._addr is None or not self._read:
            raise AssertionError("SPI read without a read address")
        return bytes(self._read_reg(self._addr) for _ in range(count))

    # -- registers --------------------------------------------------------------------------

    def _read_reg(self, reg: int) -> int:
        if not self.alive:
            return 0x00
        if reg == REG_VERSION:
            return self.VERSION
        if reg == REG_FIFO_LEVEL:
            return len(self.fifo)
        if reg == REG_FIFO_DATA:
            return self.fifo.pop(0) if self.fifo else 0
        return self.regs.get(reg, 0)

    def _write_reg(self, reg: int, value: int) -> None:
        if not self.alive:
            return
        if reg == REG_COMMAND:
            command = value & 0x0F
            if command == 0x0F:  # SoftReset: every register to its reset value, the antenna off
                was_on = self.antenna_on
                self.regs = {}
                self.fifo = []
                if was_on:
                    self.field_cycles += 1
                self._field_changed()
            self.regs[reg] = command
        elif reg == REG_COM_IRQ:
            current = self.regs.get(reg, 0)
            self.regs[reg] = current | (value & 0x7F) if value & 0x80 else current & ~value & 0x7F
        elif reg == REG_FIFO_LEVEL:
            if value & 0x80:
                self.fifo = []
        elif reg == REG_FIFO_DATA:
            self.fifo.append(value)
        elif reg == REG_BIT_FRAMING:
            self.regs[reg] = value & 0x7F
            if value & 0x80 and self.regs.get(REG_COMMAND) == 0x0C:
                self._exchange(value & 0x07, (value >> 4) & 0x07)
        elif reg == REG_COLL:
            self.regs[reg] = (value & COLL_VALUES_AFTER) | (self._coll() & ~COLL_VALUES_AFTER & 0x7F)
        elif reg == REG_TX_CONTROL:
            was_on = self.antenna_on
            self.regs[reg] = value
            if was_on and not self.antenna_on:
                self.field_cycles += 1
            self._field_changed()
        else:
            self.regs[reg] = value

    def _coll(self) -> int:
        return self.regs.get(REG_COLL, COLL_VALUES_AFTER | COLL_POS_NOT_VALID)

    def _exchange(self, tx_last_bits: int, rx_align: int) -> None:
        data = bytes(self.fifo)
        self.fifo = []
        self.frames.append(data)
        self.exchanges += 1
        tx_bits = (len(data) - 1) * 8 + (tx_last_bits or 8) if data else 0
        heard = [bits for tag in self.in_reach() if (bits := tag.hear(data, tx_bits)) is not None]
        # Tags sending the same bits (ATQAs of one tag type, SAKs of tags sharing a cascade level)
        # add up to one signal: they count once towards max_answers and give no collision.
        answers = [list(bits) for bits in {tuple(bits) for bits in heard}]
        self.regs[REG_ERROR] = 0
        values_after = self._coll() & COLL_VALUES_AFTER
        self.regs[REG_COLL] = values_after | COLL_POS_NOT_VALID
        if not answers or len(answers) > self.settings.max_answers:
            self.regs[REG_COM_IRQ] = self.regs.get(REG_COM_IRQ, 0) | 0x01  # TimerIRq: nothing decodable
            self.airlog.append((tx_bits, None))
            return
        merged = list(answers[0])
        length = max(len(a) for a in answers)
        collision = None
        for i in range(length):
            column = {a[i] for a in answers if i < len(a)}
            if len(column) > 1 or any(i >= len(a) for a in answers):
                collision = i
                break
        if collision is not None:
            # The tags send to the end of their frame. From the collided bit on, the FIFO holds zeros
            # (ValuesAfterColl cleared) or what the air gave (set: here the OR of the answers).
            merged = merged[:collision] + [
                max(a[i] for a in answers if i < len(a)) if values_after else 0 for i in range(collision, length)
            ]
            self.regs[REG_ERROR] |= ERR_COLLISION
            position = rx_align + collision + 1  # CollPos: the collided bit's place in the FIFO's bits, from 1
            if position <= 32:
                self.regs[REG_COLL] = values_after | (position & 0x1F)  # 32 reads as 0
        if self.settings.bit_error_rate and self.rng.random() < self.settings.bit_error_rate:
            self.regs[REG_ERROR] |= ERR_PARITY
            if merged:
                flip = self.rng.randrange(len(merged))
                merged[flip] ^= 1
        self.airlog.append((tx_bits, len(merged)))
        self.fifo = list(from_bits(merged, rx_align))
        self.regs[REG_CONTROL] = (rx_align + len(merged)) % 8  # RxLastBits
        self.regs[REG_COM_IRQ] = self.regs.get(REG_COM_IRQ, 0) | 0x30  # RxIRq | IdleIRq


class SimField:
    """A table's worth of readers on one bus: chips, their pins, and which are neighbours."""

    def __init__(self, channels: int, settings: FieldSettings | None = None, neighbours: Iterable[tuple[int, int]] = ()) -> None:
        self.settings = settings or FieldSettings()
        rng = random.Random(self.settings.seed)
        self.bus = SimBus()
        self.chips = [SimChip(self.settings, rng) for _ in range(channels)]
        self.pins = [self.bus.pin(chip) for chip in self.chips]
        for a, b in neighbours:
            self.chips[a].neighbours.append(self.chips[b])
            self.chips[b].neighbours.append(self.chips[a])
