"""The picks Everest declares for its own move fields (:class:`companion.core.picks.Pick`)."""

from __future__ import annotations

from companion.core.picks import Choice, Part, Pick
from .board import DIRECTIONS, VECTORS

COIN = Pick("coin", "A coin of the player's set.", own_to_each_player=True)

ARROWS = {"N": "↑", "E": "→", "S": "↓", "W": "←"}

PLANNED_PARTS = (
    # the coin's own name as the table says it (the coins are COINS in moves.py: blank, ace, 2..5)
    Part("coin", "Which coin?", tuple(Choice(c, c) for c in ("blank", "ace", "2", "3", "4", "5"))),
    Part("face", "Which side up?", (
        Choice("value", "value side: move (a blank roars)"),
        Choice("suit", "suit side: snowball"),
    )),
    # a compass rose laid out as the height map draws the board: north (y up) at the top, east right
    Part("dir", "Which way does it point?", tuple(Choice(d, f"{ARROWS[d]} {d}") for d in DIRECTIONS),
         hint="compass", places=tuple(VECTORS[d] for d in DIRECTIONS)),
)
"""A planned coin, a part at a time (EV-PLAN-COINS): the coin, the side up, where its tick mark points."""

PLANNED_COIN = Pick(
    "planned_coin", "A coin laid in a plan: which coin, face up or down, and its direction.", parts=PLANNED_PARTS,
)

PICKS: tuple[Pick, ...] = (COIN, PLANNED_COIN)
"""Every pick of Everest's own (the generic ones are :data:`companion.core.picks.GENERIC`)."""
