"""Helpers every Escape Master move check shares: who holds a card, where a card is, verdict text."""

from __future__ import annotations

import logging

from companion.core import Move, Verdict
from companion.contract.players import not_a_player
from . import rules as R
from .state import Phase, State

logger = logging.getLogger(__name__)


def apart(earlier: float | None, later: float | None) -> str:
    """How far apart two table times are, to the millisecond ("444 ms", "1.250 s"). The clock times
    themselves are on each row, which the page shows as the time of day; a sentence says the gap."""
    if earlier is None or later is None:
        return "an unknown time"
    gap = abs(later - earlier)
    return f"{round(gap * 1000)} ms" if gap < 1 else f"{gap:.3f} s"


def where_is(state: State, card: str) -> str:
    """Where the table has ``card`` now, in words ("it is on pile 2"), naming public places only.

    A hand, the draw pile and a history pile are hidden: all three read the same, so a verdict
    never tells a player which hidden place holds a card (issue 15).
    """
    rnd = state.rnd
    for pile in rnd.piles:
        if pile.pending is not None and pile.pending.card == card:
            return f"it is {state.name(pile.pending.by)}'s half combination on pile {pile.number}"
        if card in pile.cards:
            closed = "" if pile.open else ", closed by the Dead End"
            return f"it is on pile {pile.number}{closed}"
    if card in state.doom_pile:
        return "it is on the Doom pile, out of the game"
    return HIDDEN_PLACE


HIDDEN_PLACE = "it is not face up on the table"
"""What :func:`where_is` says of a card in a hand, the draw pile, a history or action pile."""


def seat_of(state: State, name: str | None) -> int | None:
    return None if name is None else state.table.seat.get(name)


def need_player(state: State, move: Move, what: str) -> tuple[int, Verdict | None]:
    """The seat of ``move.by``, which this move must name (EM-WHO)."""
    seats = state.table.seat
    refused = not_a_player(R.WHO, seats, move, what=what)
    if refused is not None:
        return -1, refused
    assert move.by is not None  # not_a_player refuses a move that names nobody
    return seats[move.by], None


def attribute(state: State, move: Move, cards: tuple[str, ...], hidden: bool = False) -> tuple[int, Verdict | None]:
    """The seat whose registered hand holds all of ``cards`` (EM-HAND, EM-OWNER, EM-CARD otherwise).

    ``hidden``: the cards are face down (a discard), so the verdict names no card and no other hand.
    """
    table = state.table
    rnd = state.rnd
    for card in cards:
        if card not in table.cards:
            return -1, Verdict.illegal(R.CARD, f"{card} is not a card of this deck", "check the card's tag and enrolment")
    if move.by is not None:
        # A named player plays from their own hand. Where else a card is stays unsaid: "not in your
        # hand" reads the same for another's hand, the draw pile or a pile (issue 15).
        refused = not_a_player(R.WHO, table.seat, move)
        if refused is not None:
            return -1, refused
        seat = table.seat[move.by]
        missing = [card for card in cards if card not in rnd.hands[seat]]
        if missing:
            what = "that card" if hidden else missing[0]
            return -1, Verdict.illegal(
                R.OWNER, f"{what} is not in {move.by}'s hand; only your own cards can be played",
                f"take the {what} back" if not hidden else "take it back",
            )
        return seat, None
    holders = [rnd.holder(card) for card in cards]
    for card, holder in zip(cards, holders):
        if holder is None:
            if hidden:
                return -1, Verdict.illegal(R.HAND, "a card named is in nobody's hand", "put it back where it came from")
            return -1, Verdict.illegal(
                R.HAND, f"{card} is in nobody's hand: {where_is(state, card)}", f"put the {card} back where it came from"
            )
    who = holders[0]
    assert who is not None
    if any(h != who for h in holders):
        return -1, Verdict.illegal(
            R.OWNER, "the cards come from different hands; a player plays only from their own hand",
            "take the cards back into their hands",
        )
    return who, None


def not_now(state: State, what: str) -> Verdict | None:
    """A move made during play needs the round to be under way (EM-START, EM-STOPPED)."""
    phase = state.phase
    if phase is Phase.PLAYING:
        return None
    if phase in (Phase.DEALING, Phase.WAITING):
        return Verdict.illegal(
            R.START, f"round {state.round_no} has not started: wait for the dealer's \"Start!\" before {what}",
            "undo it and wait for Start!",
        )
    return Verdict.illegal(
        R.STOPPED, f"round {state.round_no} is over; everyone stops at once, so no more {what}", "undo it"
    )


def busy(state: State, who: int, what: str) -> Verdict | None:
    """Things that hold a player up before they may play on: a Draw! call, Draw +3 cards still owed."""
    rnd = state.rnd
    if rnd.call is not None:
        left = ", ".join(state.name(i) for i in rnd.call.pending)
        return Verdict.illegal(
            R.CALL_DRAW, f"everyone finishes drawing for the Draw! call before play goes on ({left} still to draw)",
            f"undo the {what} and draw first",
        )
    owed = rnd.owes(who)
    if owed:
        return Verdict.illegal(
            R.TRAP_DRAW, f"{state.name(who)} must first draw the cards of the Draw +3 trap ({owed} to go)",
            f"undo the {what}, draw {owed}, then play on",
        )
    return None
