"""Pyramid geometry: which slots cover which, who neighbours whom, what is exposed (GAPS.md).

The tables are computed once per geometry setting; every query is a few tuple look-ups so that
check and apply stay fast. A mountain is a tuple of 21 entries, the card in that slot or None.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from .cards import ROW_COL, ROWS, SLOTS, THREATS, slot_at

logger = logging.getLogger(__name__)

Mountain = Sequence[str | None]


@dataclass(frozen=True)
class Geometry:
    """Covering and neighbour tables for one layout (TM-LAYOUT, TM-CLUBS)."""

    covered_by: tuple[tuple[int, ...], ...]
    """For each slot, the slots whose cards lie on top of it."""
    neighbours: tuple[frozenset[int], ...]
    """For each slot, its neighbours for Clubs chain removal."""

    def cover_count(self, mountain: Mountain, slot: int) -> int:
        """How many cards still lie on this slot's card."""
        return sum(1 for c in self.covered_by[slot] if mountain[c] is not None)

    def is_exposed(self, mountain: Mountain, slot: int) -> bool:
        """A card is there and nothing covers it (TM-EXPOSED)."""
        if mountain[slot] is None:
            return False
        for c in self.covered_by[slot]:
            if mountain[c] is not None:
                return False
        return True

    def exposed(self, mountain: Mountain) -> list[int]:
        return [s for s in range(SLOTS) if self.is_exposed(mountain, s)]

    def covering(self, mountain: Mountain, slot: int) -> list[int]:
        """The slots whose cards still cover this one."""
        return [c for c in self.covered_by[slot] if mountain[c] is not None]

    def attackers(self, mountain: Mountain) -> list[int]:
        """Threats that are exposed or half exposed: each does 1 damage (TM-ATTACK)."""
        out = []
        covered_by = self.covered_by
        for slot, card in enumerate(mountain):  # (after every turn: the cover count inline)
            if card is not None and card in THREATS:
                over = 0
                for c in covered_by[slot]:
                    if mountain[c] is not None:
                        over += 1
                if over <= 1:
                    out.append(slot)
        return out

    def state_of(self, mountain: Mountain, slot: int) -> str:
        """``"empty"``, ``"exposed"``, ``"half_exposed"`` or ``"covered"`` (scoreboard)."""
        if mountain[slot] is None:
            return "empty"
        n = self.cover_count(mountain, slot)
        return "exposed" if n == 0 else "half_exposed" if n == 1 else "covered"


def _covered_by(layout: str) -> tuple[tuple[int, ...], ...]:
    out: list[tuple[int, ...]] = []
    for r, i in ROW_COL:
        cover: tuple[int, ...]
        if layout == "pyramid":
            # Row 6 is dealt last and lies on top: (r, i) lies under (r+1, i) and (r+1, i+1).
            cover = () if r == ROWS else (slot_at(r + 1, i), slot_at(r + 1, i + 1))
        else:
            # The peak lies on top: (r, i) lies under (r-1, i-1) and (r-1, i), where those exist.
            cover = tuple(slot_at(r - 1, j) for j in (i - 1, i) if r > 1 and 1 <= j <= r - 1)
        out.append(cover)
    return tuple(out)


@cache
def geometry(layout: str, neighbours: str) -> Geometry:
    """The tables for a ``geometry`` and a ``neighbours`` option value."""
    if layout not in ("pyramid", "peak_on_top"):
        raise ValueError(f"unknown pyramid geometry {layout!r}")
    covered_by = _covered_by(layout)
    near: list[set[int]] = [set() for _ in range(SLOTS)]
    for slot, (r, i) in enumerate(ROW_COL):
        if i < r:  # side by side in one row
            near[slot].add(slot + 1)
            near[slot + 1].add(slot)
        if neighbours == "row_or_cover":
            for c in covered_by[slot]:
                near[slot].add(c)
                near[c].add(slot)
    return Geometry(covered_by, tuple(frozenset(n) for n in near))
