"""ISO/IEC 15693 tags in a pile, on the air: who answers which slot, and when (the physics of a
PN5180 pile, for :mod:`hardware.sim.pn5180`).

What it models (docs/hardware.md, "The ISO 15693 pile", says which figures are cited and which guessed):

- **each tag's answer probability** from its depth in the stack, its sticker's staggered position,
  the tabletop and a resting hand, from the pile table (:class:`PileTable`, the ``iso15693`` part of
  hardware/sim/stack-table.json: ``measured`` false until ``companion hw stack`` is run on real parts);
- **addressed requests** (Stay Quiet, Reset to Ready, Read Single Block): only the tag with that UID
  acts or answers, quiet or not (ISO/IEC 15693-3's Quiet state serves addressed requests only);
- **coupling-change resets**: a card slapped on the pile or a hand laid on it (or lifted) shakes the
  coupling, and every tag on the pile loses power for a moment: each forgets Stay Quiet and its
  place in an inventory, and wakes READY;
- **16-slot collisions**: each READY tag matching the mask answers in the slot given by the next 4
  bits of its UID (in a 1-slot inventory, at once); two or more answers collide, unless one is captured (decoded cleanly, the others
  lost) with the table's ``capture`` probability;
- **real timing** (ISO/IEC 15693-2 and -3, cited, not read on this machine: the figures are the
  standard's as NXP's and TI's application notes give them): a request at 1 out of 4 takes 302.08 us a
  byte plus its SOF and EOF, a tag answers t1 = 4352/fc after the request's end, at the high data rate
  (37.76 us a bit, 151.04 us for each of SOF and EOF), and the reader's next EOF waits t2 = 4192/fc
  after an answer, or t1 + a SOF after a silent slot;
- **fields reaching nearby tags**: a neighbour's field that is on (another pile's, a pad's antenna)
  keeps this pile's tags powered through its own field's switching (so a quiet tag stays quiet),
  and a neighbouring pile's requests reach this pile's tags with the ``reach`` probability given.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.core.errors import ConfigError
from hardware.stacktable import SHIPPED_TABLE

FC_HZ = 13.56e6
VCD_BYTE_US = 302.08
"""One byte at 1 out of 4 (26.48 kbit/s): four 75.52 us pulse positions (ISO/IEC 15693-2)."""
VCD_SOF_US = 75.52
VCD_EOF_US = 37.76
VICC_BIT_US = 37.76
"""One bit of a tag's answer at the high data rate, one subcarrier (ISO/IEC 15693-2)."""
VICC_SOF_US = 151.04
VICC_EOF_US = 151.04
T1_US = 4352 / FC_HZ * 1e6
"""From the end of a request to a tag's answer (ISO/IEC 15693-3, nominal)."""
T2_US = 4192 / FC_HZ * 1e6
"""From the end of an answer to the reader's next EOF, at least."""
T3_SILENT_US = 4384 / FC_HZ * 1e6 + VICC_SOF_US
"""A silent slot: the latest t1 and a SOF, before the reader may send the next EOF."""

INVENTORY = 0x01
STAY_QUIET = 0x02
RESET_TO_READY = 0x26
READ_SINGLE_BLOCK = 0x20
FLAG_INVENTORY = 0x04
FLAG_ADDRESSED = 0x20
FLAG_ONE_SLOT = 0x20  # with the inventory flag: Nb_slots_flag, 1 slot instead of 16


def request_us(frame_bytes: int) -> float:
    """A request of ``frame_bytes`` bytes (CRC included) on the air."""
    return VCD_SOF_US + frame_bytes * VCD_BYTE_US + VCD_EOF_US


def answer_us(frame_bytes: int) -> float:
    """A tag's answer of ``frame_bytes`` bytes (CRC included) on the air."""
    return VICC_SOF_US + frame_bytes * 8 * VICC_BIT_US + VICC_EOF_US


