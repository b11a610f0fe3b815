"""Card and pyramid-position names for The Mountain (NOTATION.md "Card names", "The Mountain").

Cards are the standard deck without jokers: rank ``A 2 .. 10 J Q K`` + suit ``S H D C`` (``10H``,
``QS``, ``AC``). Threats are the face cards. Pyramid positions are ``"r-i"``: row r = 1..6 (row 1 is
the peak), i = 1..r. Inside the engine a position is a slot number 0..20, row by row.
"""

from __future__ import annotations

import logging

logger = logging.getLogger(__name__)

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: tuple[str, ...] = ("S", "H", "D", "C")
SUIT_NAMES: dict[str, str] = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
THREAT_RANKS: frozenset[str] = frozenset({"J", "Q", "K"})

DECK: tuple[str, ...] = tuple(rank + suit for suit in SUITS for rank in RANKS)
RANK_OF: dict[str, str] = {rank + suit: rank for suit in SUITS for rank in RANKS}
SUIT_OF: dict[str, str] = {rank + suit: suit for suit in SUITS for rank in RANKS}
THREATS: frozenset[str] = frozenset(card for card in DECK if RANK_OF[card] in THREAT_RANKS)

ROWS = 6
SLOTS = ROWS * (ROWS + 1) // 2  # 21 cards in the pyramid

POSITIONS: tuple[str, ...] = tuple(f"{r}-{i}" for r in range(1, ROWS + 1) for i in range(1, r + 1))
SLOT_OF: dict[str, int] = {name: slot for slot, name in enumerate(POSITIONS)}
ROW_COL: tuple[tuple[int, int], ...] = tuple((r, i) for r in range(1, ROWS + 1) for i in range(1, r + 1))


def slot_at(row: int, col: int) -> int:
    """The slot number of position (row, col), both counted from 1."""
    return row * (row - 1) // 2 + col - 1


def is_threat(card: str) -> bool:
    return card in THREATS


def check_card(name: str) -> str:
    """The card name itself, or ValueError naming the bad name (the notation reports it)."""
    if name not in RANK_OF:
        raise ValueError(f'"{name}" is not a card (rank A 2..10 J Q K + suit S H D C, e.g. "10H", "QS")')
    return name


def check_position(name: str) -> str:
    """The position name itself, or ValueError naming the bad name."""
    if name not in SLOT_OF:
        raise ValueError(f'"{name}" is not a pyramid position (row-index, "1-1" to "6-6")')
    return name


def describe(card: str) -> str:
    """``the 7H``: how a sentence names a card."""
    return f"the {card}"
