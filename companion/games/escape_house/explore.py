"""The explore phase: moving, drawing, trading, the hand limit (and effect discards, any time)."""

from __future__ import annotations

from typing import Any

from companion.core import Verdict
from . import live
from .cards import Kind
from .common import card_name, holds, in_phase, living_actor, room_name, valid_room
from .effects import follow_card
from .moves import Discard, Draw, DrawDiscard, EndExplore, MoveTo, Stash, Trade
from .state import (
    HAND_LIMIT,
    MAIN_ROOM,
    SEEN_PER_DRAW,
    Phase,
    State,
    bump,
    names,
    without,
)

_LEGAL = Verdict.legal()


# -- move (both phases) -------------------------------------------------------------------------


def check_move(state: State, m: MoveTo) -> Verdict:
    return (
        in_phase(state, m, Phase.EXPLORE, Phase.ACTION)
        or living_actor(state, m)
        or valid_room(state, m.room)
        or _move_rules(state, m)
        or _LEGAL
    )


def _move_rules(state: State, m: MoveTo) -> Verdict | None:
    by = m.by or ""
    phase = state.phase.value
    if by in state.moved:
        return Verdict.illegal(
            "EH-MOVE-ONCE", f"{by} has already chosen a room this {phase} phase", f"put {by}'s token back"
        )
    if state.phase is Phase.EXPLORE and by in state.acted:
        return Verdict.illegal(
            "EH-MOVE-FIRST",
            f"{by} has already drawn or traded this explore phase; rooms are chosen first",
            f"put {by}'s token back in {room_name(state.where[by])}",
        )
    if state.phase is Phase.ACTION:
        if state.played:
            return Verdict.illegal(
                "EH-MOVE-FIRST", "cards are already being played; rooms are chosen first", f"put {by}'s token back"
            )
        if by in state.no_move:
            return Verdict.illegal(
                "EH-NO-MOVE", f"{by} cannot move to a room this action phase", f"put {by}'s token back"
            )
    return None


def apply_move(state: State, m: MoveTo) -> State:
    by = m.by or ""
    return state.but(where={**state.where, by: m.room}, moved=state.moved | {by})


# -- draw ----------------------------------------------------------------------------------------


def _draw_allowed(state: State, by: str) -> Verdict | None:
    """EH-DRAW-LIMIT."""
    limit = state.options.draws_per_explore
    if state.draws.get(by, 0) >= limit:
        return Verdict.illegal(
            "EH-DRAW-LIMIT",
            f"{by} has already drawn {limit} card{'s' if limit != 1 else ''} this explore phase",
            "put the card back where it came from",
        )
    return None


def check_draw(state: State, m: Draw) -> Verdict:
    return in_phase(state, m, Phase.EXPLORE) or living_actor(state, m) or valid_room(state, m.room) or _draw_rules(state, m) or _LEGAL


def _draw_rules(state: State, m: Draw) -> Verdict | None:
    by = m.by or ""
    if m.room == MAIN_ROOM:
        return Verdict.illegal(
            "EH-DRAW-ROOM", "the main room has no deck; its draws come from the discard pile", "enter a draw_discard instead"
        )
    if state.where[by] != m.room:
        return Verdict.illegal(
            "EH-DRAW-ROOM",
            f"{by} is in {room_name(state.where[by])}, not in {room_name(m.room)}",
            "put the card back; draw from the deck of your own room",
        )
    deck = state.decks[m.room]
    if m.card not in deck and not live.may_draw_unnamed(state, m.room, m.card):
        return Verdict.illegal(
            "EH-DRAW-CARD", f"{card_name(state, m.card)} is not in the deck of {room_name(m.room)}", "check the card and enter it again"
        )
    if m.room not in state.cleared and state.order_known() and deck[0] != m.card:
        return Verdict.illegal(
            "EH-DRAW-TOP",
            f"{card_name(state, m.card)} is not the top card of {room_name(m.room)}, whose puzzle is not cleared",
            "put it back where it was and draw the top card",
        )
    return _draw_allowed(state, by)


def apply_draw(state: State, m: Draw) -> State:
    by = m.by or ""
    state = live.take_from_deck(state, m.room, m.card).but(
        hands={**state.hands, by: state.hands[by] + (m.card,)},
        draws=bump(state.draws, by),
        acted=state.acted | {by},
    )
    card = state.cards.cards[m.card]
    if card.kind is Kind.TRAP and m.room not in state.cleared:  # EH-TRAP
        state = follow_card(state, card, by, None, m.room)
    return state