@dataclass(frozen=True)
class PileTable:
    """The figures the pile's physics come from (the ``iso15693`` part of a stack table)."""

    measured: bool
    source: str
    answer: tuple[float, ...]
    """Probability that the card at depth N+1 (1: the bottom card) answers one request; none beyond."""
    positions: tuple[float, ...] = (1.0,)
    """Per staggered sticker position: how much more often than at position 0 a tag misses."""
    tabletop: float = 1.0
    """How much more often a tag misses on this tabletop than on the one measured."""
    hand: float = 1.0
    """How much more often a tag misses while a hand rests on the pile."""
    capture: float = 0.0
    """Probability that of answers colliding in one slot, one is decoded cleanly (the others lost)."""

    @classmethod
    def from_json(cls, data: Any, where: str) -> "PileTable":
        if not isinstance(data, dict):
            raise ConfigError(f"{where}: no iso15693 part (an object with measured, source, answer)")
        try:
            table = cls(
                measured=bool(data["measured"]),
                source=str(data["source"]),
                answer=tuple(float(p) for p in data["answer"]),
                positions=tuple(float(m) for m in data.get("positions", (1.0,))),
                tabletop=float(data.get("tabletop", 1.0)),
                hand=float(data.get("hand", 1.0)),
                capture=float(data.get("capture", 0.0)),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ConfigError(f"{where}: the iso15693 part is not a pile table: {exc}") from exc
        if not table.answer or not table.positions or not all(0.0 <= p <= 1.0 for p in table.answer + (table.capture,)):
            raise ConfigError(f"{where}: iso15693 answer and capture are probabilities (0 to 1), positions at least one")
        return table

    @classmethod
    def load(cls, path: Path = SHIPPED_TABLE) -> "PileTable":
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise ConfigError(f"{path}: cannot read the stack table: {exc}") from exc
        return cls.from_json(data.get("iso15693") if isinstance(data, dict) else None, str(path))

    def p_answer(self, depth: int, position: int, hand: bool) -> float:
        """Probability that a tag at ``depth`` (1: bottom), sticker ``position``, answers one request."""
        if not 1 <= depth <= len(self.answer):
            return 0.0
        miss = (1.0 - self.answer[depth - 1]) * self.positions[position % len(self.positions)] * self.tabletop
        if hand:
            miss *= self.hand
        return max(0.0, 1.0 - miss)


class VicinityTag:
    """One ICODE SLIX2-like tag: an 8-byte UID (E0 first) and its ISO/IEC 15693 state."""

    def __init__(self, uid: bytes, position: int) -> None:
        if len(uid) != 8:
            raise ValueError(f"an ISO 15693 UID is 8 bytes, not {len(uid)}")
        self.uid = uid
        self.bits = int.from_bytes(uid, "big")  # bit 0 is the first on the air (LSB first)
        self.position = position
        self.quiet = False
        self.session = 0  # bumped whenever it loses power: it forgets any inventory under way

    def lose_power(self) -> None:
        self.quiet = False
        self.session += 1


@dataclass
class Reception:
    """What the reader hears after one transmission: when the SOF and the whole answer are in."""

    sof_at: float
    done_at: float
    collision: bool
    data: bytes


@dataclass
class VicinityPile:
    """The tags on one PN5180's antenna (bottom first), and that antenna's field."""

    table: PileTable
    rng: random.Random = field(default_factory=lambda: random.Random(1))
    stack: list[VicinityTag] = field(default_factory=list)
    rf_on: bool = False
    hand: bool = False
    neighbours: list[tuple["VicinityPile", float]] = field(default_factory=list)
    """Neighbouring piles whose tags this pile's requests reach, each with its reach probability."""
    other_fields: list[Callable[[], bool]] = field(default_factory=list)
    """Other fields reaching this pile's tags (a neighbour pile's, a pad's antenna): on or off now."""
    next_tx_at: float = 0.0
    """The earliest the reader may transmit again (t2 after an answer, t3 after a silent slot)."""
    _inventory: tuple[int, int, list[tuple[VicinityTag, int, float]]] | None = None
    """The inventory under way: its mask, mask length, and the tags asked (with their session then, and
    answer probability: nothing on the table changes between two of the firmware's SPI frames)."""
    _slot: int = 0
    placed: int = 0

    # -- the table ------------------------------------------------------------------------

    def place(self, uid: bytes, position: int | None = None) -> VicinityTag:
        """A card slapped on top: the coupling changes, every tag on the pile wakes READY."""
        tag = VicinityTag(uid, self.placed if position is None else position)
        self.placed += 1
        self.stack.append(tag)
        self.shake()
        return tag

    def take(self, uid: bytes | None = None) -> None:
        index = len(self.stack) - 1 if uid is None else [t.uid for t in self.stack].index(uid)
        self.stack.pop(index).lose_power()
        self.shake()

    def lift(self) -> None:
        """The whole pile is picked up."""
        for tag in self.stack:
            tag.lose_power()
        self.stack.clear()

    def rest_hand(self, on: bool) -> None:
        """A hand laid on the pile (or lifted off it): the coupling changes, and while it rests tags miss more."""
        self.hand = on
        self.shake()

    def shake(self) -> None:
        for tag in self.stack:
            tag.lose_power()

    def powered(self) -> bool:
        return self.rf_on or any(on() for on in self.other_fields)

    def rf(self, on: bool) -> None:
        self.rf_on = on
        if not self.powered():
            self.shake()

    # -- the air ------------------------------------------------------------------------------

    def _reached(self) -> list[tuple[VicinityTag, float]]:
        """Tags this pile's requests reach now, each with its probability of answering one."""
        out: list[tuple[VicinityTag, float]] = []
        if not self.rf_on:
            return out
        for depth, tag in enumerate(self.stack, start=1):
            out.append((tag, self.table.p_answer(depth, tag.position, self.hand)))
        for pile, reach in self.neighbours:
            if pile.powered():
                for depth, tag in enumerate(pile.stack, start=1):
                    out.append((tag, reach * pile.table.p_answer(depth, tag.position, pile.hand)))
        return out

    def transmit(self, data: bytes | None, start: float) -> tuple[float, Reception | None]:
        """The reader sends ``data`` (its CRC added on the air; None: an EOF alone, the next slot)
        at ``start`` or as soon as the air allows; returns when it ended and what came back."""
        begin = max(start, self.next_tx_at)
        if data is None:
            end = begin + VCD_EOF_US
            if self._inventory is None:
                self.next_tx_at = end
                return end, None
            self._slot += 1
            return end, self._answer_slot(end)
        end = begin + request_us(len(data) + 2)
        self._inventory = None
        reached = self._reached()
        flags, command = data[0], data[1]
        if command == INVENTORY and flags & FLAG_INVENTORY:
            mask_bits = data[2]
            mask = int.from_bytes(data[3 : 3 + (mask_bits + 7) // 8], "little") & ((1 << mask_bits) - 1)
            low = (1 << mask_bits) - 1
            members = [(tag, tag.session, p) for tag, p in reached if not tag.quiet and tag.bits & low == mask]
            self._inventory = (mask, mask_bits, members)
            self._slot = 0
            return end, self._answer_slot(end, one_slot=bool(flags & FLAG_ONE_SLOT))
        if flags & FLAG_ADDRESSED and len(data) >= 10:
            uid = bytes(reversed(data[2:10]))
            for tag, p in reached:
                if tag.uid == uid and self.rng.random() < p:
                    if command == STAY_QUIET:
                        tag.quiet = True
                        break
                    if command == RESET_TO_READY:
                        tag.quiet = False
                        return end, self._reception(end, [(tag, b"\x00")])
                    if command == READ_SINGLE_BLOCK:  # served in any state, quiet too: flags, then block 0's 4 bytes
                        return end, self._reception(end, [(tag, b"\x00" + tag.uid[-4:])])
        self.next_tx_at = end + T3_SILENT_US
        return end, None

    def _answer_slot(self, end: float, one_slot: bool = False) -> Reception | None:
        assert self._inventory is not None
        mask, mask_bits, members = self._inventory
        answering: list[tuple[VicinityTag, bytes]] = []
        for tag, session, p in members:
            if session != tag.session or tag.quiet:
                continue  # reset since (a shake, picked up: either loses its power), or quieted
            slot = 0 if one_slot else (tag.bits >> mask_bits) & 0x0F
            if slot == self._slot and self.rng.random() < p:
                answering.append((tag, b"\x00\x00" + bytes(reversed(tag.uid))))
        return self._reception(end, answering)

    def _reception(self, end: float, answering: list[tuple[VicinityTag, bytes]]) -> Reception | None:
        if not answering:
            self.next_tx_at = end + T3_SILENT_US
            return None
        sof = end + T1_US + VICC_SOF_US
        longest = max(len(body) for _, body in answering) + 2
        done = end + T1_US + answer_us(longest)
        self.next_tx_at = done + T2_US
        if len(answering) == 1:
            return Reception(sof, done, False, answering[0][1])
        if self.rng.random() < self.table.capture:
            return Reception(sof, done, False, self.rng.choice(answering)[1])
        return Reception(sof, done, True, b"")
