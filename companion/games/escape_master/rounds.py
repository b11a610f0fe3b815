"""A round from deal to count: the deal, Start!, Escape Master!, the end of the round and the faults."""

from __future__ import annotations

import logging
from collections.abc import Mapping

from companion.core import Verdict
from companion.contract.players import not_a_player
from . import piles as P
from . import rules as R
from .cards import Kind
from .common import need_player, seat_of, where_is
from .leaders import expected_size
from .moves import Deal, Dealt, EndRound, Out, Start
from .scoring import finish_round
from .state import Phase, RoundState, State, put, replace

logger = logging.getLogger(__name__)


def round_deck(state: State) -> frozenset[str]:
    """The cards shuffled for a round: the deck less the Doom pile (variant early end)."""
    if not state.doom_pile:
        return state.table.deck.cards
    return state.table.deck.cards.difference(state.doom_pile)


def _card_absent(state: State, card: str, deck: frozenset[str]) -> Verdict | None:
    if card in deck:
        return None
    if card in state.doom_pile:
        return Verdict.illegal(R.EARLY_END, f"{card} is on the Doom pile, out of the game", "take it out of the deck")
    return Verdict.illegal(R.CARD, f"{card} is not a card of this deck", "take it out of the deck")


def new_round(state: State, hands: Mapping[int, frozenset[str]], phase: Phase) -> State:
    """A fresh round with ``hands`` dealt; the rest of the deck is the draw pile."""
    n = len(state.table.players)
    deck = round_deck(state)
    dealt = frozenset().union(*hands.values()) if hands else frozenset()
    all_hands = tuple(hands.get(i, frozenset()) for i in range(n))
    rnd = RoundState.fresh(n, all_hands, deck - dealt)
    number = state.round_no + 1 if state.phase is Phase.ROUND_OVER else state.round_no
    return replace(state, rnd=rnd, phase=phase, round_no=number, round_faults=(0,) * n)


def check_deal(state: State, move: Deal) -> Verdict:
    fresh = state.phase is Phase.ROUND_OVER or (state.phase is Phase.DEALING and not any(state.rnd.hands))
    if not fresh:
        return Verdict.illegal(R.DEAL, f"round {state.round_no} is already dealt", "finish the round first")
    refused = not_a_player(R.WHO, state.table.seat, move, optional=True)
    if refused is not None:
        return refused
    if move.by is not None and seat_of(state, move.by) != state.dealer:
        return Verdict.illegal(R.DEALER, f"{state.name(state.dealer)} deals this round, not {move.by}",
                               f"let {state.name(state.dealer)} deal")
    seats: dict[int, frozenset[str]] = {}
    for name, cards in move.hands.items():
        seat = seat_of(state, name)
        if seat is None:
            return Verdict.illegal(R.WHO, f"{name} is not playing this game", "deal again to the players")
        if seat not in state.players_in:
            return Verdict.illegal(R.TIE, f"{name} does not play this extra round (only the players tied for the win)",
                                   "deal again to the tied players only")
        seats[seat] = frozenset(cards)
    missing = [state.name(i) for i in state.players_in if i not in seats]
    if missing:
        return Verdict.illegal(R.DEAL, f"the deal has no hand for {', '.join(missing)}", "deal again to every player")
    deck = round_deck(state)
    seen: dict[str, str] = {}
    for name, cards in move.hands.items():
        if len(set(cards)) != len(cards):
            return Verdict.illegal(R.DEAL, f"{name}'s hand names one card twice", "deal again")
        for card in cards:
            bad = _card_absent(state, card, deck)
            if bad:
                return bad
            if card in seen:
                return Verdict.illegal(R.DEAL, f"one card is dealt to both {seen[card]} and {name}", "deal again")
            seen[card] = name
    return Verdict.legal()


def apply_deal(state: State, move: Deal) -> State:
    hands = {state.table.seat[name]: frozenset(cards) for name, cards in move.hands.items()}
    return new_round(state, hands, Phase.WAITING)


