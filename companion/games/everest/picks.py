"""The picks Everest declares for its own move fields (:class:`companion.core.picks.Pick`)."""

from __future__ import annotations

from companion.core.picks import Pick

COIN = Pick("coin", "A coin of the player's set.", own_to_each_player=True)
PLANNED_COIN = Pick("planned_coin", "A coin laid in a plan: which coin, face up or down, and its direction.")

PICKS: tuple[Pick, ...] = (COIN, PLANNED_COIN)
"""Every pick of Everest's own (the generic ones are :data:`companion.core.picks.GENERIC`)."""
