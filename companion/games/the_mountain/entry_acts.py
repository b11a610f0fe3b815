"""The sets worth offering by tapping: each suit's removals, walked in order on a scratch mountain.

Removal is sequential (TM-SEQUENTIAL): after each card goes, another may become exposed, so the
targets of an action are found by removing them one at a time, as :mod:`actions` checks them and as
:mod:`playout` plays them. Every legal set is among these (the builder judges each with the engine);
a few illegal ones (a short chain that the rules forbid, say) cost only the time to judge them.
Spades are offered without ``targets``: the engine finds them, and listing them is optional.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Sequence
from itertools import combinations, permutations

from .actions import Plan, plan_act
from .cards import POSITIONS, RANK_OF, RANKS, SLOTS, SUIT_OF, SUITS, THREATS
from .geometry import Geometry
from .moves import Act
from .state import MountainState

logger = logging.getLogger(__name__)

Path = tuple[int, ...]


class _Scratch:
    """A mountain to remove cards from and put them back, while walking every removal order."""

    def __init__(self, state: MountainState) -> None:
        self.cards: list[str | None] = list(state.mountain)
        self.geo: Geometry = state.geo
        self.threats = state.threats_left

    def exposed(self, keep: Callable[[int], bool] | None = None) -> list[int]:
        return [s for s in range(SLOTS) if self.geo.is_exposed(self.cards, s) and (keep is None or keep(s))]

    def take(self, slot: int) -> str:
        card = self.cards[slot]
        if card is None:
            raise ValueError(f"{POSITIONS[slot]} is already empty")
        self.cards[slot] = None
        self.threats -= card in THREATS
        return card

    def put_back(self, slot: int, card: str) -> None:
        self.cards[slot] = card
        self.threats += card in THREATS


def set_candidates(state: MountainState, by: str) -> Iterator[Act]:
    """Every set of 2 or 3 same-suit hand cards that may still act this turn, with its removals."""
    for suit in SUITS:
        if suit in state.acted:
            continue
        held = [c for c in state.hand if SUIT_OF[c] == suit]
        for size in (2, 3):
            sets = list(combinations(held, size))
            if not sets:
                continue
            times = size - 1
            if suit == "S":
                for cards in sets:
                    for choose in _spade_choices(state, cards):
                        yield Act(by=by, cards=cards, choose=choose)
                continue
            paths = list(_clubs(state, times) if suit == "C" else _pairs(state, 2 * times, heal=suit == "H"))
            for cards in sets:
                for path in paths:
                    targets = tuple(POSITIONS[s] for s in path)
                    short = 2 * times - len(path)
                    if suit == "H" and short > 0:
                        for healing in permutations(cards, min(short, len(cards))):
                            yield Act(by=by, cards=cards, targets=targets, from_hand=healing)
                    else:
                        yield Act(by=by, cards=cards, targets=targets)


def _pairs(state: MountainState, need: int, heal: bool) -> Iterator[Path]:
    """Diamonds (any exposed card) and Hearts (exposed non-threats): ``need`` removals, fewer only
    when nothing removable is left (TM-DIAMONDS, TM-HEARTS)."""
    board = _Scratch(state)

    def keep(slot: int) -> bool:
        return not heal or board.cards[slot] not in THREATS

    def walk(path: Path) -> Iterator[Path]:
        options = board.exposed(keep) if len(path) < need and board.threats > 0 else []
        if not options:
            yield path
            return
        for slot in options:
            card = board.take(slot)
            yield from walk(path + (slot,))
            board.put_back(slot, card)

    return walk(())


def _clubs(state: MountainState, times: int) -> Iterator[Path]:
    """Chains of 3 neighbours, each exposed when removed; a chain ends short only when it cannot go on (TM-CLUBS)."""
    board = _Scratch(state)
    geo = board.geo
    link_any = state.options.chain_link == "any_earlier"

    def linked(slot: int, chain: Sequence[int]) -> bool:
        if link_any:
            return any(slot in geo.neighbours[c] for c in chain)
        return slot in geo.neighbours[chain[-1]]

    def walk(path: Path, chain: Path, chains: int) -> Iterator[Path]:
        if chains == times or board.threats == 0:
            yield path
            return
        if chain:
            options = board.exposed(lambda s: linked(s, chain))
            if not options:
                yield from walk(path, (), chains + 1)
                return
        else:
            options = board.exposed()
            if not options:
                yield path
                return
        for slot in options:
            card = board.take(slot)
            grown = chain + (slot,)
            if len(grown) == 3:
                yield from walk(path + (slot,), (), chains + 1)
            else:
                yield from walk(path + (slot,), grown, chains)
            board.put_back(slot, card)

    return walk((), (), 0)


def face_choices(cards: Sequence[str | None]) -> list[str]:
    """``rank:R`` and ``suit:S`` for every rank and suit among ``cards``, in the deck's order."""
    present = [c for c in cards if c is not None]
    ranks = {RANK_OF[c] for c in present}
    suits = {SUIT_OF[c] for c in present}
    return [f"rank:{r}" for r in RANKS if r in ranks] + [f"suit:{s}" for s in SUITS if s in suits]


def _spade_choices(state: MountainState, cards: tuple[str, ...]) -> Iterator[str | tuple[str, ...]]:
    """A pair chooses one rank or suit an exposed card shows; a triple a second one, shown once the
    first has cleared (TM-SPADES)."""
    geo = state.geo
    first = face_choices([state.mountain[s] for s in geo.exposed(state.mountain)])
    if len(cards) == 2:
        yield from first
        return
    for one in first:
        plan = plan_act(state, Act(by=state.player, cards=cards[:2], choose=one), "S")
        if not isinstance(plan, Plan):
            continue
        after = list(state.mountain)
        for slot in plan.slots:
            after[slot] = None
        seconds = face_choices([after[s] for s in geo.exposed(after)])
        for two in seconds or [one]:
            yield (one, two)