def check_dealt(state: State, move: Dealt) -> Verdict:
    who, bad = need_player(state, move, "a dealt card")
    if bad:
        return bad
    if state.phase not in (Phase.ROUND_OVER, Phase.DEALING, Phase.WAITING):
        return Verdict.illegal(R.DEAL, f"round {state.round_no} is under way; cards are dealt before Start!",
                               "put the card back")
    if who not in state.players_in:
        return Verdict.illegal(R.TIE, f"{state.name(who)} does not play this extra round", "put the card back")
    bad = _card_absent(state, move.card, round_deck(state))
    if bad:
        return bad
    if state.phase is not Phase.ROUND_OVER and move.card not in state.rnd.draw_pile:
        return Verdict.illegal(R.UNSEEN, f"the card tapped on {state.name(who)}'s hand pad is dealt already",
                               "put it back where it came from")
    return Verdict.legal()


def apply_dealt(state: State, move: Dealt) -> State:
    assert move.by is not None
    who = state.table.seat[move.by]
    if state.phase is Phase.ROUND_OVER:
        state = new_round(state, {}, Phase.DEALING)
    rnd = state.rnd
    rnd = replace(rnd, hands=put(rnd.hands, who, rnd.hands[who] | {move.card}), draw_pile=rnd.draw_pile - {move.card})
    return replace(state, rnd=rnd)


def check_start(state: State, move: Start) -> Verdict:
    if state.phase not in (Phase.DEALING, Phase.WAITING):
        if state.phase is Phase.ROUND_OVER:
            return Verdict.illegal(R.START, "deal the next round before Start!", "deal first")
        return Verdict.illegal(R.START, f"round {state.round_no} has already started", "")
    refused = not_a_player(R.WHO, state.table.seat, move, optional=True)
    if refused is not None:
        return refused
    if move.by is not None and seat_of(state, move.by) != state.dealer:
        return Verdict.illegal(R.START, f"only the dealer ({state.name(state.dealer)}) calls Start!",
                               f"wait for {state.name(state.dealer)}'s Start!")
    if state.table.options.check_deal_size:
        for i in state.players_in:
            want = expected_size(state, i)
            have = len(state.rnd.hands[i])
            if have != want:
                more = f"deal {state.name(i)} {want - have} more" if have < want else "take the extra cards back"
                cards = "card" if have == 1 else "cards"
                return Verdict.illegal(R.DEAL, f"{state.name(i)} holds {have} {cards} but starts this round with {want}",
                                       f"{more} (the referee can correct the deal)")
    return Verdict.legal()


def apply_start(state: State, move: Start) -> State:
    return replace(state, phase=Phase.PLAYING)


def _pending_of(state: State, seat: int) -> list[tuple[int, str]]:
    return [(p.number, p.pending.card) for p in state.rnd.piles if p.pending is not None and p.pending.by == seat]


def check_out(state: State, move: Out) -> Verdict:
    who, bad = need_player(state, move, "Escape Master!")
    if bad:
        return bad
    name = state.name(who)
    if state.phase not in (Phase.PLAYING, Phase.COUNTING):
        return Verdict.illegal(R.OUT, "no round is being played", "")
    if not state.playing(who):
        return Verdict.illegal(R.OUT, f"{name} is not in this round or is out already", "")
    hand = state.rnd.hands[who]
    if move.discard is not None:
        power = P.ability(state, who)
        limit = 0 if power is None else (power.beast_cards if state.mods.beast[who] else power.cards)
        if power is None or power.key != "discard_last" or limit == 0:
            return Verdict.illegal(R.LEADER, f"{name}'s Escape Leader does not let them discard their last cards",
                                   "play the cards or keep them")
        if frozenset(move.discard) != hand or len(hand) > limit:
            return Verdict.illegal(R.LEADER, f"{name} may discard only their last {limit} card(s) to get out, and "
                                   f"holds {len(hand)}", "play the cards or keep them")
        if any(state.table.cards[c].kind is Kind.WISDOM for c in move.discard):
            return Verdict.illegal(R.WISDOM_KEEP, "a Wisdom card may never be discarded", "play the Wisdom instead")
        hand = frozenset()
    if hand:
        return Verdict.illegal(R.OUT, f"{name} still holds {len(hand)} card{'s' if len(hand) != 1 else ''}; "
                               "Escape Master! is called with an empty hand", "play on")
    pending = _pending_of(state, who)
    if pending:
        number, card = pending[0]
        return Verdict.illegal(R.OUT, f"{name}'s {card} on pile {number} is half a combination, not yet played",
                               "complete the combination or take the card back")
    if state.phase is Phase.COUNTING and move.discard is not None:
        return Verdict.illegal(R.STOPPED, "the round is over; everyone stopped at once", "")
    return Verdict.legal()


