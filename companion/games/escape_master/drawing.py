"""Drawing from the face-down draw pile: only with nothing to play, Draw +3 traps, and the Draw! call."""

from __future__ import annotations

import logging

from companion.core import Verdict
from . import piles as P
from . import rules as R
from .common import need_player, not_now
from .moves import CallDraw, Draw
from .state import DrawCall, State, put, replace

logger = logging.getLogger(__name__)


def check_draw(state: State, move: Draw) -> Verdict:
    who, bad = need_player(state, move, "a draw")
    if bad:
        return bad
    bad = not_now(state, "draws")
    if bad:
        return bad
    rnd = state.rnd
    name = state.name(who)
    back = "put the card back on the draw pile"
    if not state.playing(who):
        return Verdict.illegal(R.OUT, f"{name} is out of this round and draws no more", back)
    if move.card not in state.table.cards:
        return Verdict.illegal(R.CARD, "the card tapped is not a card of this deck", "check the card's tag")
    # Whether this player may draw now is said first, for any card: only a draw the rules allow
    # learns whether the card tapped is in the draw pile (issue 15: a refusal locates no card).
    call = rnd.call
    if call is not None:
        if who not in call.pending:
            return Verdict.illegal(
                R.CALL_DRAW, f"{name} draws no card now: for this Draw! call {name} has drawn already or the pile "
                "ran short before their turn", back,
            )
        if who == call.caller and len(call.pending) > 1:
            left = ", ".join(state.name(i) for i in call.pending if i != who)
            return Verdict.illegal(R.CALL_DRAW, f"{name} called Draw! and draws last ({left} first)", back)
    elif not rnd.owes(who) and P.has_playable(state, who):  # EM-TRAP-DRAW: the Draw +3 cards are owed
        return Verdict.illegal(
            R.DRAW, f"{name} holds a card that can be played, so may not draw (only with no playable numbered or "
            "Wisdom card)", back,
        )
    if move.card not in rnd.draw_pile:
        return Verdict.illegal(
            R.UNSEEN, f"the card tapped on {name}'s hand pad is not in the draw pile", "put it back where it came from",
        )
    return Verdict.legal()


def apply_draw(state: State, move: Draw) -> State:
    rnd = state.rnd
    assert move.by is not None
    who = state.table.seat[move.by]
    draw_pile = rnd.draw_pile - {move.card}
    new = replace(rnd, hands=put(rnd.hands, who, rnd.hands[who] | {move.card}), draw_pile=draw_pile)
    if rnd.call is not None:
        pending = list(rnd.call.pending)
        pending.remove(who)
        new = replace(new, call=DrawCall(rnd.call.caller, tuple(pending)) if pending else None)
    elif rnd.owed[who]:
        owed = rnd.owed[who] - 1
        new = replace(new, owed=put(new.owed, who, owed), draw_trap=new.draw_trap if owed else put(new.draw_trap, who, None))
    if not draw_pile:  # the pile ran out: nobody owes or waits for a card any more
        n = len(rnd.owed)
        new = replace(new, owed=(0,) * n, draw_trap=(None,) * n, call=None)
    return state.with_round(new)


def check_call_draw(state: State, move: CallDraw) -> Verdict:
    """A Draw! call takes effect only when nobody can play (the hands decide, so a refusal says that
    someone can, never who: the caller cannot see the others' hands)."""
    bad = check_call_draw_seen(state, move)
    if bad.ok and any(state.playing(i) and P.has_playable(state, i) for i in state.players_in):
        return Verdict.illegal(
            R.CALL_DRAW, "someone can still play, so the Draw! call does not take effect",
            "play on; call Draw! when nobody can play",
        )
    return bad


def check_call_draw_seen(state: State, move: CallDraw) -> Verdict:
    """Everything a Draw! call needs that every player can see: all but whether anyone can play."""
    who, bad = need_player(state, move, "a Draw! call")
    if bad:
        return bad
    bad = not_now(state, "Draw! calls")
    if bad:
        return bad
    rnd = state.rnd
    if not state.playing(who):
        return Verdict.illegal(R.OUT, f"{state.name(who)} is out of this round", "")
    if rnd.call is not None:
        return Verdict.illegal(R.CALL_DRAW, "a Draw! call is still being drawn", "finish drawing")
    if not rnd.draw_pile:
        return Verdict.illegal(R.CALL_DRAW, "the draw pile is empty; with nothing to play the round is over",
                               "end the round (end_round)")
    owing = [state.name(i) for i in state.players_in if rnd.owes(i)]
    if owing:
        return Verdict.illegal(R.CALL_DRAW, f"{', '.join(owing)} must first draw for a Draw +3 trap", "draw those first")
    return Verdict.legal()


def draw_order(state: State, caller: int) -> tuple[int, ...]:
    """Who draws for a Draw! call: clockwise from the caller's left, the caller last, while cards last."""
    n = len(state.table.players)
    order = [(caller + k) % n for k in range(1, n + 1)]
    order = [i for i in order if state.playing(i)]
    return tuple(order[: len(state.rnd.draw_pile)])


def apply_call_draw(state: State, move: CallDraw) -> State:
    assert move.by is not None
    caller = state.table.seat[move.by]
    return state.with_round(replace(state.rnd, call=DrawCall(caller, draw_order(state, caller))))
