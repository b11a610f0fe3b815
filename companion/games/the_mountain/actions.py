"""The suit actions and the skip: which mountain cards a set removes, in order (TM-CLUBS .. TM-HEARTS).

Each ``plan_*`` walks the targets one by one on a scratch copy of the mountain, as the rulebook
says ("each one is removed sequentially, and newly exposed cards become available", TM-SEQUENTIAL),
and returns either the :class:`Plan` the engine applies or the illegal :class:`Verdict`.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

from companion.core import Verdict
from . import rules as R
from .cards import POSITIONS, RANK_OF, SLOT_OF, SLOTS, SUIT_OF, THREATS
from .moves import Act, Skip, parse_choice
from .state import MountainState

logger = logging.getLogger(__name__)

PUT_BACK = "put the mountain cards back where they were and take the set back into your hand"


@dataclass(frozen=True)
class Plan:
    """What a legal action does: the slots emptied, in order, and the cards that go to the health pile."""

    slots: tuple[int, ...]
    to_health: tuple[str, ...] = ()
    """Cards added to the bottom of the health pile, in order (Hearts)."""
    from_hand: tuple[str, ...] = ()
    """Action cards that heal instead of going to the discard pile (Hearts)."""


class _Board:
    """A scratch mountain for walking a removal card by card."""

    def __init__(self, state: MountainState) -> None:
        self.cards: list[str | None] = list(state.mountain)
        self.geo = state.geo
        self.threats = state.threats_left
        self.order: list[int] = []
        self.taken: list[str] = []

    @property
    def won(self) -> bool:
        return self.threats == 0

    def exposed(self) -> list[int]:
        """Geometry.exposed, inline: every target of every action asks it again."""
        cards = self.cards
        out = []
        for slot, over in enumerate(self.geo.covered_by):
            if cards[slot] is not None:
                for c in over:
                    if cards[c] is not None:
                        break
                else:
                    out.append(slot)
        return out

    def remove(self, slot: int) -> None:
        card = self.cards[slot]
        if card is None:
            raise ValueError(f"{POSITIONS[slot]} is already empty")
        if card in THREATS:
            self.threats -= 1
        self.taken.append(card)
        self.cards[slot] = None
        self.order.append(slot)

    def name(self, slot: int) -> str:
        card = self.cards[slot]
        return f"{card} at {POSITIONS[slot]}" if card is not None else POSITIONS[slot]

    def names(self, slots: Sequence[int]) -> str:
        return ", ".join(self.name(s) for s in slots)

    def problem(self, slot: int, later: Sequence[int]) -> Verdict | None:
        """Why this target cannot be removed now (TM-EXPOSED, TM-SEQUENTIAL), or None."""
        pos = POSITIONS[slot]
        if self.cards[slot] is None:
            gone = "is named twice; its card is already gone" if slot in self.order else "is empty"
            return Verdict.illegal(R.EXPOSED, f"{pos} {gone}", "name only positions that still hold a card; " + PUT_BACK)
        covers = self.geo.covering(self.cards, slot)
        if not covers:
            return None
        by = self.names(covers)
        if all(c in later for c in covers):
            return Verdict.illegal(
                R.SEQUENTIAL,
                f"the {self.name(slot)} is still covered by the {by} when its turn comes; remove that first",
                f"list {', '.join(POSITIONS[c] for c in covers)} before {pos}; " + PUT_BACK,
            )
        how = "half exposed" if len(covers) == 1 else "covered"
        return Verdict.illegal(
            R.EXPOSED,
            f"the {self.name(slot)} is {how} (by the {by}); only exposed cards can be removed",
            f"put the {self.cards[slot]} back at {pos}; " + PUT_BACK,
        )


def _count_word(n: int) -> str:
    return "pair" if n == 1 else "triple"


def plan_skip(state: MountainState, move: Skip) -> Verdict | Plan:
    """Single Removal: any one exposed card (TM-SKIP, TM-EXPOSED)."""
    board = _Board(state)
    slot = SLOT_OF[move.target]
    problem = board.problem(slot, ())
    if problem is not None:
        return problem
    board.remove(slot)
    return Plan(tuple(board.order))


def plan_act(state: MountainState, move: Act, suit: str) -> Verdict | Plan:
    """The plan for a set of ``suit`` (2 cards act once, 3 act twice), or why it is illegal."""
    times = len(move.cards) - 1
    if suit == "C":
        return _clubs(state, move, times)
    if suit == "S":
        return _spades(state, move, times)
    if suit == "D":
        return _diamonds(state, move, times)
    return _hearts(state, move, times)


def _no_extras(move: Act, rule: str, suit_name: str, allow_choose: bool = False, allow_hand: bool = False) -> Verdict | None:
    if move.choose is not None and not allow_choose:
        return Verdict.illegal(rule, f"a {suit_name} action takes no choose (only spades choose a suit or rank)", PUT_BACK)
    if move.from_hand is not None and not allow_hand:
        return Verdict.illegal(rule, f"a {suit_name} action takes no from_hand (only hearts heal from the hand)", PUT_BACK)
    return None


def _clubs(state: MountainState, move: Act, times: int) -> Verdict | Plan:
    """Chain Removal: chains of 3 neighbours, each exposed when removed (TM-CLUBS, GAPS.md)."""
    extra = _no_extras(move, R.CLUBS, "clubs")
    if extra is not None:
        return extra
    board = _Board(state)
    geo = board.geo
    link_any = state.options.chain_link == "any_earlier"

    def linked(slot: int, chain: list[int]) -> bool:
        if link_any:
            return any(slot in geo.neighbours[c] for c in chain)
        return slot in geo.neighbours[chain[-1]]

    def onward(chain: list[int]) -> list[int]:
        return [s for s in board.exposed() if linked(s, chain)]

    slots = [SLOT_OF[t] for t in move.targets]
    chains = 0
    chain: list[int] = []
    for k, slot in enumerate(slots):
        if chain and not linked(slot, chain):
            nexts = onward(chain)
            if nexts and not board.won:
                return Verdict.illegal(
                    R.CLUBS,
                    f"{POSITIONS[slot]} does not neighbour {POSITIONS[chain[-1]]}, and the chain can go on to the "
                    f"{board.names(nexts)}",
                    PUT_BACK,
                )
            if not state.options.short_actions and not board.won:
                return Verdict.illegal(R.CLUBS, f"the chain ends after {len(chain)} cards; a chain removes 3 neighbours", PUT_BACK)
            chains, chain = chains + 1, []
        if chains == times:
            return Verdict.illegal(
                R.CLUBS, f"a {_count_word(times)} of clubs removes {3 * times} cards at most; {POSITIONS[slot]} is one too many", PUT_BACK
            )
        problem = board.problem(slot, slots[k + 1 :])
        if problem is not None:
            return problem
        board.remove(slot)
        chain.append(slot)
        if len(chain) == 3:
            chains, chain = chains + 1, []
    if chain:
        nexts = onward(chain)
        if nexts and not board.won:
            return Verdict.illegal(
                R.CLUBS,
                f"the chain stops after {len(chain)} cards, but the {board.names(nexts)} is exposed next to it; a chain removes 3",
                PUT_BACK,
            )
        if not state.options.short_actions and not board.won:
            return Verdict.illegal(R.CLUBS, f"the chain ends after {len(chain)} cards; a chain removes 3 neighbours", PUT_BACK)
        chains += 1
    if chains < times and not board.won:
        return Verdict.illegal(
            R.CLUBS,
            f"a {_count_word(times)} of clubs removes {times} chain{'s' if times > 1 else ''} of 3 neighbouring exposed "
            f"cards; {len(slots)} named",
            PUT_BACK,
        )
    return Plan(tuple(board.order))


def _diamonds(state: MountainState, move: Act, times: int) -> Verdict | Plan:
    """Dual Removal: any 2 exposed cards per action (TM-DIAMONDS)."""
    extra = _no_extras(move, R.DIAMONDS, "diamonds")
    if extra is not None:
        return extra
    need = 2 * times
    slots = [SLOT_OF[t] for t in move.targets]
    if len(slots) > need:
        return Verdict.illegal(R.DIAMONDS, f"a {_count_word(times)} of diamonds removes {need} cards, not {len(slots)}", PUT_BACK)
    board = _Board(state)
    for k, slot in enumerate(slots):
        problem = board.problem(slot, slots[k + 1 :])
        if problem is not None:
            return problem
        board.remove(slot)
    if len(slots) < need and not board.won and board.exposed():
        return Verdict.illegal(
            R.DIAMONDS,
            f"a {_count_word(times)} of diamonds removes {need} exposed cards; {len(slots)} named",
            PUT_BACK,
        )
    return Plan(tuple(board.order))


def _hearts(state: MountainState, move: Act, times: int) -> Verdict | Plan:
    """Heal: 2 exposed non-threats per action to the health bottom, else the action cards (TM-HEARTS)."""
    extra = _no_extras(move, R.HEARTS, "hearts", allow_hand=True)
    if extra is not None:
        return extra
    need = 2 * times
    slots = [SLOT_OF[t] for t in move.targets]
    if len(slots) > need:
        return Verdict.illegal(R.HEARTS, f"a {_count_word(times)} of hearts heals {need}, not {len(slots)}", PUT_BACK)
    board = _Board(state)
    for k, slot in enumerate(slots):
        problem = board.problem(slot, slots[k + 1 :])
        if problem is not None:
            return problem
        card = board.cards[slot]
        if card in THREATS:
            return Verdict.illegal(R.HEARTS, f"the {board.name(slot)} is a threat; hearts heal only with non-threat cards", PUT_BACK)
        board.remove(slot)
    healed = tuple(board.taken)
    from_hand = move.from_hand or ()
    short = need - len(slots)
    if short == 0:
        if from_hand:
            return Verdict.illegal(R.HEARTS, "the mountain gave every heal; from_hand is only for too few options", PUT_BACK)
        return Plan(tuple(board.order), healed)
    options = [s for s in board.exposed() if board.cards[s] not in THREATS]
    if options:
        return Verdict.illegal(
            R.HEARTS,
            f"the {board.names(options)} is exposed and no threat; heal with the mountain before the action cards",
            PUT_BACK,
        )
    stray = [c for c in from_hand if c not in move.cards]
    if stray:
        return Verdict.illegal(R.HEARTS, f"{stray[0]} is not one of the set's cards; only the action cards heal", PUT_BACK)
    want = min(short, len(move.cards))
    if len(from_hand) != want:
        return Verdict.illegal(
            R.HEARTS,
            f"the mountain gave {len(slots)} of {need} heals, so {want} of the action cards heal (from_hand), "
            f"not {len(from_hand)}",
            f"put {want} of the {', '.join(move.cards)} on the bottom of the health pile",
        )
    return Plan(tuple(board.order), healed + from_hand, from_hand)


def _spades(state: MountainState, move: Act, times: int) -> Verdict | Plan:
    """Same Suit/Rank Removal, continually until no exposed card matches (TM-SPADES)."""
    extra = _no_extras(move, R.SPADES, "spades", allow_choose=True)
    if extra is not None:
        return extra
    choices = move.choices
    if len(choices) != times:
        want = 'one suit or rank (choose: "rank:7" or "suit:H")' if times == 1 else 'two (choose: ["rank:7", "suit:H"])'
        return Verdict.illegal(R.SPADES, f"a {_count_word(times)} of spades chooses {want}, not {len(choices)}", PUT_BACK)
    parsed = [parse_choice(c) for c in choices]
    board = _Board(state)
    cascade = state.options.spades_cascade

    def matches(slot: int, ci: int, allowed: frozenset[int] | None) -> bool:
        card = board.cards[slot]
        if card is None or (allowed is not None and slot not in allowed):
            return False
        kind, value = parsed[ci]
        return (RANK_OF[card] if kind == "rank" else SUIT_OF[card]) == value

    def open_matches(ci: int, allowed: frozenset[int] | None) -> list[int]:
        return [s for s in board.exposed() if matches(s, ci, allowed)]

    def begin(ci: int) -> tuple[frozenset[int] | None, Verdict | None]:
        # Without the cascade only the matches exposed at the moment of choosing go.
        first = open_matches(ci, None)
        allowed = None if cascade else frozenset(first)
        if not first and not board.won:
            return allowed, Verdict.illegal(
                R.SPADES, f"no exposed card matches {choices[ci]}; choose a suit or rank the mountain shows", PUT_BACK
            )
        return allowed, None

    slots = [SLOT_OF[t] for t in move.targets]
    ci = 0
    allowed, refusal = begin(0)
    if refusal is not None:
        return refusal
    if not slots:
        for ci in range(times):
            if ci:
                allowed, refusal = begin(ci)
                if refusal is not None:
                    return refusal
            while True:
                found = open_matches(ci, allowed)
                if not found:
                    break
                for slot in found:
                    board.remove(slot)
        return Plan(tuple(board.order))
    for k, slot in enumerate(slots):
        problem = board.problem(slot, slots[k + 1 :])
        if problem is not None:
            return problem
        while not matches(slot, ci, allowed):
            left = open_matches(ci, allowed)
            if left and not board.won:
                return Verdict.illegal(
                    R.SPADES,
                    f"the {board.name(slot)} does not match {choices[ci]}, and the {board.names(left)} still does; "
                    "clear every exposed match first",
                    PUT_BACK,
                )
            ci += 1
            if ci == times:
                return Verdict.illegal(R.SPADES, f"the {board.name(slot)} matches no chosen suit or rank ({', '.join(choices)})", PUT_BACK)
            allowed, refusal = begin(ci)
            if refusal is not None:
                return refusal
        board.remove(slot)
    left = open_matches(ci, allowed)
    if left and not board.won:
        return Verdict.illegal(R.SPADES, f"the targets stop short: the {board.names(left)} still matches {choices[ci]}", PUT_BACK)
    if ci < times - 1 and not board.won:
        return Verdict.illegal(R.SPADES, f"no targets are listed for {choices[ci + 1]}; list them or list none", PUT_BACK)
    return Plan(tuple(board.order))
