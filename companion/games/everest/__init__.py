"""Everest, a piecepack game for four yeti by Mark A. Biggar (registry id "everest")."""

from .engine import GAME_INSTANCE as GAME
from .engine import Everest

__all__ = ["GAME", "Everest"]