# -- draw from the discard pile ----------------------------------------------------------------


def check_draw_discard(state: State, m: DrawDiscard) -> Verdict:
    v = living_actor(state, m)
    if v is not None:
        return v
    by = m.by or ""
    on_credit = state.draw_credit.get(by, 0) > 0
    if not on_credit:
        v = in_phase(state, m, Phase.EXPLORE)
        if v is not None:
            return v
        if not state.options.discard_draw_anywhere and state.where[by] != MAIN_ROOM:
            return Verdict.illegal(
                "EH-DISCARD-ROOM",
                f"the discard pile is in the main room and {by} is in {room_name(state.where[by])}",
                "put the cards back on the discard pile",
            )
        v = _draw_allowed(state, by)
        if v is not None:
            return v
    pile = state.discard
    if not pile:
        return Verdict.illegal("EH-DISCARD-DRAW", "the discard pile is empty", "take back the draw")
    seen_before = state.credit_seen.get(by, frozenset()) if on_credit else frozenset()
    for card in m.seen:
        if card not in pile:
            return Verdict.illegal(
                "EH-DISCARD-DRAW", f"{card_name(state, card)} is not in the discard pile", "check the cards and enter them again"
            )
        if card in seen_before:
            return Verdict.illegal(
                "EH-DISCARD-DRAW",
                f"{by} already looked at {card_name(state, card)} for this effect; each card drawn needs 3 separate cards",
                "look at cards not seen yet",
            )
    # (the pile only grows: count the cards not seen yet only when some were)
    unseen = len([c for c in pile if c not in seen_before]) if seen_before else len(pile)
    want = min(SEEN_PER_DRAW, unseen)
    if len(m.seen) != want:
        return Verdict.illegal(
            "EH-DISCARD-DRAW",
            f"a draw from the discard pile looks at {want} card{'s' if want != 1 else ''}, not {len(m.seen)}",
            f"look at {want} cards and keep one",
        )
    return _LEGAL


def apply_draw_discard(state: State, m: DrawDiscard) -> State:
    by = m.by or ""
    changes: dict[str, Any] = {
        "discard": without(state.discard, m.keep),
        "hands": {**state.hands, by: state.hands[by] + (m.keep,)},
    }
    if state.draw_credit.get(by, 0) > 0:  # on credit
        credit = bump(state.draw_credit, by, -1)
        seen = dict(state.credit_seen)
        if by in credit:
            seen[by] = seen.get(by, frozenset()) | set(m.seen)
        else:
            seen.pop(by, None)
        changes.update(draw_credit=credit, credit_seen=seen)
    else:
        changes.update(draws=bump(state.draws, by), acted=state.acted | {by})
    state = state.but(**changes)  # (one copy of the state, not two)
    card = state.cards.cards[m.keep]
    if card.kind is Kind.TRAP and state.options.traps_fire_from_discard:  # EH-TRAP (a setting)
        state = follow_card(state, card, by, None, MAIN_ROOM)
    return state


# -- trade --------------------------------------------------------------------------------------


def check_trade(state: State, m: Trade) -> Verdict:
    return in_phase(state, m, Phase.EXPLORE) or living_actor(state, m) or _trade_rules(state, m) or _LEGAL


def _trade_rules(state: State, m: Trade) -> Verdict | None:
    by = m.by or ""
    if m.to == by or m.to not in state.where:
        who = "yourself" if m.to == by else (f"{m.to}, who was sacrificed" if m.to in state.players else f'"{m.to}", who is not playing')
        return Verdict.illegal("EH-TRADE-ROOM", f"a card cannot be given to {who}", "take the card back")
    if state.where[m.to] != state.where[by]:
        return Verdict.illegal(
            "EH-TRADE-ROOM",
            f"{m.to} is in {room_name(state.where[m.to])} and {by} in {room_name(state.where[by])}; trades are in one room",
            f"give the card back to {by}",
        )
    v = holds(state, by, m.card)
    if v is not None:
        return v
    if m.card in state.traded:
        return Verdict.illegal(
            "EH-TRADE-ONCE", f"{card_name(state, m.card)} has already been traded this round", f"give the card back to {by}"
        )
    limit = state.options.trades_per_explore
    if limit is not None and state.trades.get(by, 0) >= limit:
        return Verdict.illegal(
            "EH-TRADE-LIMIT", f"{by} has already given {limit} card{'s' if limit != 1 else ''} this explore phase", f"give the card back to {by}"
        )
    return None


