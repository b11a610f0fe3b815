"""The state of a Horrible Mountain 2 table: immutable, indexed by seat (0 Evil Master, 1 adventurer).

The engine is the referee: it knows every card (hands come from the setup and every draw names its
card). What no one at the table knows, it does not claim either: the Draw Pile is a *set* (its order
is unknown), and the part of the Discard Pile the adventurer reordered without saying how is a set
below the known top cards.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, fields
from typing import Any

from companion.core.frozen import Replaceable, replaced

from .cards import rank
from .options import Options

EVIL = 0
ADVENTURER = 1


class Phase(str, enum.Enum):
    DEAL = "deal"
    """A live table's deal: each player taps the three cards dealt to them (``dealt``)."""
    PLACE = "place"
    """Setup steps 5-6: the adventurer, then the Evil Master, puts two cubes on Table Cards."""
    PLAY = "play"
    OVER = "over"


@dataclass(frozen=True)
class State(Replaceable):
    names: tuple[str, str]
    """(Evil Master, adventurer)."""
    players: tuple[str, ...]
    """The header's order, for the scoreboard."""
    options: Options
    colours: tuple[tuple[str, str], tuple[str, str]]
    """Each seat's two colours, in the header's order (``place`` puts them on its slots in this order)."""
    table: tuple[str, ...]
    """The Table Card on each slot 1-5 (index 0-4)."""
    slot_cubes: tuple[str | None, ...]
    """The colour of the cube on each slot (None before the setup placement)."""
    control: tuple[frozenset[str], frozenset[str]]
    """Each seat's Control Cubes (colours; at most one cube of a colour is off the table)."""
    cube_pile: frozenset[str]
    hands: tuple[frozenset[str], frozenset[str]]
    draw_pile: frozenset[str]
    """Face down: which cards, not in what order."""
    discard: tuple[str, ...]
    """The Discard Pile cards whose order is known, bottom first; the last is the top card."""
    discard_unordered: frozenset[str]
    """Discard Pile cards below ``discard`` whose order the engine does not know."""
    exhausted: int
    """How many times the Draw Pile has run out."""
    phase: Phase
    turn: int
    """The seat to act (placing at setup, or taking the turn)."""
    must_discard: bool
    """The seat to act took a sixth card into hand and must discard now."""
    used_once: frozenset[int]
    """Seats that have used their once-per-game action (Optional Variant)."""
    examined: tuple[str, ...] | None
    """The adventurer's hand as the Evil Master saw it when he examined it."""
    turns: int
    """Turns completed since play began."""
    searched: str | None = None
    """The card the adventurer took by a secret ``search_discard``, while it stays in their hand: to
    the Evil Master it may still be anywhere in the Discard Pile (what his page offers says no more)."""
    laid: tuple[str, ...] = ()
    """A table's Swap Cubes or Claim a Cube under way (issue 21): the cards the player to act has put
    face up on the Discard Pile so far (``half``), out of the hand, first first. The move that finishes
    it names them first; nothing else may be done until it is finished or they are taken back."""
    laid_t: float | None = None
    """When the first of ``laid`` was put down (table time; None when the move carried no time)."""
    lifted: str | None = None
    """A table's Take a Discard under way (``lift``): the top discard the player to act has tapped
    into the hand before the camera saw which of several Control Cubes was paid. It stays on the
    Discard Pile here until ``take_discard`` finishes it; nothing else may be done meanwhile."""
    lifted_t: float | None = None
    """When ``lifted`` was tapped (table time; None when the move carried no time)."""

    # -- small questions ------------------------------------------------------------------------

    def seat(self, player: str | None) -> int | None:
        if player == self.names[EVIL]:
            return EVIL
        if player == self.names[ADVENTURER]:
            return ADVENTURER
        return None

    @property
    def current(self) -> str:
        return self.names[self.turn]

    @property
    def discard_top(self) -> str | None:
        """The visible top card, or None if the pile is empty or its order is unknown."""
        return self.discard[-1] if self.discard else None

    @property
    def discard_size(self) -> int:
        return len(self.discard) + len(self.discard_unordered)

    def discard_cards(self) -> frozenset[str]:
        return self.discard_unordered.union(self.discard)

    def discard_as_seen(self, seat: int | None) -> frozenset[str]:
        """The Discard Pile as ``seat`` knows it (None: the referee): after the adventurer's secret
        search the Evil Master cannot tell which card left it."""
        if seat == EVIL and self.searched is not None:
            return self.discard_cards() | {self.searched}
        return self.discard_cards()

    def slot_of_cube(self, colour: str) -> int | None:
        """The slot (1-5) whose cube has this colour."""
        for index, cube in enumerate(self.slot_cubes):
            if cube == colour:
                return index + 1
        return None

    def slot_rank(self, slot: int) -> int:
        return rank(self.table[slot - 1])

    def slot_of_card(self, card: str) -> int | None:
        try:
            return self.table.index(card) + 1
        except ValueError:
            return None


_FIELDS = frozenset(f.name for f in fields(State))


def evolve(state: State, **changes: Any) -> State:
    """``dataclasses.replace`` without its per-call overhead (it dominated apply's time):
    core.frozen.replaced, once the field names are checked."""
    if not changes.keys() <= _FIELDS:
        raise TypeError(f"State has no field {sorted(changes.keys() - _FIELDS)[0]!r}")
    return replaced(state, changes)


def unlaid(state: State) -> State:
    """The state as it was before the cards of a Swap Cubes or Claim a Cube under way were put down:
    back in the hand of the player to act (the finishing move is judged and made from there)."""
    if not state.laid:
        return state
    hands = list(state.hands)
    hands[state.turn] = hands[state.turn] | frozenset(state.laid)
    return evolve(state, hands=(hands[0], hands[1]), laid=(), laid_t=None)


def public_place(state: State, card: str) -> str:
    """Where a card is, in words anyone at the table may hear (never whose hand holds it)."""
    slot = state.slot_of_card(card)
    if slot is not None:
        return f"{card} is on slot {slot}"
    if card == state.discard_top or card in state.laid:
        return f"{card} is the top card of the Discard Pile"
    if card in state.discard_cards():
        return f"{card} is in the Discard Pile"
    if card in state.draw_pile:
        return f"{card} is in the Draw Pile"
    return f"{card} is already in a hand"
