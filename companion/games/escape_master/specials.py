"""Special cards off the piles: Traps on an opponent's action pile, Escapes on one's own (or a
teammate's) traps, special cards to the history pile at will, and discards."""

from __future__ import annotations

import logging

from companion.core import Verdict
from . import piles as P
from . import rules as R
from .cards import ESCAPE_KINDS, TRAP_KINDS, Kind
from .common import attribute, busy, need_player, not_now, where_is
from .moves import Defuse, Discard, DiscardSpecial, Escape, Trap
from .state import RoundState, State, put, replace

logger = logging.getLogger(__name__)

TRAP_DRAW_CARDS = 3


def check_trap(state: State, move: Trap) -> Verdict:
    bad = not_now(state, "traps")
    if bad:
        return bad
    who, bad = attribute(state, move, (move.card,))
    if bad:
        return bad
    card = state.table.cards[move.card]
    fix = f"take the {move.card} back into your hand"
    if card.kind not in TRAP_KINDS:
        return Verdict.illegal(R.TRAP, f"{move.card} is not a trap; only traps go on an action pile", fix)
    bad = busy(state, who, "trap")
    if bad:
        return bad
    target = state.table.seat.get(move.target)
    if target is None:
        return Verdict.illegal(R.WHO, f"{move.target} is not playing this game", fix)
    if target == who:
        return Verdict.illegal(R.TRAP, "a trap goes on an opponent's action pile, not your own", fix)
    if target == state.table.mate(who):
        return Verdict.illegal(R.ALLIANCE, f"{move.target} is {state.name(who)}'s teammate, not an opponent", fix)
    if not state.playing(target) or not state.rnd.hands[target]:
        return Verdict.illegal(R.TRAP, f"{move.target} is out of this round; a trap needs an opponent still in it", fix)
    lock = state.rnd.lock[target]
    if card.kind is not Kind.TRAP_DRAW and lock is not None:
        return Verdict.illegal(
            R.TRAP_ONE, f"{move.target} already has an active {lock}; only one up/down trap at a time (a Draw +3 "
            "trap may always go on top)", fix,
        )
    return Verdict.legal()


def apply_trap(state: State, move: Trap) -> State:
    rnd = state.rnd
    who = rnd.holder(move.card)
    assert who is not None
    target = state.table.seat[move.target]
    new = replace(
        rnd,
        hands=put(rnd.hands, who, rnd.hands[who] - {move.card}),
        actions=put(rnd.actions, target, rnd.actions[target] + (move.card,)),
    )
    if state.table.cards[move.card].kind is Kind.TRAP_DRAW:  # EM-TRAP-DRAW: draw 3 at once
        new = replace(new, owed=put(new.owed, target, new.owed[target] + TRAP_DRAW_CARDS),
                      draw_trap=put(new.draw_trap, target, move.card))
    else:
        new = replace(new, lock=put(new.lock, target, move.card))
    return state.with_round(new)


def _active_traps(rnd: RoundState, seat: int) -> list[str]:
    out = [t for t in (rnd.lock[seat],) if t is not None]
    trap = rnd.draw_trap[seat]
    if trap is not None and rnd.owes(seat):
        out.append(trap)
    return out


def _trap_owner(state: State, trap: str) -> int | None:
    rnd = state.rnd
    for seat in range(len(state.table.players)):
        if trap in _active_traps(rnd, seat):
            return seat
    return None


def _escape_target(state: State, move: Escape, who: int) -> tuple[int | None, str | None, Verdict | None]:
    """(seat, trap) the Escape resolves, or (None, None) for none."""
    fix = f"take the {move.card} back into your hand"
    if move.trap is not None:
        owner = _trap_owner(state, move.trap)
        if owner is None:
            if move.trap in state.table.cards:
                place = where_is(state, move.trap)
                return None, None, Verdict.illegal(R.ESCAPE, f"{move.trap} is not an active trap: {place}", fix)
            return None, None, Verdict.illegal(R.CARD, f"{move.trap} is not a card of this deck", fix)
        if owner != who and owner != state.table.mate(who):
            return None, None, Verdict.illegal(
                R.ESCAPE, f"{move.trap} is on {state.name(owner)}'s action pile; an Escape resolves your own traps"
                + (" or your teammate's" if state.table.team is not None else ""), fix,
            )
        return owner, move.trap, None
    mine = _active_traps(state.rnd, who)
    if len(mine) > 1:
        return None, None, Verdict.illegal(
            R.ESCAPE, f"{state.name(who)} has two active traps ({', '.join(mine)}); say which one the Escape resolves",
            "enter the escape again with its trap",
        )
    return (who, mine[0], None) if mine else (None, None, None)


def check_escape(state: State, move: Escape) -> Verdict:
    bad = not_now(state, "escapes")
    if bad:
        return bad
    who, bad = attribute(state, move, (move.card,))
    if bad:
        return bad
    card = state.table.cards[move.card]
    fix = f"take the {move.card} back into your hand"
    if card.kind not in ESCAPE_KINDS:
        return Verdict.illegal(R.ESCAPE, f"{move.card} is not an Escape", fix)
    if state.rnd.call is not None:
        return Verdict.illegal(R.CALL_DRAW, "everyone finishes drawing for the Draw! call before play goes on", fix)
    _owner, _trap, bad = _escape_target(state, move, who)
    if bad:
        return bad
    if move.discard is not None:
        if card.kind is not Kind.ESCAPE_DISCARD:
            return Verdict.illegal(R.ESCAPE, "a plain Escape discards nothing; only a discard Escape does", fix)
        return _check_discard_card(state, move, who, move.discard)
    return Verdict.legal()


