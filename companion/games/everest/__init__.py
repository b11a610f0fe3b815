"""Everest, a piecepack game for four yeti by Mark A. Biggar (registry id "everest")."""

from companion.games.everest.engine import GAME_INSTANCE as GAME
from companion.games.everest.engine import Everest

__all__ = ["GAME", "Everest"]
