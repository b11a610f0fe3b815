"""Escape Master's state: frozen values, replaced (never changed) by each move.

``State`` holds what lasts the game (faults, XP, leaders, the round history); ``Mods`` what players
choose between rounds for the coming one (Beast Mode, Story cards, the Lumberjack's fault);
``RoundState`` what the table shows during a round (hands, piles, draw pile, traps). Players are
seat numbers in the header's order, which is clockwise round the table.
"""

from __future__ import annotations

import dataclasses
import enum
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple, TypeVar

from companion.core import Outcome
from .cards import Card
from .data import DeckData, LeaderData, StoryData
from .options import EscapeMasterOptions

logger = logging.getLogger(__name__)

WILD = 0
"""A pile top that is a Wisdom: any numbered card goes on it."""
NO_PILE = -1
"""The 'top' of a place where no open pile lies (only a start card or a Wisdom goes there)."""

T = TypeVar("T")


def put(values: tuple[T, ...], i: int, value: T) -> tuple[T, ...]:
    """``values`` with item ``i`` replaced."""
    return values[:i] + (value,) + values[i + 1 :]


def replace(obj: T, **changes: Any) -> T:
    """A copy of an immutable state value with some fields changed (NamedTuple or frozen dataclass).

    The values replaced on every move are NamedTuples: they are as immutable as frozen dataclasses
    and several times cheaper to build, which the 50,000 moves a second promise needs.
    """
    if isinstance(obj, tuple):
        # NamedTuple._replace, without its keyword-argument machinery (map over kwargs.pop in
        # Python): the values in a list, the changed ones set by index, one new tuple.
        cls = type(obj)
        index = _FIELD_INDEX.get(cls)
        if index is None:
            index = _FIELD_INDEX[cls] = {name: i for i, name in enumerate(cls._fields)}  # type: ignore[attr-defined]
        values = list(obj)
        for name, value in changes.items():
            i = index.get(name)
            if i is None:
                raise ValueError(f"Got unexpected field names: {[n for n in changes if n not in index]!r}")
            values[i] = value
        return tuple.__new__(cls, values)
    return dataclasses.replace(obj, **changes)  # type: ignore[type-var]


_FIELD_INDEX: dict[type, dict[str, int]] = {}
"""Each NamedTuple state value's field positions, for ``replace``."""


class Phase(str, enum.Enum):
    DEALING = "dealing"
    WAITING = "waiting_for_start"
    PLAYING = "playing"
    COUNTING = "counting"
    """The round is called ("Escape Master!"); the count (end_round) comes next."""
    ROUND_OVER = "round_over"
    GAME_OVER = "game_over"


@dataclass(frozen=True)
class Table:
    """What stays fixed for the whole game: players, options and the card data."""

    players: tuple[str, ...]
    seat: Mapping[str, int]
    options: EscapeMasterOptions
    deck: DeckData
    cards: Mapping[str, Card]
    leader_data: LeaderData
    stories: Mapping[int, StoryData]
    team: tuple[int, ...] | None
    """Team number of each seat (Escape Alliance), or None."""

    def mate(self, i: int) -> int | None:
        """The teammate of seat ``i``, if teams are played."""
        if self.team is None:
            return None
        for j, t in enumerate(self.team):
            if j != i and t == self.team[i]:
                return j
        return None


class LastPlay(NamedTuple):
    """The latest play on a pile: who, which cards, when, and the pile's top before it."""

    by: int
    cards: tuple[str, ...]
    t: float | None
    before: int
    """The top before this play (a value, WILD, or NO_PILE if the play started the pile)."""


class Pending(NamedTuple):
    """Half a combination lying on a pile, waiting for its second card."""

    by: int
    card: str
    t: float | None


class Pile(NamedTuple):
    number: int
    cards: tuple[str, ...]
    top: int
    """Value of the top card, or WILD."""
    open: bool
    last: LastPlay | None = None
    pending: Pending | None = None


class DrawCall(NamedTuple):
    """A "Draw!" call being drawn: who called, and who still draws (in order; the caller last)."""

    caller: int
    pending: tuple[int, ...]


