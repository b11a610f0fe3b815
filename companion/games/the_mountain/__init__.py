"""The Mountain (solitaire): a 21-card pyramid of threats, a health pile, sets of one suit as actions.

Rules: shared/rules/the-mountain.md, geometry from rules/GAPS.md; catalogue in docs/games/the-mountain.md.
"""

from __future__ import annotations

from .engine import TheMountain

GAME = TheMountain()

__all__ = ["GAME", "TheMountain"]
