"""Escape House (6-8 players): a semi-cooperative escape through a house of puzzles.

The card list is data (``*_set.json`` in this package, loaded by :func:`load_card_set`); the rules
catalogue and notation are in docs/games/escape-house.md.
"""

from .cardset import load_card_set, shipped_sets
from .engine import GAME, EscapeHouse
from .options import EscapeHouseOptions

__all__ = ["GAME", "EscapeHouse", "EscapeHouseOptions", "load_card_set", "shipped_sets"]
