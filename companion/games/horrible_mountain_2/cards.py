"""The Horrible Mountain 2 components: 20 Poker Cards (ranks 2-6 in four suits) and 10 cubes.

Card names follow NOTATION.md: rank then suit, ``4H``. Cube colours are the five of the box.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Literal, get_args

RANKS: tuple[int, ...] = (2, 3, 4, 5, 6)
SUITS: tuple[str, ...] = ("S", "H", "D", "C")
DECK: tuple[str, ...] = tuple(f"{rank}{suit}" for rank in RANKS for suit in SUITS)
DECK_SET: frozenset[str] = frozenset(DECK)

Colour = Literal["red", "orange", "yellow", "green", "blue"]
COLOURS: tuple[str, ...] = get_args(Colour)

SLOTS: tuple[int, ...] = (1, 2, 3, 4, 5)
"""Table Card slots, numbered 1-5; at setup slot ``i`` holds the card of rank ``i + 1``."""

CENTRE_SLOT = 3
"""The slot of the 4 at setup, where the centre colour's cube goes (setup step 3)."""

PLACE_PAIRS: tuple[frozenset[int], ...] = (frozenset({1, 5}), frozenset({2, 4}))
"""The two slot pairs a player's cubes go on at setup: the 2 and 6, or the 3 and 5."""

_CARD = re.compile(r"^([2-6])([SHDC])$")


def is_card(name: object) -> bool:
    return isinstance(name, str) and name in DECK_SET


def rank(card: str) -> int:
    """The rank of a card name already known to be valid (``"4H"`` -> 4)."""
    return ord(card[0]) - 48


def suit(card: str) -> str:
    return card[1]


def card_problem(name: str) -> str | None:
    """None for a valid card name, else one sentence saying what is wrong with it."""
    if _CARD.match(name):
        return None
    return f'"{name}" is not a Horrible Mountain card (ranks 2-6 and a suit S, H, D or C, like "4H")'


def setup_rank(slot: int) -> int:
    """The rank the Table Card on ``slot`` has at setup."""
    return slot + 1


def sort_cards(cards: Iterable[str]) -> list[str]:
    """Cards in a stable, readable order: by rank, then suit (S, H, D, C)."""
    return sorted(cards, key=lambda c: (rank(c), SUITS.index(suit(c))))