def apply_out(state: State, move: Out) -> State:
    assert move.by is not None
    who = state.table.seat[move.by]
    rnd = state.rnd
    if move.discard is not None:
        rnd = replace(rnd, hands=put(rnd.hands, who, frozenset()),
                      histories=put(rnd.histories, who, rnd.histories[who] + move.discard))
    rnd = replace(rnd, outs=rnd.outs + (who,), lock=put(rnd.lock, who, None), owed=put(rnd.owed, who, 0))
    mate = state.table.mate(who)
    ends = mate is None or mate in rnd.outs or mate not in state.players_in
    if state.phase is Phase.COUNTING or not ends:
        return replace(state, rnd=rnd)
    stop = move.t if move.t is not None else rnd.last_t[who]
    return replace(state, rnd=replace(rnd, stop_t=stop), phase=Phase.COUNTING)


def check_end_round(state: State, move: EndRound) -> Verdict:
    rnd = state.rnd
    if state.phase is Phase.PLAYING:
        if rnd.draw_pile:
            return Verdict.illegal(R.ROUND_END, f"the draw pile still holds {len(rnd.draw_pile)} cards; the round ends "
                                   "with Escape Master! or once the draw pile is empty and nobody can play", "play on")
        able = [state.name(i) for i in state.players_in if state.playing(i) and P.has_playable(state, i)]
        if able:
            return Verdict.illegal(R.ROUND_END, f"the draw pile is empty but {', '.join(able)} can still play",
                                   "play on until nobody can play")
    elif state.phase is not Phase.COUNTING:
        return Verdict.illegal(R.ROUND_END, "no round is being played", "")
    if move.hands is not None:
        return _check_count(state, move.hands)
    return Verdict.legal()


def _check_count(state: State, hands: Mapping[str, tuple[str, ...]]) -> Verdict:
    for name, cards in hands.items():
        seat = seat_of(state, name)
        if seat is None or seat not in state.players_in:
            return Verdict.illegal(R.WHO, f"{name} does not play this round", "count the players' hands only")
        registered = state.rnd.hands[seat].union(c for _, c in _pending_of(state, seat))
        missing = sorted(registered.difference(cards))
        if missing:
            return Verdict.illegal(
                R.HANDS, f"the count of {name}'s hand misses {len(missing)} card(s) the log has there",
                "find the card(s) and count again",
            )
        for card in cards:
            if card not in registered and card not in state.rnd.draw_pile:
                if card not in state.table.cards:
                    return Verdict.illegal(R.CARD, f"{card} is not a card of this deck", "count again")
                return Verdict.illegal(R.HANDS, f"{card} cannot be in {name}'s hand: {where_is(state, card)}",
                                       "count again")
    return Verdict.legal()


def apply_end_round(state: State, move: EndRound) -> State:
    rnd = state.rnd
    hands = list(rnd.hands)
    for pile in rnd.piles:  # a half combination never completed goes back to its hand (EM-COMBO)
        if pile.pending is not None:
            hands[pile.pending.by] = hands[pile.pending.by] | {pile.pending.card}
    if move.hands is not None:  # cards the readers missed from the draw pile join the count
        for name, cards in move.hands.items():
            seat = state.table.seat[name]
            hands[seat] = hands[seat].union(cards)
    ended = "draw_pile_empty" if state.phase is Phase.PLAYING else (
        "escape_alliance" if state.table.team is not None else "escape_master")
    return finish_round(state, tuple(hands), ended)
