"""Cards onto the central piles: single plays, combinations, halves of combinations, Dead End,
starting piles, and who was first when two players reach one pile together (EM-BEATEN)."""

from __future__ import annotations

import logging

from companion.core import Verdict
from companion.contract.players import not_a_player
from . import piles as P
from . import rules as R
from .cards import Card, Kind
from .common import apart, attribute, busy, not_now, where_is
from .moves import Half, Play, Withdraw
from .state import (
    NO_PILE,
    WILD,
    LastPlay,
    Pending,
    Phase,
    Pile,
    RoundState,
    State,
    put,
    replace,
)

logger = logging.getLogger(__name__)

_LEGAL = Verdict.legal()
_new = tuple.__new__  # builds the NamedTuple state values without the keyword-argument overhead


def _phase(state: State, move: Play | Half) -> Verdict | None:
    """Plays belong to the round; after "Escape Master!" only plays stamped by the call still count."""
    if state.phase is Phase.COUNTING:
        stop = state.rnd.stop_t
        window = state.table.options.out_window_s
        if move.t is not None and stop is not None and move.t <= stop + window:
            return None
        first = state.name(state.rnd.outs[0]) if state.rnd.outs else "a player"
        return Verdict.illegal(
            R.STOPPED,
            f"the round ended with {first}'s Escape Master!; this play came {apart(stop, move.t)} after it",
            "take the card back into your hand",
        )
    return not_now(state, "plays")


def _completion(state: State, move: Play) -> tuple[int, int] | None:
    """(seat, pile index) if ``move`` completes a combination whose first card already lies on the pile:
    the pile's half combination, or the player's single play on it moments ago (a face-card pair)."""
    assert move.cards is not None
    first, second = move.cards
    rnd = state.rnd
    if not isinstance(move.pile, int) or rnd.holder(first) is not None:
        return None
    k = rnd.open_pile(move.pile)
    if k is None:
        return None
    pile = rnd.piles[k]
    who = rnd.holder(second)
    if who is None:
        return None
    if pile.pending is not None and pile.pending.card == first and pile.pending.by == who:
        return who, k
    last = pile.last
    window = state.table.options.combo_window_s
    if (
        last is not None and last.cards == (first,) and last.by == who and pile.pending is None
        and move.t is not None and last.t is not None and 0 <= move.t - last.t <= window
    ):
        return who, k
    return None


def _beaten(state: State, who: int, number: int, fits_before: bool, move: Play, what: str) -> Verdict | None:
    """EM-BEATEN: the card fitted the pile until another player's play moments earlier."""
    pile = state.rnd.latest_pile(number)
    if pile is None or pile.last is None or not fits_before:
        return None
    last = pile.last
    if last.by == who or move.t is None or last.t is None:
        return None
    if move.t - last.t > state.table.options.beaten_window_s:
        return None
    mine = f"{state.name(who)}'s {what}"
    theirs = f"{state.name(last.by)}'s {' + '.join(last.cards)}"
    fix = f"take the {what} back into your hand"
    if move.t >= last.t:
        when = "played in the same millisecond and seen first" if move.t == last.t else f"{apart(last.t, move.t)} earlier"
        why = f"{mine} was beaten to pile {number} by {theirs}, {when}"
    else:
        why = (f"{mine} is stamped {apart(move.t, last.t)} before {theirs}, but reached the referee "
               f"after it; pile {number} now shows {theirs}, which the {what} does not fit")
        fix += ", or the referee corrects the order in the log"
    return Verdict.illegal(R.BEATEN, why, fix)


_OFF_PILE = frozenset({Kind.TRAP_DRAW, Kind.TRAP_UP, Kind.TRAP_DOWN, Kind.ESCAPE, Kind.ESCAPE_DISCARD})


