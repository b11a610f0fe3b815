"""The picks The Mountain declares for its own move fields (:class:`companion.core.picks.Pick`)."""

from __future__ import annotations

from companion.core.picks import Pick

PYRAMID_SLOT = Pick("pyramid_slot", 'A position in the pyramid (``"r-i"``).')
PILE = Pick("pile", "The pile a card is drawn from: the stock or the health pile.")

PICKS: tuple[Pick, ...] = (PYRAMID_SLOT, PILE)
"""Every pick of The Mountain's own (the generic ones are :data:`companion.core.picks.GENERIC`)."""