class RoundState(NamedTuple):
    hands: tuple[frozenset[str], ...]
    piles: tuple[Pile, ...]
    draw_pile: frozenset[str]
    histories: tuple[tuple[str, ...], ...]
    actions: tuple[tuple[str, ...], ...]
    """Trap cards played onto each player's action pile."""
    lock: tuple[str | None, ...]
    """The active ascending/descending-only trap on each player, if any."""
    owed: tuple[int, ...]
    """Cards each player still has to draw for a Draw +3 trap."""
    draw_trap: tuple[str | None, ...]
    call: DrawCall | None
    outs: tuple[int, ...]
    """Players out of the round, in the order they called."""
    stop_t: float | None
    credits: tuple[int, ...]
    """Discards a player holds (a discard Escape played without naming its card, Story card 11)."""
    last_t: tuple[float | None, ...]
    """Time of each player's latest pile play."""

    @classmethod
    def fresh(cls, n: int, hands: tuple[frozenset[str], ...], draw_pile: frozenset[str]) -> "RoundState":
        none: tuple[Any, ...] = (None,) * n
        return cls(
            hands=hands,
            piles=(),
            draw_pile=draw_pile,
            histories=((),) * n,
            actions=((),) * n,
            lock=none,
            owed=(0,) * n,
            draw_trap=none,
            call=None,
            outs=(),
            stop_t=None,
            credits=(0,) * n,
            last_t=none,
        )

    def holder(self, card: str) -> int | None:
        """The seat whose registered hand holds ``card``."""
        for i, hand in enumerate(self.hands):
            if card in hand:
                return i
        return None

    def open_pile(self, number: int) -> int | None:
        """Index in ``piles`` of the open pile at place ``number``."""
        for k, pile in enumerate(self.piles):
            if pile.number == number and pile.open:
                return k
        return None

    def latest_pile(self, number: int) -> Pile | None:
        """The newest pile at place ``number``, open or closed."""
        for pile in reversed(self.piles):
            if pile.number == number:
                return pile
        return None

    def owes(self, i: int) -> int:
        """Trap draws seat ``i`` must still make (none once the draw pile is empty)."""
        return self.owed[i] if self.draw_pile else 0


@dataclass(frozen=True, slots=True)
class StoryUse:
    card: int
    targets: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Mods:
    """Choices for the coming (or current) round; reset at each round's end."""

    beast: tuple[bool, ...]
    beast_target: tuple[int | None, ...]
    story: tuple[StoryUse | None, ...]
    lost: tuple[bool, ...]
    """Leader ability lost this round (Story card 6)."""
    gave_fault: tuple[bool, ...]
    bonus_faults: tuple[int, ...]
    """Faults given this round by a leader ability."""
    extra: tuple[int, ...]
    """Hand-size changes from cards passed between players (Story card 5)."""
    leader_change: tuple[bool, ...]
    story_done: tuple[bool, ...]
    defused: tuple[bool, ...]

    @classmethod
    def fresh(cls, n: int, leader_change: tuple[bool, ...] | None = None) -> "Mods":
        no = (False,) * n
        none: tuple[Any, ...] = (None,) * n
        return cls(no, none, none, no, no, (0,) * n, (0,) * n, leader_change or no, no, no)


@dataclass(frozen=True, slots=True)
class RoundRecord:
    number: int
    dealer: int
    faults: tuple[tuple[int, int], ...]
    """(seat, faults) for every player of the round."""
    ended: str
    outs: tuple[int, ...]


class State(NamedTuple):
    table: Table
    phase: Phase
    round_no: int
    dealer: int
    players_in: tuple[int, ...]
    """Seats playing this round (everyone, or the players tied for the win in an extra round)."""
    faults: tuple[int, ...]
    round_faults: tuple[int, ...]
    rounds: tuple[RoundRecord, ...]
    xp: tuple[int, ...]
    leaders: tuple[str | None, ...]
    story_eligible: tuple[int, ...]
    story_why: str
    story_drawn: bool
    doom_pile: tuple[str, ...]
    tiebreak: bool
    result: Outcome | None
    mods: Mods
    rnd: RoundState

    def with_round(self, rnd: RoundState) -> "State":
        return tuple.__new__(State, self[:-1] + (rnd,))  # rnd is the last field

    def name(self, i: int) -> str:
        return self.table.players[i]

    def playing(self, i: int) -> bool:
        """Seat ``i`` plays this round and is not out of it."""
        return i in self.players_in and i not in self.rnd.outs