def apply_trade(state: State, m: Trade) -> State:
    by = m.by or ""
    return state.but(hands={**state.hands, by: without(state.hands[by], m.card), m.to: state.hands[m.to] + (m.card,)},
        traded=state.traded | {m.card},
        trades=bump(state.trades, by),
        acted=state.acted | {by},
    )


# -- stash and the hand limit -----------------------------------------------------------------


def check_stash(state: State, m: Stash) -> Verdict:
    return in_phase(state, m, Phase.EXPLORE) or living_actor(state, m) or valid_room(state, m.room) or _stash_rules(state, m) or _LEGAL


def _stash_rules(state: State, m: Stash) -> Verdict | None:
    by = m.by or ""
    held = len(state.hands[by])
    if held <= HAND_LIMIT:
        return Verdict.illegal(
            "EH-STASH", f"{by} holds {held} cards; only cards over the limit of {HAND_LIMIT} are put into a deck", "take the card back"
        )
    v = holds(state, by, m.card)
    if v is not None:
        return v
    here = state.where[by]
    if m.room != here:
        return Verdict.illegal(
            "EH-STASH", f"{by} is in {room_name(here)}; excess cards go into that room's deck", f"move the card to {room_name(here)}"
        )
    size = len(state.discard) if here == MAIN_ROOM else state.deck_size(here)
    if m.position > size:
        return Verdict.illegal(
            "EH-STASH", f"the deck of {room_name(here)} has {size} cards; position {m.position} is past its bottom", f"enter a position from 0 to {size}"
        )
    return None


def apply_stash(state: State, m: Stash) -> State:
    by = m.by or ""
    hands = {**state.hands, by: without(state.hands[by], m.card)}
    if m.room == MAIN_ROOM:  # the main room's "deck" is the discard pile in it
        return state.but(hands=hands, discard=state.discard + (m.card,), acted=state.acted | {by})
    deck = state.decks[m.room]  # at a live table, the cards put back (where among the others is not known)
    deck = deck[: m.position] + (m.card,) + deck[m.position :]
    return state.but(hands=hands, decks={**state.decks, m.room: deck}, acted=state.acted | {by})


def check_end_explore(state: State, m: EndExplore) -> Verdict:
    v = in_phase(state, m, Phase.EXPLORE)
    if v is not None:
        return v
    over: list[str] = []
    if max(map(len, state.hands.values()), default=0) > HAND_LIMIT:  # (most often nobody: one pass in C)
        over = [p for p in state.alive if len(state.hands[p]) > HAND_LIMIT]
    if over:
        return Verdict.illegal(
            "EH-HAND-LIMIT",
            f"{names(over)} hold{'s' if len(over) == 1 else ''} more than {HAND_LIMIT} cards",
            "put the excess cards into your room's deck (stash) first",
        )
    return owed(state) or _LEGAL


def owed(state: State) -> Verdict | None:
    """EH-OWED: discards and penalty draws that effects call for are done before the game goes on."""
    if state.penalties_due:
        return Verdict.illegal("EH-OWED", "a penalty card is still to be drawn", "draw the penalty card first")
    debtors = [p for p in state.alive if state.owed(p)] if state.owed_discards else []
    if debtors:
        return Verdict.illegal(
            "EH-OWED", f"{names(debtors)} must still discard for a card's effect", "discard to the discard pile first"
        )
    return None


def apply_end_explore(state: State, m: EndExplore) -> State:
    # Discard draws an effect allowed lapse with the explore phase.
    return state.but(phase=Phase.ACTION, moved=frozenset(), acted=frozenset(), draw_credit={}, credit_seen={}, owed_discards={}
    )


# -- discard (for an effect, any phase) -------------------------------------------------------------


def check_discard(state: State, m: Discard) -> Verdict:
    v = living_actor(state, m)
    if v is not None:
        return v
    by = m.by or ""
    if not state.owed(by):
        return Verdict.illegal("EH-DISCARD", f"no card's effect makes {by} discard now", "take the card back into your hand")
    return holds(state, by, m.card) or _LEGAL


def apply_discard(state: State, m: Discard) -> State:
    by = m.by or ""
    return state.but(hands={**state.hands, by: without(state.hands[by], m.card)},
        discard=state.discard + (m.card,),
        owed_discards=bump(state.owed_discards, by, -1),
    )