def _check_discard_card(state: State, move: Escape | Discard, who: int, discard: str) -> Verdict:
    holder, bad = attribute(state, move.replace(by=state.name(who)), (discard,), hidden=True)
    if bad:
        if bad.rules == (R.OWNER,) and state.table.team is not None:
            return Verdict.illegal(R.ALLIANCE, "a discard Escape lets only its own player discard, from their own hand",
                                   "take the discarded card back")
        return bad
    if state.table.cards[discard].kind is Kind.WISDOM:
        return Verdict.illegal(R.WISDOM_KEEP, "a Wisdom card may never be discarded", "take the Wisdom back into your hand")
    return Verdict.legal()


def apply_escape(state: State, move: Escape) -> State:
    rnd = state.rnd
    who = rnd.holder(move.card)
    assert who is not None
    owner, trap, _ = _escape_target(state, move, who)
    gone = {move.card} if move.discard is None else {move.card, move.discard}
    history = rnd.histories[who] + (move.card,) + ((move.discard,) if move.discard is not None else ())
    new = replace(rnd, hands=put(rnd.hands, who, rnd.hands[who] - gone), histories=put(rnd.histories, who, history))
    if owner is not None and trap is not None:
        new = _resolve(state, new, owner, trap)
        new = replace(new, histories=put(new.histories, owner, new.histories[owner] + (trap,)))
    if state.table.cards[move.card].kind is Kind.ESCAPE_DISCARD and move.discard is None:
        new = replace(new, credits=put(new.credits, who, new.credits[who] + 1))
    return state.with_round(new)


def _resolve(state: State, rnd: RoundState, seat: int, trap: str) -> RoundState:
    actions = tuple(c for c in rnd.actions[seat] if c != trap)
    rnd = replace(rnd, actions=put(rnd.actions, seat, actions))
    if rnd.lock[seat] == trap:
        return replace(rnd, lock=put(rnd.lock, seat, None))
    return replace(rnd, owed=put(rnd.owed, seat, 0), draw_trap=put(rnd.draw_trap, seat, None))


# -- to the history pile --------------------------------------------------------------------------


def check_discard_special(state: State, move: DiscardSpecial) -> Verdict:
    bad = not_now(state, "discards")
    if bad:
        return bad
    _who, bad = attribute(state, move, move.cards, hidden=True)
    if bad:
        return bad
    for name in move.cards:
        card = state.table.cards[name]
        if card.kind is Kind.WISDOM:
            return Verdict.illegal(R.WISDOM_KEEP, "a Wisdom card may never be discarded",
                                   "take the Wisdom back into your hand")
        if not card.special:
            return Verdict.illegal(R.SPECIAL, "only special cards (Dead End, Traps, Escapes) go to the history pile "
                                   "at will", "take the card back into your hand")
    return Verdict.legal()


def apply_discard_special(state: State, move: DiscardSpecial) -> State:
    rnd = state.rnd
    who = rnd.holder(move.cards[0])
    assert who is not None
    new = replace(rnd, hands=put(rnd.hands, who, rnd.hands[who].difference(move.cards)),
                  histories=put(rnd.histories, who, rnd.histories[who] + move.cards))
    return state.with_round(new)


def check_discard(state: State, move: Discard) -> Verdict:
    bad = not_now(state, "discards")
    if bad:
        return bad
    who, bad = attribute(state, move, (move.card,), hidden=True)
    if bad:
        return bad
    if state.table.cards[move.card].kind is Kind.WISDOM:
        return Verdict.illegal(R.WISDOM_KEEP, "a Wisdom card may never be discarded", "take the Wisdom back into your hand")
    if state.rnd.credits[who] < 1:
        if state.table.cards[move.card].special:
            return Verdict.legal()  # a special card goes to the history pile at will (EM-SPECIAL)
        return Verdict.illegal(R.DISCARD, f"{state.name(who)} has no discard to use (a discard Escape or Story card "
                               "11 gives one); only special cards go to the history pile at will",
                               "take the card back into your hand")
    return Verdict.legal()


def apply_discard(state: State, move: Discard) -> State:
    rnd = state.rnd
    who = rnd.holder(move.card)
    assert who is not None
    credits = rnd.credits
    if not state.table.cards[move.card].special:  # a special card goes at will; anything else uses a discard
        credits = put(credits, who, credits[who] - 1)
    new = replace(rnd, hands=put(rnd.hands, who, rnd.hands[who] - {move.card}),
                  histories=put(rnd.histories, who, rnd.histories[who] + (move.card,)), credits=credits)
    return state.with_round(new)


def check_defuse(state: State, move: Defuse) -> Verdict:
    bad = not_now(state, "traps")
    if bad:
        return bad
    who, bad = need_player(state, move, "a ninja pose")
    if bad:
        return bad
    power = P.ability(state, who)
    if power is None or not power.beast_defuse or not state.mods.beast[who]:
        return Verdict.illegal(R.BEAST, f"only a leader in Beast Mode with the ninja pose may defuse a trap, and "
                               f"{state.name(who)} is not one this round", "leave the trap where it is")
    if state.mods.defused[who]:
        return Verdict.illegal(R.BEAST, f"{state.name(who)} has already defused a trap this round", "leave the trap")
    if move.trap not in _active_traps(state.rnd, who):
        return Verdict.illegal(R.BEAST, f"{move.trap} is not an active trap on {state.name(who)}'s action pile",
                               "leave it where it is")
    return Verdict.legal()


def apply_defuse(state: State, move: Defuse) -> State:
    assert move.by is not None
    who = state.table.seat[move.by]
    rnd = _resolve(state, state.rnd, who, move.trap)
    mods = replace(state.mods, defused=put(state.mods.defused, who, True))
    return replace(state, rnd=rnd, mods=mods)
