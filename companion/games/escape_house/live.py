"""A live table: the deal tapped in by each player, and piles whose cards nobody has named yet.

Set up at a live table (no ``hands`` in the setup), the engine knows only what lies face up. Each
player taps the four cards dealt to them (``dealt``); a room deck's cards, the face-down side
puzzles and the main puzzles under the face-up one are unknown until a card is drawn, cleared or
turned up (``flip``). A card named from an unknown pile must be one nobody has named yet. A refusal
never says where a named card is: only that it cannot have come from there.
"""

from __future__ import annotations

from companion.core import Verdict
from .cards import DECK_KINDS, Kind
from .common import card_name, living_actor
from .moves import Dealt, Flip
from .setup import DEALT_PER_PLAYER
from .state import MAIN_ROOM, Phase, State

_LEGAL = Verdict.legal()
HAND_DEALT = 1 + DEALT_PER_PLAYER
"""A Betray card and three of the draw deck."""


def still_to_deal(state: State) -> tuple[str, ...]:
    """Players whose four dealt cards are not all tapped in yet."""
    return tuple(p for p in state.players if len(state.hands[p]) < HAND_DEALT)


def check_dealt(state: State, m: Dealt) -> Verdict:
    """EH-SETUP-HANDS at a live table: each player taps the four cards dealt to them, first of all."""
    if state.phase is not Phase.DEAL:
        return Verdict.illegal("EH-SETUP-HANDS", "the hands are all dealt; a card taken later is drawn", "undo that")
    v = living_actor(state, m)
    if v is not None:
        return v
    by = m.by or ""
    kind = state.cards.kind_of(m.card)
    if kind is None:
        return Verdict.illegal("EH-CARD-SET", f'"{m.card[:40]}" is not a card of the set "{state.cards.name}"', "tap one of your cards")
    hand = state.hands[by]
    if len(hand) >= HAND_DEALT:
        return Verdict.illegal("EH-SETUP-HANDS", f"{by} has tapped in all {HAND_DEALT} dealt cards", "a card taken later is drawn")
    betrays = sum(1 for c in hand if state.cards.kind_of(c) is Kind.BETRAY)
    if kind is Kind.BETRAY and betrays:
        return Verdict.illegal("EH-SETUP-HANDS", f"{by} is dealt one Betray card, and has tapped one in", "tap the other cards")
    if kind not in DECK_KINDS | {Kind.BETRAY}:
        return Verdict.illegal(
            "EH-SETUP-HANDS", f"{card_name(state, m.card)} is a {kind.value} card; a hand is dealt a Betray card and 3 of the draw deck",
            "tap the cards dealt to you",
        )
    if kind is not Kind.BETRAY and len(hand) - betrays >= DEALT_PER_PLAYER:
        return Verdict.illegal("EH-SETUP-HANDS", f"{by} has tapped in {DEALT_PER_PLAYER} cards of the draw deck; the fourth is a Betray card",
                               "tap your Betray card")
    if m.card not in state.unseen:  # worded the same wherever the card is: this names no pile
        return Verdict.illegal("EH-SETUP-HANDS", f"{card_name(state, m.card)} is not a card {by} could have been dealt",
                               "check the card and tap it again")
    return _LEGAL


def apply_dealt(state: State, m: Dealt) -> State:
    by = m.by or ""
    state = state.but(hands={**state.hands, by: state.hands[by] + (m.card,)}, unseen=state.unseen - {m.card})
    if not still_to_deal(state):
        state = state.but(phase=Phase.EXPLORE)
    return state


def check_flip(state: State, m: Flip) -> Verdict:
    """EH-NEXT-MAIN at a live table: the next main puzzle turned up, named once."""
    if not state.needs_flip():
        what = "the main puzzle is face up already" if state.main else "no main puzzle is left to turn up"
        return Verdict.illegal("EH-NEXT-MAIN", what, "take the flip back")
    if state.cards.kind_of(m.card) is not Kind.MAIN:
        return Verdict.illegal("EH-NEXT-MAIN", f"{card_name(state, m.card)} is not a main puzzle", "tap the main puzzle turned up")
    if m.card not in state.unseen:
        return Verdict.illegal("EH-NEXT-MAIN", f"{card_name(state, m.card)} was turned up before", "tap the main puzzle turned up now")
    return _LEGAL


def apply_flip(state: State, m: Flip) -> State:
    return state.but(main=(m.card,), main_hidden=state.main_hidden - 1, unseen=state.unseen - {m.card})


# -- unknown piles ---------------------------------------------------------------------------------


def may_draw_unnamed(state: State, room: str, card: str) -> bool:
    """Could ``card`` be one of the cards of ``room``'s deck that nobody has named yet?"""
    return (
        room != MAIN_ROOM
        and state.hidden_in.get(room, 0) > 0
        and card in state.unseen
        and state.cards.kind_of(card) in DECK_KINDS
    )


def take_from_deck(state: State, room: str, card: str) -> State:
    """``card`` leaves ``room``'s deck: a card put back, else one nobody had named yet."""
    deck = state.decks[room]
    if card in deck:
        i = deck.index(card)
        return state.but(decks={**state.decks, room: deck[:i] + deck[i + 1 :]})
    return state.but(hidden_in={**state.hidden_in, room: state.hidden_in[room] - 1}, unseen=state.unseen - {card})


def unnamed_side_room(state: State, puzzle: str, room: str) -> bool:
    """Could ``puzzle`` be the face-down side puzzle of ``room``, which nobody has named yet?"""
    return (
        room in state.rooms
        and room not in state.puzzles
        and room not in state.cleared
        and puzzle in state.unseen
        and state.cards.kind_of(puzzle) is Kind.SIDE
    )
