"""The Mountain by tapping: the moves worth offering, and each field's values as the table shows them.

The player's values come from what the player has seen: the hand, the face-up mountain and health
pile, and the discard pile (every card on it passed through the hand or lay face up on the
mountain). A card the player has not seen is a card the stock may hold: in this solitaire game that
is exactly the stock, but it is worked out from the seen cards, never read from the face-down pile.
Anyone else at the table has seen only what the scoreboard shows, so the hand is unseen to them.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping, Sequence
from itertools import combinations
from typing import Any

from companion.core import Move
from companion.core.picks import Choice, FieldSpec, Pick
from companion.core.setup_form import SetupField, SetupForm
from .cards import DECK, POSITIONS, RANKS, ROWS, SLOTS, SUIT_NAMES, SUITS, THREATS
from .entry_acts import face_choices, set_candidates
from .moves import Discard, Draw, EndTurn, Skip
from .picks import PILE, PYRAMID_SLOT
from .state import MountainState, Phase

logger = logging.getLogger(__name__)

SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SINGLE_CHOICES: tuple[str, ...] = tuple(f"rank:{r}" for r in RANKS) + tuple(f"suit:{s}" for s in SUITS)
"""Every word a spade set may choose (TM-SPADES)."""


def card_label(card: str) -> str:
    """``"Q♠"``: a card as the table reads it."""
    return card[:-1] + SYMBOLS[card[-1]]


def choice_label(choice: str) -> str:
    """``"rank:7"`` -> ``"7s"``; ``"suit:H"`` -> ``"♥ hearts"``."""
    kind, _, value = choice.partition(":")
    return f"{value}s" if kind == "rank" else f"{SYMBOLS[value]} {SUIT_NAMES[value]}"


def _card(card: str, note: str = "") -> Choice:
    return Choice(card, card_label(card) + note, card)


def _may_act(state: MountainState) -> bool:
    """Sets and the skip come after a full hand, unless the stock is empty (TM-DRAW-FIRST)."""
    return state.phase is Phase.ACTIONS or len(state.hand) >= state.hand_limit or not state.stock


def candidates(state: MountainState, by: str | None) -> Iterator[Move]:
    """Every move ``by`` could make now; a draw from the stock ranges over every card it could be."""
    if state.result is not None or by is None or by != state.player:
        return
    if state.phase is Phase.DISCARD:
        for size in range(1, len(state.hand) + 1):
            for cards in combinations(state.hand, size):
                yield Discard(by=by, cards=cards)
    if state.phase is not Phase.ACTIONS and len(state.hand) < state.hand_limit:
        for card in _drawable_health(state):
            yield Draw(by=by, card=card, from_="health")
        for card in DECK:
            if card in state.stock:
                yield Draw(by=by, card=card, from_="stock")
    if state.phase is Phase.ACTIONS:
        yield EndTurn(by=by)
    if not _may_act(state) or state.skipped:
        return
    if len(state.acted) < 2:
        yield from set_candidates(state, by)
    if not state.acted:
        for slot in state.geo.exposed(state.mountain):
            yield Skip(by=by, target=POSITIONS[slot])


def _drawable_health(state: MountainState) -> tuple[str, ...]:
    """The health cards a draw may take: the top, or any with ``health_draw: any`` (TM-HEALTH-DRAW)."""
    return state.health[:1] if state.options.health_draw == "top" else state.health


def unseen(state: MountainState, viewer: str) -> list[str]:
    """The cards ``viewer`` has not seen, in deck order. The player has seen the hand, the face-up
    mountain and health pile, and the discard pile; anyone else only what the scoreboard shows."""
    seen = set(state.health) | {c for c in state.mountain if c is not None}
    if viewer == state.player:
        seen |= set(state.hand) | set(state.discard)
    return [c for c in DECK if c not in seen]


def choices(state: MountainState, viewer: str | None, by: str | None, pick: Pick, every: bool) -> Sequence[Choice] | None:
    """The values of a field drawn from ``pick``, as ``viewer`` (None: the referee) knows the table;
    ``every``: the whole domain (the deck, all 21 slots, every spade choice)."""
    if pick in (Pick.HAND_CARD, Pick.UNSEEN_CARD) and every:
        return [_card(c) for c in DECK]
    if pick is Pick.HAND_CARD:
        whose = by if viewer is None else viewer
        return [_card(c) for c in state.hand] if whose == state.player else []
    if pick is Pick.UNSEEN_CARD:
        # A draw names a card of the stock or, from the health pile, its (public) top.
        stock = [c for c in DECK if c in state.stock] if viewer is None else unseen(state, viewer)
        return [_card(c, " · health pile") for c in _drawable_health(state)] + [_card(c) for c in stock]
    if pick is PYRAMID_SLOT:
        return _slots(state, every)
    if pick is PILE:
        top = f" (top {card_label(state.health[0])})" if state.health else " (empty)"
        return [Choice("stock", f"stock ({len(state.stock)} face down)"), Choice("health", "health pile" + top)]
    if pick is Pick.WORD:
        return _choose(state, every)
    return None


def _slots(state: MountainState, every: bool) -> list[Choice]:
    """The 21 positions "r-i", labelled with the card on each; a removed one only for ``every``."""
    out = []
    for slot in range(SLOTS):
        card = state.mountain[slot]
        if card is not None:
            out.append(Choice(POSITIONS[slot], f"{POSITIONS[slot]} {card_label(card)}", card))
        elif every:
            out.append(Choice(POSITIONS[slot], f"{POSITIONS[slot]} (empty)"))
    return out


def _choose(state: MountainState, every: bool) -> list[Choice]:
    """A spade set's choice: one rank or suit, or for a triple two in order (one value, one tap).

    Without ``every``: the ranks and suits the mountain shows; ``every``: all 17 words and all pairs.
    """
    singles = list(SINGLE_CHOICES) if every else face_choices(state.mountain)
    out = [Choice(c, choice_label(c)) for c in singles]
    for one in singles:
        for two in singles:
            if every or one != two:
                out.append(Choice([one, two], f"{choice_label(one)}, then {choice_label(two)}"))
    return out


# -- setting up by taps (companion.core.setup_form) --------------------------------------------------
# Everything The Mountain's setup names lies face up: the pyramid and the health pile. The stock
# stays face down and unknown until a card is drawn from it.


def _setup_choices(players: Sequence[str], options: Mapping[str, Any], values: Mapping[str, Any], name: str, every: bool) -> Sequence[Choice]:
    used = set(values.get("mountain") or ()) | set(values.get("health") or ())
    if name == "mountain":  # all 12 threats go into the mountain (TM-SETUP): offered first
        order = sorted(DECK, key=lambda c: (c not in THREATS, DECK.index(c)))
        return [_card(c) for c in order if c not in used]
    if name == "health":
        return [_card(c) for c in DECK if c not in used and (every or c not in THREATS)]
    return []


def _setup_build(players: Sequence[str], options: Mapping[str, Any], values: Mapping[str, Any]) -> dict[str, Any]:
    """The pyramid tapped row by row from the peak (21 cards) and the health pile top first (10)."""
    flat = list(values.get("mountain") or ())
    rows, at = [], 0
    for r in range(1, ROWS + 1):
        rows.append(flat[at : at + r])
        at += r
    return {"mountain": rows, "health": list(values.get("health") or ())}


SETUP_FORM = SetupForm(
    (
        SetupField("mountain", FieldSpec.list_of(Pick.PUBLIC_CARD, SLOTS, SLOTS), "The mountain, row by row from the peak (21 cards)"),
        SetupField("health", FieldSpec.list_of(Pick.PUBLIC_CARD, 10, 10), "The health pile, top first (10 cards)"),
    ),
    _setup_choices,
    _setup_build,
)
"""The Mountain's setup as the console taps it: the face-up cards only."""