def check_play(state: State, move: Play) -> Verdict:
    if state.phase is not Phase.PLAYING:
        bad = _phase(state, move)
        if bad:
            return bad
    if move.cards is not None:
        done = _completion(state, move)
        if done is not None:
            return _check_completion(state, move, *done)
        played: tuple[str, ...] = move.cards
    else:
        assert move.card is not None
        played = (move.card,)
    who, bad = attribute(state, move, played)
    if bad:
        return bad
    rnd = state.rnd
    if rnd.call is not None or rnd.owed[who]:
        bad = busy(state, who, "play")
        if bad:
            return bad
    cards = [state.table.cards[c] for c in played]
    for card in cards:
        if card.kind in _OFF_PILE:
            return Verdict.illegal(
                R.NOT_ON_PILE, f"{card.name} is never played on a central pile; traps go on an opponent's action "
                "pile, escapes on your own traps", f"take the {card.name} back into your hand",
            )
    if len(cards) == 1:
        return _check_single(state, move, who, cards[0])
    return _check_combo(state, move, who, cards[0], cards[1])


def _check_single(state: State, move: Play, who: int, card: Card) -> Verdict:
    rnd = state.rnd
    options = state.table.options
    way = P.direction(state, who) if rnd.lock[who] is not None else None
    k = None if move.pile == "new" else rnd.open_pile(move.pile)
    if k is None:
        return _check_free_place(state, move, who, card, way)
    pile = rnd.piles[k]
    if P.single_fits(card, pile.top, way, options):
        return _LEGAL
    before = pile.last.before if pile.last is not None else NO_PILE
    beaten = _beaten(state, who, pile.number, P.single_fits(card, before, way, options), move, card.name)
    if beaten:
        return beaten
    return P.misfit(card, pile.top, way, state.name(who), pile.number, options)


def _check_free_place(state: State, move: Play, who: int, card: Card, way: str | None) -> Verdict:
    """A single card where no open pile lies: only a start card or a Wisdom starts one (EM-NEW-PILE)."""
    if card.kind is Kind.START or card.kind is Kind.WISDOM:
        return _LEGAL
    number = None if move.pile == "new" else move.pile
    if number is not None:
        latest = state.rnd.latest_pile(number)
        if latest is not None and latest.last is not None:
            fitted = P.single_fits(card, latest.last.before, way, state.table.options)
            beaten = _beaten(state, who, number, fitted, move, card.name)
            if beaten:
                return beaten
        if latest is not None:
            if card.kind is Kind.DEAD_END:
                return Verdict.illegal(R.DEAD_END, f"pile {number} is already closed by a Dead End",
                                       "take the Dead End back into your hand")
            return Verdict.illegal(R.DEAD_END, f"pile {number} is closed by a Dead End; no more cards go on it",
                                   f"take the {card.name} back into your hand")
    if card.kind is Kind.DEAD_END:
        return Verdict.illegal(R.DEAD_END, "a Dead End goes directly on an open pile to close it",
                               "take the Dead End back into your hand")
    where = "a new pile" if number is None else f"pile {number}, where no pile lies"
    return Verdict.illegal(R.NEW_PILE, f"only a start card or a Wisdom starts {where}",
                           f"take the {card.name} back into your hand")


def _check_combo(state: State, move: Play, who: int, a: Card, b: Card) -> Verdict:
    rnd = state.rnd
    bad = P.combo_shape(a, b, P.ability(state, who), state.mods.beast[who])
    if bad:
        return bad
    if move.pile == "new" or rnd.open_pile(move.pile) is None:
        return Verdict.illegal(R.NEW_PILE, "a combination goes onto an open pile; only a start card or a Wisdom "
                               "starts one", "take both cards back into your hand")
    k = rnd.open_pile(move.pile)
    assert k is not None
    pile = rnd.piles[k]
    way = P.direction(state, who)
    value = P.combo_value(a, b)
    if P.value_fits(value, pile.top, way):
        return Verdict.legal()
    before = pile.last.before if pile.last is not None else NO_PILE
    beaten = _beaten(state, who, pile.number, P.value_fits(value, before, way), move, f"{a.name} + {b.name}")
    if beaten:
        return beaten
    return P.combo_misfit(a, b, pile.top, way, state.name(who), pile.number)


