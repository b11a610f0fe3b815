"""An act made card by card at the table (issue 21): each card tapped on the discard reader is a step.

A set's action reaches the discard reader one card at a time: first the set's cards from the hand,
then each mountain card it removes, in removal order (DESIGN.md: "a removed card is tapped on its way
out"). Until its last card has come the act is *pending* (``MountainState.pending``, made by
``act_card`` moves); the tap that finishes it is the ``act`` itself, with its cards, targets and, for
Spades, the choice the removed cards show. A card no legal act could go on with is refused at once,
naming the rule (an act begun before the hand is full, a card of another suit, a card the action
cannot remove next).

An act is finished when the act its cards make so far is legal: an action may stop short only when
nothing more could be removed for it (``short_actions``), so a legal act has no next card.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence

from companion.core import Verdict
from . import rules as R
from .actions import Plan, plan_act
from .cards import POSITIONS, RANK_OF, RANKS, SLOT_OF, SLOTS, SUIT_NAMES, SUIT_OF, SUITS
from .entry_acts import set_candidates
from .moves import Act, ActCard, TakeBack
from .state import MountainState, Phase

logger = logging.getLogger(__name__)

SUIT_RULE = {"C": R.CLUBS, "D": R.DIAMONDS, "H": R.HEARTS, "S": R.SPADES}
SINGLE_CHOICES: tuple[str, ...] = tuple(f"rank:{r}" for r in RANKS) + tuple(f"suit:{s}" for s in SUITS)
"""Every word a spade set may choose (TM-SPADES), for a second action that removed nothing."""


def ready_to_act(state: MountainState) -> Verdict | None:
    """Before the first action of a turn the hand is full, unless the stock is empty (TM-DRAW-FIRST)."""
    if state.phase is not Phase.ACTIONS and len(state.hand) < state.hand_limit and state.stock:
        short = state.hand_limit - len(state.hand)
        return Verdict.illegal(
            R.DRAW_FIRST,
            f"draw to {state.hand_limit} cards before acting: {short} more (the stock still has cards)",
            "put the cards back and draw first",
        )
    return None


def slot_of(state: MountainState, card: str) -> int | None:
    for slot in range(SLOTS):
        if state.mountain[slot] == card:
            return slot
    return None


def split(state: MountainState, cards: Sequence[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The set's cards (from the hand) and the positions of the mountain cards, in tap order."""
    hand = tuple(c for c in cards if c in state.hand)
    targets = []
    for card in cards:
        slot = slot_of(state, card)
        if slot is not None:
            targets.append(POSITIONS[slot])
    return hand, tuple(targets)


def removals(state: MountainState, set_cards: tuple[str, ...]) -> Iterator[tuple[str, ...]]:
    """The removal orders (positions) of every legal act of exactly this set."""
    want = sorted(set_cards)
    scratch = state.evolve(hand=set_cards)  # only the set's own sets are walked
    for act in set_candidates(scratch, state.player):
        if sorted(act.cards) != want:
            continue
        if act.targets or SUIT_OF[set_cards[0]] != "S":
            yield act.targets
            continue
        plan = plan_act(state, act, "S")
        if isinstance(plan, Plan):
            yield tuple(POSITIONS[s] for s in plan.slots)


def check_step(state: MountainState, move: ActCard) -> Verdict:
    """Can an act go on with ``move.card`` after the cards already pending?"""
    card = move.card
    if state.skipped:
        return Verdict.illegal(R.SKIP, "you made the skip this turn; it replaces the actions, so end the turn", f"put the {card} back")
    if card in state.pending:
        return Verdict.illegal(R.HAND, f"the {card} is already part of the act being made", "tap the act's next card")
    set_cards, targets = split(state, state.pending)
    if card in state.hand:
        return _set_card(state, card, set_cards, targets)
    slot = slot_of(state, card)
    if slot is None:
        return Verdict.illegal(R.HAND, f"the {card} is {state.where_is(card)}: an act spends cards from your hand and removes mountain cards", f"put the {card} back")
    pos = POSITIONS[slot]
    fix = f"put the {card} back at {pos}"
    if len(set_cards) < 2:
        return Verdict.illegal(R.SET, "an act starts with its set: 2 or 3 cards of one suit from your hand, before the cards it removes", fix)
    suit = SUIT_OF[set_cards[0]]
    prefix = targets + (pos,)
    if not any(order[: len(prefix)] == prefix for order in removals(state, set_cards)):
        return Verdict.illegal(
            (SUIT_RULE[suit], R.SEQUENTIAL),
            f"no {SUIT_NAMES[suit]} action of the {', '.join(set_cards)} removes the {card} at {pos} next",
            fix,
        )
    return Verdict.legal()


