"""Horrible Mountain 2 by tapping: the moves worth offering, and each field's values as a seat sees them."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations, permutations

from companion.core import Move
from companion.entry.picks import Choice, Pick
from companion.games.horrible_mountain_2.cards import COLOURS, DECK, PLACE_PAIRS, SLOTS, sort_cards
from companion.games.horrible_mountain_2.moves import (
    ClaimCube,
    Discard,
    Draw,
    Examine,
    Place,
    SearchDiscard,
    Swap,
    SwapCubes,
    TakeDiscard,
    TakeTable,
)
from companion.games.horrible_mountain_2.state import Phase, State

_SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def card_label(card: str) -> str:
    return card[:-1] + _SUITS.get(card[-1], card[-1])


def _card(card: str) -> Choice:
    return Choice(card, card_label(card), card)


def candidates(state: State, by: str | None) -> Iterator[Move]:
    """Every move ``by`` could make now; draws and refills range over the cards the Draw Pile may hold."""
    seat = state.seat(by)
    if state.phase is Phase.OVER or seat is None:
        return
    hand = sort_cards(state.hands[seat])
    if state.phase is Phase.PLACE:
        for pair in PLACE_PAIRS:
            for slots in permutations(sorted(pair)):
                yield Place(by=by, slots=(slots[0], slots[1]))
        return
    if state.must_discard:
        for card in hand:
            yield Discard(by=by, card=card)
        return
    pile = sort_cards(state.draw_pile)
    for card in pile:
        yield Draw(by=by, card=card)
    for card in hand:
        for slot in SLOTS:
            yield Swap(by=by, card=card, slot=slot)
    for cube in sorted(state.control[seat]):
        for card in pile:
            yield TakeTable(by=by, cube=cube, replacement=card)  # type: ignore[arg-type]
        if state.discard_top is not None:
            yield TakeDiscard(by=by, cube=cube)  # type: ignore[arg-type]
        for card in sort_cards(state.discard_unordered):
            yield TakeDiscard(by=by, cube=cube, card=card)  # type: ignore[arg-type]
    for two in permutations(hand, 2):  # the order says which card ends on top of the Discard Pile
        for slots in combinations(SLOTS, 2):
            yield SwapCubes(by=by, cards=two, slots=slots)
        for cube in sorted(state.cube_pile):
            yield ClaimCube(by=by, cards=two, cube=cube)  # type: ignore[arg-type]
    if state.options.once_per_game_actions:
        yield Examine(by=by)
        for card in sort_cards(state.discard_cards()):
            yield SearchDiscard(by=by, card=card)


def choices(state: State, viewer: str | None, by: str | None, pick: Pick, every: bool) -> Sequence[Choice] | None:
    if pick in (Pick.HAND_CARD, Pick.UNSEEN_CARD, Pick.PUBLIC_CARD) and every:
        return [_card(c) for c in DECK]
    if pick is Pick.HAND_CARD:
        seat = state.seat(by if viewer is None else viewer)
        return [] if seat is None else [_card(c) for c in sort_cards(state.hands[seat])]
    if pick is Pick.PUBLIC_CARD:
        return [_card(c) for c in sort_cards(state.discard_cards())]
    if pick is Pick.UNSEEN_CARD:
        if viewer is None:
            return [_card(c) for c in sort_cards(state.draw_pile)]
        seat = state.seat(viewer)
        seen = set(state.table) | set(state.discard_cards())
        if seat is not None:
            seen |= state.hands[seat]
        return [_card(c) for c in DECK if c not in seen]
    if pick is Pick.SLOT:
        return [Choice(s, f"slot {s} ({card_label(state.table[s - 1])})", state.table[s - 1]) for s in SLOTS]
    if pick is Pick.CUBE:
        return [Choice(c, c) for c in COLOURS]
    return None