def _check_completion(state: State, move: Play, who: int, k: int) -> Verdict:
    assert move.cards is not None
    first, second = (state.table.cards[c] for c in move.cards)
    if move.by is not None and state.table.seat.get(move.by) != who:
        return Verdict.illegal(R.OWNER, f"{second.name} is not in {move.by}'s hand; only your own cards can be played",
                               f"take the {second.name} back")
    bad = busy(state, who, "play")
    if bad:
        return bad
    bad = P.combo_shape(first, second, P.ability(state, who), state.mods.beast[who])
    if bad:
        return bad
    pile = state.rnd.piles[k]
    top = pile.top if pile.pending is not None else (pile.last.before if pile.last is not None else NO_PILE)
    way = P.direction(state, who)
    if P.value_fits(P.combo_value(first, second), top, way):
        return Verdict.legal()
    return P.combo_misfit(first, second, top, way, state.name(who), pile.number)


def apply_play(state: State, move: Play) -> State:
    rnd = state.rnd
    table = state.table
    if move.cards is not None:
        done = _completion(state, move)
        if done is not None:
            return _apply_completion(state, move, *done)
        cards: tuple[str, ...] = move.cards
    else:
        assert move.card is not None
        cards = (move.card,)
    who = rnd.holder(cards[0])
    assert who is not None
    hand = rnd.hands[who].difference(cards)
    kind = table.cards[cards[-1]].kind
    k = None if move.pile == "new" else rnd.open_pile(move.pile)
    if k is None:  # a start card or a Wisdom starts a pile (EM-NEW-PILE)
        number = move.pile if isinstance(move.pile, int) else _free_place(state)
        top = 7 if kind is Kind.START else WILD
        pile = _new(Pile, (number, cards, top, True, _new(LastPlay, (who, cards, move.t, NO_PILE)), None))
        piles = rnd.piles + (pile,)
    else:
        old = rnd.piles[k]
        last = _new(LastPlay, (who, cards, move.t, old.top))
        if kind is Kind.DEAD_END:  # EM-DEAD-END
            pile = _new(Pile, (old.number, old.cards + cards, old.top, False, last, old.pending))
        else:
            value = WILD if kind is Kind.WISDOM else (7 if kind is Kind.START else table.cards[cards[-1]].value)
            assert value is not None
            pile = _new(Pile, (old.number, old.cards + cards, value, True, last, old.pending))
        piles = rnd.piles[:k] + (pile,) + rnd.piles[k + 1 :]
    new = replace(rnd, hands=put(rnd.hands, who, hand), piles=piles, last_t=put(rnd.last_t, who, move.t))
    if kind is Kind.WISDOM:
        new = _wisdom(state, new, who)
    return state.with_round(new)


def _wisdom(state: State, rnd: RoundState, who: int) -> RoundState:
    """EM-WISDOM: every Wisdom played resolves all active up/down traps; Story 11 gives a discard."""
    n = len(state.table.players)
    out = rnd
    if any(lock is not None for lock in rnd.lock):
        out = replace(out, lock=(None,) * n)
    use = state.mods.story[who]
    if use is not None and state.table.stories[use.card].discard_with_wisdom:
        out = replace(out, credits=put(out.credits, who, out.credits[who] + 1))
    return out


def _free_place(state: State) -> int:
    taken = {p.number for p in state.rnd.piles if p.open}
    n = 1
    while n in taken:
        n += 1
    return n


def _apply_completion(state: State, move: Play, who: int, k: int) -> State:
    assert move.cards is not None
    rnd = state.rnd
    first, second = move.cards
    old = rnd.piles[k]
    card = state.table.cards[second]
    assert card.value is not None
    if old.pending is not None:
        last = LastPlay(who, move.cards, move.t, old.top)
        pile = replace(old, cards=old.cards + move.cards, top=card.value, last=last, pending=None)
    else:
        assert old.last is not None
        last = LastPlay(who, move.cards, move.t, old.last.before)
        pile = replace(old, cards=old.cards + (second,), top=card.value, last=last)
    hand = rnd.hands[who].difference((second,))
    new = replace(rnd, hands=put(rnd.hands, who, hand), piles=put(rnd.piles, k, pile), last_t=put(rnd.last_t, who, move.t))
    return state.with_round(new)


# -- half a combination, and taking it back -------------------------------------------------------


