"""Scoring (HM2-SCORE-HAND, HM2-SCORE-CUBES, HM2-GAP-HAND) and the winner (HM2-WINNER, HM2-TIE)."""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import combinations

from companion.core import JsonObject, Outcome, Termination
from .cards import rank, suit
from .options import Options
from .state import ADVENTURER, EVIL, Phase, State

# The rulebook's table (HM2-SCORE-HAND), best first.
STRAIGHT_FLUSH = ("straight flush", 14)
FOUR = ("four of a kind", 10)
FULL_HOUSE = ("full house", 8)
STRAIGHT = ("straight", 6)
THREE = ("three of a kind", 5)
TWO_PAIR = ("two pair", 4)
PAIR = ("one pair", 2)
NOTHING = ("none of the above", -1)


@dataclass(frozen=True, order=True)
class HandValue:
    """A hand's points and, to break ties, its poker ranks (grouped: pairs before kickers)."""

    points: int
    ranks: tuple[int, ...]
    name: str


def _value(cards: tuple[str, ...], options: Options) -> HandValue:
    counts = Counter(rank(c) for c in cards)
    # Poker order within a kind: the biggest group first, higher rank first among equal groups.
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    ranks = tuple(r for r, _ in groups)
    shape = sorted(counts.values(), reverse=True) or [0]
    name, points = NOTHING
    if len(cards) < 5 and options.short_hand == "none":
        return HandValue(points, ranks, name)  # HM2-GAP-HAND, the "none" reading
    straight = len(cards) == 5 and len(counts) == 5 and max(counts) - min(counts) == 4
    if straight and len({suit(c) for c in cards}) == 1:
        name, points = STRAIGHT_FLUSH
    elif shape[0] == 4:
        name, points = FOUR
    elif shape[:2] == [3, 2]:
        name, points = FULL_HOUSE
    elif straight:
        name, points = STRAIGHT
    elif shape[0] == 3:
        name, points = THREE
    elif shape[:2] == [2, 2]:
        name, points = TWO_PAIR
    elif shape[0] == 2:
        name, points = PAIR
    return HandValue(points, ranks, name)


def best_hand(cards: Iterable[str], options: Options) -> HandValue:
    """The best poker hand of up to five of ``cards`` (HM2-GAP-HAND: best 5 or fewer)."""
    held = tuple(cards)
    if len(held) <= 5:
        return _value(held, options)
    return max(_value(five, options) for five in combinations(held, 5))


def cube_points(state: State, seat: int) -> int:
    """HM2-SCORE-CUBES: the rank under each Control Cube's twin (HM2-CUBE-SLOT keeps one on the table)."""
    total = 0
    for colour in state.control[seat]:
        slot = state.slot_of_cube(colour)
        if slot is not None:  # None only before the setup placement
            total += state.slot_rank(slot)
    return total


@dataclass(frozen=True)
class Score:
    hand: HandValue
    cubes: int
    cube_count: int

    @property
    def total(self) -> int:
        return self.hand.points + self.cubes

    def to_json(self) -> dict[str, object]:
        return {"total": self.total, "hand": self.hand.points, "hand_name": self.hand.name, "cubes": self.cubes}


def score(state: State, seat: int) -> Score:
    return Score(best_hand(state.hands[seat], state.options), cube_points(state, seat), len(state.control[seat]))


class Decided(str, enum.Enum):
    """What decided the winner (HM2-WINNER, then the HM2-TIE chain), as the outcome's ``reason`` says it."""

    POINTS = "most points"
    POKER_HAND = "tied on points; best poker hand"
    CUBES = "tied on points and poker hand; most Control Cubes"
    NOTHING = "tied on points, poker hand and Control Cubes: everybody loses"


@dataclass(frozen=True)
class Result:
    """The end of a Horrible Mountain 2 game: the winner (None: everybody loses) and what decided it."""

    winner: str | None
    decided: Decided

    def to_json(self) -> JsonObject:
        return {"winner": self.winner, "reason": self.decided.value}


def winner(state: State) -> tuple[int | None, Decided]:
    """The winning seat (None: everybody loses) and what decided it, by HM2-WINNER and the HM2-TIE chain."""
    evil, adventurer = score(state, EVIL), score(state, ADVENTURER)
    if evil.total != adventurer.total:
        best = EVIL if evil.total > adventurer.total else ADVENTURER
        return best, Decided.POINTS
    if state.options.hand_tiebreak == "poker":
        evil_hand: tuple[int, ...] = (evil.hand.points, *evil.hand.ranks)
        adventurer_hand: tuple[int, ...] = (adventurer.hand.points, *adventurer.hand.ranks)
    else:
        evil_hand, adventurer_hand = (evil.hand.points,), (adventurer.hand.points,)
    if evil_hand != adventurer_hand:
        best = EVIL if evil_hand > adventurer_hand else ADVENTURER
        return best, Decided.POKER_HAND
    if evil.cube_count != adventurer.cube_count:
        best = EVIL if evil.cube_count > adventurer.cube_count else ADVENTURER
        return best, Decided.CUBES
    return None, Decided.NOTHING


def outcome(state: State) -> Outcome | None:
    """HM2-GAME-END: once the game is over, the scores decide (HM2-WINNER, HM2-TIE)."""
    if state.phase is not Phase.OVER:
        return None
    seat, decided = winner(state)
    name = None if seat is None else state.names[seat]
    return Outcome(Termination.DRAW_PILE_SPENT, () if name is None else (name,), Result(name, decided))