def _set_card(state: MountainState, card: str, set_cards: tuple[str, ...], targets: tuple[str, ...]) -> Verdict:
    fix = f"take the {card} back into your hand"
    if targets:
        return Verdict.illegal(R.SET, "the set's cards come before the cards it removes", fix)
    if len(set_cards) >= 3:
        return Verdict.illegal(R.SET, "a set is 2 or 3 cards of one suit, not 4", fix)
    suit = SUIT_OF[card]
    if set_cards and SUIT_OF[set_cards[0]] != suit:
        return Verdict.illegal(R.SET, f"the {card} is not of the set's suit ({SUIT_NAMES[SUIT_OF[set_cards[0]]]})", fix)
    if suit in state.acted:
        return Verdict.illegal(R.TWO_SETS, f"you already played {SUIT_NAMES[suit]} this turn; a second set must be another suit", fix)
    if len(state.acted) >= 2:
        return Verdict.illegal(R.TWO_SETS, "two sets a turn at most", fix)
    return ready_to_act(state) or Verdict.legal()


def apply_step(state: MountainState, move: ActCard) -> MountainState:
    # Pending since its latest card: an act going on card by card (a long Clubs triple, the camera
    # watching each card go) is stalled only when no card has come for the timeout.
    return state.evolve(pending=state.pending + (move.card,), pending_since=move.t)


def check_take_back(state: MountainState, move: TakeBack) -> Verdict:
    if not state.pending:
        return Verdict.illegal(R.SET, "no act is begun on the discard reader: there is nothing to take back", "play on")
    return Verdict.legal()


def apply_take_back(state: MountainState, move: TakeBack) -> MountainState:
    return state.evolve(pending=(), pending_since=None)


def _choices(targets: Sequence[str], state: MountainState) -> list[str]:
    """The spade choices the first removed card shows (its rank, its suit), or every one."""
    if not targets:
        return list(SINGLE_CHOICES)
    card = state.mountain[SLOT_OF[targets[0]]]
    assert card is not None
    return [f"rank:{RANK_OF[card]}", f"suit:{SUIT_OF[card]}"]


def finishing(state: MountainState, card: str, by: str, t: float) -> Act | None:
    """The legal act that the pending cards and ``card`` make, when ``card`` is its last; else None.

    Spades: the choice is read from the removed cards (the first one's rank or suit; for a triple's
    second action, any card after it, or nothing removed). Whichever choice reads them, the act
    removes exactly the cards tapped, so any legal one is the move. Hearts that heal from the hand
    are never finished here: which action cards go under the health pile no reader sees."""
    if ready_to_act(state) is not None or state.skipped or card in state.pending:
        return None
    set_cards, targets = split(state, state.pending + (card,))
    if len(set_cards) not in (2, 3) or len(set_cards) + len(targets) != len(state.pending) + 1:
        return None
    suit = SUIT_OF[set_cards[0]]
    if any(SUIT_OF[c] != suit for c in set_cards) or suit in state.acted or len(state.acted) >= 2:
        return None
    for act in _acts(state, set_cards, targets, by, t):
        plan = plan_act(state, act, suit)
        if isinstance(plan, Plan) and not plan.from_hand and tuple(POSITIONS[s] for s in plan.slots) == targets:
            return act
    return None


def _acts(state: MountainState, set_cards: tuple[str, ...], targets: tuple[str, ...], by: str, t: float) -> Iterator[Act]:
    if SUIT_OF[set_cards[0]] != "S":
        yield Act(by=by, t=t, cards=set_cards, targets=targets)
        return
    firsts = _choices(targets, state)
    if len(set_cards) == 2:
        for one in firsts:
            yield Act(by=by, t=t, cards=set_cards, targets=targets, choose=one)
        return
    seconds: list[str] = []
    for pos in targets[1:]:
        card = state.mountain[SLOT_OF[pos]]
        assert card is not None
        seconds += [f"rank:{RANK_OF[card]}", f"suit:{SUIT_OF[card]}"]
    for one in firsts:
        for two in dict.fromkeys(seconds + list(SINGLE_CHOICES)):
            yield Act(by=by, t=t, cards=set_cards, targets=targets, choose=(one, two))