def check_half(state: State, move: Half) -> Verdict:
    bad = not_now(state, "plays")
    if bad:
        return bad
    who, bad = attribute(state, move, (move.card,))
    if bad:
        return bad
    bad = busy(state, who, "play")
    if bad:
        return bad
    rnd = state.rnd
    card = state.table.cards[move.card]
    fix = f"take the {move.card} back into your hand"
    if card.kind is Kind.DOOM:
        return Verdict.illegal(R.COMBO_DOOM, "a Doom Master card is never part of a combination", fix)
    if card.kind is not Kind.NUMBER:
        return Verdict.illegal(R.ONE_CARD, f"{move.card} cannot be half of a combination", fix)
    k = rnd.open_pile(move.pile)
    if k is None:
        return Verdict.illegal(R.NEW_PILE, f"there is no open pile {move.pile} for a combination", fix)
    pile = rnd.piles[k]
    if pile.pending is not None:
        return Verdict.illegal(R.COMBO, f"pile {pile.number} already holds {state.name(pile.pending.by)}'s half "
                               "combination", fix)
    way = P.direction(state, who)
    if P.single_fits(card, pile.top, way, state.table.options):
        return Verdict.illegal(R.COMBO, f"{move.card} fits pile {pile.number} by itself: it is a single play, not "
                               "half a combination", "enter it as a play")
    power = P.ability(state, who)
    beast = state.mods.beast[who]
    for other in rnd.hands[who]:
        if other == move.card:
            continue
        partner = state.table.cards[other]
        if partner.kind is Kind.NUMBER and P.combo_shape(card, partner, power, beast) is None:
            if P.value_fits(P.combo_value(card, partner), pile.top, way):
                return Verdict.legal()
    return Verdict.illegal(R.COMBO, f"no card in {state.name(who)}'s hand makes a combination with {move.card} "
                           f"that fits pile {pile.number}", fix)


def apply_half(state: State, move: Half) -> State:
    rnd = state.rnd
    who = rnd.holder(move.card)
    assert who is not None
    k = rnd.open_pile(move.pile)
    assert k is not None
    pile = replace(rnd.piles[k], pending=Pending(who, move.card, move.t))
    hand = rnd.hands[who].difference((move.card,))
    return state.with_round(replace(rnd, hands=put(rnd.hands, who, hand), piles=put(rnd.piles, k, pile)))


def _pending_pile(state: State, card: str) -> int | None:
    for k, pile in enumerate(state.rnd.piles):
        if pile.pending is not None and pile.pending.card == card:
            return k
    return None


def check_withdraw(state: State, move: Withdraw) -> Verdict:
    if state.phase not in (Phase.PLAYING, Phase.COUNTING):
        return Verdict.illegal(R.COMBO, "no round is being played", "")
    if move.card not in state.table.cards:
        return Verdict.illegal(R.CARD, f"{move.card} is not a card of this deck", "check the card's tag")
    k = _pending_pile(state, move.card)
    if k is None:
        return Verdict.illegal(R.COMBO, f"{move.card} is not half a combination: {where_is(state, move.card)}",
                               "leave it where it is")
    pending = state.rnd.piles[k].pending
    assert pending is not None
    refused = not_a_player(R.WHO, state.table.seat, move, optional=True)
    if refused is not None:
        return refused
    if move.by is not None and state.table.seat.get(move.by) != pending.by:
        return Verdict.illegal(R.OWNER, f"the {move.card} on pile {state.rnd.piles[k].number} is "
                               f"{state.name(pending.by)}'s, not {move.by}'s", f"give it to {state.name(pending.by)}")
    return Verdict.legal()


def apply_withdraw(state: State, move: Withdraw) -> State:
    return take_back_half(state, move.card)


def take_back_half(state: State, card: str) -> State:
    rnd = state.rnd
    k = _pending_pile(state, card)
    assert k is not None
    pile = rnd.piles[k]
    assert pile.pending is not None
    who = pile.pending.by
    hand = rnd.hands[who] | {card}
    new = replace(rnd, hands=put(rnd.hands, who, hand), piles=put(rnd.piles, k, replace(pile, pending=None)))
    return state.with_round(new)
