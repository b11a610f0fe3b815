"""Escape Master (Zily Creative Works): a real-time shedding card game, refereed from the readers.

The registry finds the game as ``GAME`` (id ``escape-master``); docs/games/escape-master.md is its
rules catalogue, options, notation and sensors.
"""

from __future__ import annotations

from .engine import EscapeMaster

GAME = EscapeMaster()

__all__ = ["GAME", "EscapeMaster"]
