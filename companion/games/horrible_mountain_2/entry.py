"""Horrible Mountain 2 by tapping: the moves worth offering, and each field's values as a seat sees them."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from itertools import combinations, permutations
from typing import Any

from companion.core import Move
from companion.core.picks import Choice, FieldSpec, Pick
from companion.core.setup_form import SetupField, SetupForm
from .cards import COLOURS, DECK, PLACE_PAIRS, SLOTS, rank, sort_cards
from .moves import (
    ClaimCube,
    Dealt,
    Discard,
    Draw,
    Examine,
    Place,
    SearchDiscard,
    Swap,
    SwapCubes,
    TakeDiscard,
    TakeTable,
    Withdraw,
)
from .checks import finishes
from .picks import CUBE, SLOT
from .state import Phase, State, unlaid

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
    if state.phase is Phase.DEAL:
        for card in sort_cards(state.draw_pile):
            yield Dealt(by=by, card=card)
        return
    if state.phase is Phase.PLACE:
        for pair in PLACE_PAIRS:
            for slots in permutations(sorted(pair)):
                yield Place(by=by, slots=(slots[0], slots[1]))
        return
    if state.must_discard:
        for card in hand:
            yield Discard(by=by, card=card)
        return
    if state.lifted is not None:  # Take a Discard under way at the table: pay a cube or put the card back
        named = None if state.lifted == state.discard_top else state.lifted
        for cube in sorted(state.control[seat]):
            yield TakeDiscard(by=by, cube=cube, card=named)  # type: ignore[arg-type]
        yield Withdraw(by=by, card=state.lifted)
        return
    if state.laid:  # Swap Cubes or Claim a Cube under way at the table: finish it or take its cards back
        yield from (move.replace(by=by) for move in finishes(unlaid(state), state.laid))
        for card in state.laid:
            yield Withdraw(by=by, card=card)
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
        unordered = state.discard_unordered
        if unordered:  # and, as far as this seat knows, the card a secret search took may still be there
            unordered = unordered | (state.discard_as_seen(seat) - state.discard_cards())
        for card in sort_cards(unordered):
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
        return [_card(c) for c in sort_cards(state.discard_as_seen(state.seat(viewer)))]
    if pick is Pick.UNSEEN_CARD:
        if viewer is None:
            return [_card(c) for c in sort_cards(state.draw_pile)]
        seat = state.seat(viewer)
        seen = set(state.table) | set(state.discard_as_seen(state.seat(viewer)))
        if seat is not None:
            seen |= state.hands[seat]
        return [_card(c) for c in DECK if c not in seen]
    if pick is SLOT:
        return [Choice(s, f"slot {s} ({card_label(state.table[s - 1])})", state.table[s - 1]) for s in SLOTS]
    if pick is CUBE:
        return [Choice(c, c) for c in COLOURS]
    return None


# -- setting up by taps (companion.core.setup_form) --------------------------------------------------

_SETUP_FIELDS = ("evil_master", "table", "cubes", "centre")


def _setup_choices(players: Sequence[str], options: Mapping[str, Any], values: Mapping[str, Any], name: str, every: bool) -> Sequence[Choice]:
    if name == "evil_master":
        return [Choice(p, p) for p in players]
    if name == "table":  # the Table Cards, slot by slot: a 2, a 3, ... a 6 (HM2-SETUP-TABLE)
        laid = values.get("table") or []
        wanted = len(laid) + 2
        return [_card(c) for c in DECK if (every or rank(c) == wanted) and c not in laid]
    taken = {c for pair in (values.get("cubes") or {}).values() for c in pair}
    if name == "cubes":
        return [Choice(c, c) for c in COLOURS if c not in taken]
    if name == "centre":  # the colour left over
        return [Choice(c, c) for c in COLOURS if every or c not in taken]
    return []


def _setup_build(players: Sequence[str], options: Mapping[str, Any], values: Mapping[str, Any]) -> dict[str, Any]:
    """A live table's setup: the hands are tapped in by each player (``dealt``), never here."""
    setup = {k: values[k] for k in _SETUP_FIELDS if k in values}
    cubes = values.get("cubes") or {}
    taken = {c for pair in cubes.values() for c in pair}
    left = [c for c in COLOURS if c not in taken]
    if "centre" not in setup and len(left) == 1:
        setup["centre"] = left[0]
    return setup


SETUP_FORM = SetupForm(
    (
        SetupField("evil_master", FieldSpec.one(Pick.PLAYER), "Who is the Evil Master", rotates=True),
        SetupField("table", FieldSpec.list_of(Pick.PUBLIC_CARD, 5, 5), "The Table Cards, slot 1 (a 2) to slot 5 (a 6)"),
        SetupField("cubes", FieldSpec.by_player(CUBE, 2, 2), "Each player's two cube colours"),
        SetupField("centre", FieldSpec.one(CUBE), "The colour left over (on the 4 and in the Cube Pile)"),
    ),
    _setup_choices,
    _setup_build,
)
"""Horrible Mountain 2's setup as the console taps it; each player's three cards come by ``dealt``."""
