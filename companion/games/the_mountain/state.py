"""The state of a game of The Mountain: an immutable value, replaced (never changed) by each move."""

from __future__ import annotations

import dataclasses
import enum
import logging
from dataclasses import dataclass, field
from typing import Any, Literal

from companion.core.frozen import Replaceable, replaced
from .cards import POSITIONS, SLOTS, THREATS
from .geometry import Geometry, geometry
from .options import MountainOptions

logger = logging.getLogger(__name__)


class Phase(str, enum.Enum):
    """Where the turn stands (TM-ORDER)."""

    DISCARD = "discard"
    """Start of the turn: discard unwanted cards, then draw."""
    DRAW = "draw"
    """At least one card drawn: draw on to a full hand, then act."""
    ACTIONS = "actions"
    """A set was played (another of a different suit may follow) or the skip was made; then end the turn."""


@dataclass(frozen=True)
class MountainState(Replaceable):
    player: str
    options: MountainOptions
    mountain: tuple[str | None, ...]
    """The 21 pyramid slots, row by row from the peak: the card there, or None once removed."""
    health: tuple[str, ...]
    """The face-up health pile, top first."""
    stock: frozenset[str]
    """The face-down stockpile: the cards not yet seen (its order is unknown until a card is tapped)."""
    hand: tuple[str, ...]
    discard: tuple[str, ...]
    """The discard pile, oldest first."""
    turn: int = 1
    phase: Phase = field(default_factory=lambda: Phase.DISCARD)  # (not a class default: core.frozen says why)
    acted: tuple[str, ...] = ()
    """Suits of the sets played this turn."""
    skipped: bool = False
    threats_left: int = 12
    removed: int = 0
    """Cards taken off the mountain so far (threats and others)."""
    last_damage: int | None = None
    """Damage done by the last attack (None before the first)."""
    result: Literal["won", "lost"] | None = None
    pending: tuple[str, ...] = ()
    """An act the table has begun and not finished (``act_card``): the cards tapped on the discard
    reader so far, the set's cards first and then the mountain cards it removes, in order. The
    ``act`` that finishes it (or any act entered) clears it."""
    pending_since: float | None = None
    """The table time of the act's latest card (the referee's watch alerts on an act stalled too long)."""

    def evolve(self, **changes: Any) -> "MountainState":
        """A copy with ``changes``: ``dataclasses.replace`` without re-running ``__init__``.

        Replacing the state is the engine's hot path (DESIGN.md: 50,000 moves a second); a dict
        copy is several times faster than ``replace`` and the field names are checked here.
        """
        if not changes.keys() <= _FIELDS:  # (compared in place, no set built)
            unknown = changes.keys() - _FIELDS
            raise TypeError(f"MountainState has no field {sorted(unknown)[0]!r}")
        return replaced(self, changes)

    @property
    def geo(self) -> Geometry:
        return geometry(self.options.geometry, self.options.neighbours)

    @property
    def hand_limit(self) -> int:
        return self.options.hand_limit

    def where_is(self, card: str) -> str:
        """Where a card is, in words, for a message (``"in the health pile"``, ``"on the mountain at 3-2"``).

        Only places that lie face up are named: the stock and the discard pile read the same, so a
        message never tells what the face-down stock holds (issue 15).
        """
        if card in self.hand:
            return "in your hand"
        if card in self.health:
            return "in the health pile"
        for slot in range(SLOTS):
            if self.mountain[slot] == card:
                return f"on the mountain at {POSITIONS[slot]}"
        return "not face up on the table"


_FIELDS = frozenset(f.name for f in dataclasses.fields(MountainState))


def count_threats(mountain: tuple[str | None, ...]) -> int:
    return sum(1 for card in mountain if card is not None and card in THREATS)
