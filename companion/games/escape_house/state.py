"""The Escape House game state: a frozen snapshot of the house, replaced (never changed) by each move."""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from companion.core.frozen import Replaceable, replaced
from .cards import CardSet
from .options import EscapeHouseOptions

MAIN_ROOM = "main"
"""The main (center) room: the main puzzles and the discard pile are here; it has no deck of its own."""
HAND_LIMIT = 5
CLOCKS_TO_LOSE = 3
SEEN_PER_DRAW = 3
"""Cards looked at for each card drawn from the discard pile."""


class Phase(str, enum.Enum):
    DEAL = "deal"
    """A live table's deal: each player taps the four cards dealt to them (``dealt``)."""
    EXPLORE = "explore"
    ACTION = "action"
    RESOLVE = "resolve"
    OVER = "over"


@dataclass(frozen=True)
class PlayedCard(Replaceable):
    """A card played face down in the action phase, with the character token under it."""

    by: str
    card: str
    target: str
    room: str
    revealed: bool = False

    def face_up(self) -> "PlayedCard":
        """The card revealed: ``replace(self, revealed=True)`` without the frozen ``__init__``'s cost
        per field (a resolve turns every card of the round face up)."""
        return replaced(self, {"revealed": True})


@dataclass(frozen=True)
class State(Replaceable):
    cards: CardSet
    options: EscapeHouseOptions
    players: tuple[str, ...]
    rooms: tuple[str, ...]
    """The side rooms, in the setup's order."""
    puzzles: Mapping[str, str]
    """Side room -> its side puzzle card."""
    main: tuple[str, ...]
    """Main puzzles not yet flipped away, the face-up one first."""
    decks: Mapping[str, tuple[str, ...]]
    """Side room -> its deck, top card first."""
    hands: Mapping[str, tuple[str, ...]]
    penalties: tuple[str, ...]
    """The penalty deck, top card first."""
    where: Mapping[str, str]
    """Living player -> the room their token is in."""
    alive: tuple[str, ...]
    discard: tuple[str, ...] = ()
    """The discard pile in the center room (face down: its order means nothing)."""
    cleared: frozenset[str] = frozenset()
    """Side rooms whose puzzle is cleared (their decks may be searched; their traps do not fire)."""
    drawn_penalties: tuple[str, ...] = ()
    clocks: int = 0
    sacrificed: tuple[str, ...] = ()
    round: int = 1
    phase: Phase = field(default_factory=lambda: Phase.EXPLORE)  # (not a class default: core.frozen says why)
    won: bool = False
    # -- this phase -----------------------------------------------------------------------------
    moved: frozenset[str] = frozenset()
    """Players who moved (or declared a follow) in this phase."""
    acted: frozenset[str] = frozenset()
    """Players who drew, traded or stashed in this explore phase (their move comes first)."""
    draws: Mapping[str, int] = field(default_factory=dict)
    trades: Mapping[str, int] = field(default_factory=dict)
    follows: Mapping[str, str] = field(default_factory=dict)
    """Follower -> the player followed; settled into ``where`` when the first card is played."""
    played: tuple[PlayedCard, ...] = ()
    # -- this round -----------------------------------------------------------------------------
    traded: frozenset[str] = frozenset()
    """Cards traded this round (a card is traded at most once a round)."""
    sacrificed_now: tuple[str, ...] = ()
    killers: frozenset[str] = frozenset()
    """Played cards whose sacrifice worked this round (they clear the main puzzle)."""
    cleared_now: tuple[str, ...] = ()
    main_cleared: bool = False
    no_penalty: bool = False
    closing: bool = False
    """The round's cards are discarded; the penalty cards it calls for are being drawn."""
    # -- effects still to follow ----------------------------------------------------------------
    no_move: frozenset[str] = frozenset()
    no_play: frozenset[str] = frozenset()
    owed_discards: Mapping[str, int] = field(default_factory=dict)
    draw_credit: Mapping[str, int] = field(default_factory=dict)
    credit_seen: Mapping[str, frozenset[str]] = field(default_factory=dict)
    penalties_due: int = 0
    # -- a live table: piles whose cards nobody has named yet ------------------------------------
    live: bool = False
    """Set up at a live table: the room decks, the face-down puzzles and the penalty deck's order are
    unknown until a card is named (drawn, flipped, cleared); ``decks`` holds only cards put back."""
    hidden_in: Mapping[str, int] = field(default_factory=dict)
    """Side room -> how many of its deck's cards nobody has named yet (a live table)."""
    main_hidden: int = 0
    """Main puzzles still face down under the current one, never yet flipped (a live table)."""
    unseen: frozenset[str] = frozenset()
    """Cards of the set nobody has named yet: in a room deck, a face-down puzzle or the box (a live table)."""

    def but(self, **changes: Any) -> "State":
        """A copy with ``changes``: ``dataclasses.replace`` without its per-field cost (a move makes
        one or two of these, and the engine must check and apply 50,000 moves a second)."""
        if not _FIELDS.issuperset(changes):
            raise TypeError(f"State has no field {sorted(changes.keys() - _FIELDS)[0]!r}")
        return replaced(self, changes)

    # -- questions the rules ask ------------------------------------------------------------------

    def is_room(self, room: str) -> bool:
        return room == MAIN_ROOM or room in self.rooms

    def deck_size(self, room: str) -> int:
        """Cards in a side room's deck: those put back, and those nobody has named yet."""
        return len(self.decks[room]) + self.hidden_in.get(room, 0)

    def order_known(self) -> bool:
        """Must a draw name the top card? Only where the setup listed the decks top first."""
        return self.options.deck_order_known and not self.live

    def needs_flip(self) -> bool:
        """A live table's main puzzle was cleared: the next one is still to be turned up and named."""
        return not self.main and self.main_hidden > 0 and self.phase is not Phase.OVER

    def in_room(self, room: str) -> tuple[str, ...]:
        return tuple(p for p in self.alive if self.where.get(p) == room)

    def owed(self, player: str) -> int:
        """Discards the player still owes (never more than the cards they hold)."""
        return min(self.owed_discards.get(player, 0), len(self.hands.get(player, ())))

    def current_main(self) -> str | None:
        return self.main[0] if self.main and not self.main_cleared else None

    def main_left(self) -> int:
        return len(self.main) + self.main_hidden - (1 if self.main_cleared else 0)

    def room_of_puzzle(self, puzzle: str) -> str | None:
        """The room of an open puzzle (the face-up main one, or an uncleared side room's), else None."""
        if puzzle == self.current_main():
            return MAIN_ROOM
        for room, card in self.puzzles.items():
            if card == puzzle and room not in self.cleared:
                return room
        return None

    def open_puzzles(self) -> tuple[tuple[str, str], ...]:
        """(puzzle, room) for every puzzle that can still be cleared, main first."""
        out: list[tuple[str, str]] = []
        main = self.current_main()
        if main is not None:
            out.append((main, MAIN_ROOM))
        out.extend((card, room) for room, card in self.puzzles.items() if room not in self.cleared)
        return tuple(out)

    def must_play(self) -> tuple[str, ...]:
        """Living players the reveal still waits for."""
        if not self.options.must_play:
            return ()
        done = {p.by for p in self.played}
        return tuple(p for p in self.alive if p not in done and p not in self.no_play and self.hands.get(p))

    def played_by(self, player: str) -> PlayedCard | None:
        for p in self.played:
            if p.by == player:
                return p
        return None


_FIELDS = frozenset(f.name for f in fields(State))


def bump(counts: Mapping[str, int], key: str, by: int = 1) -> dict[str, int]:
    """A copy of ``counts`` with ``key`` raised by ``by`` (dropped at zero)."""
    out = dict(counts)
    value = out.get(key, 0) + by
    if value > 0:
        out[key] = value
    else:
        out.pop(key, None)
    return out


def without(cards: tuple[str, ...], card: str) -> tuple[str, ...]:
    """``cards`` less one ``card``."""
    i = cards.index(card)
    return cards[:i] + cards[i + 1 :]


def names(players: Iterable[str]) -> str:
    """'anna', 'anna and bob', 'anna, bob and cleo'."""
    items = list(players)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]
