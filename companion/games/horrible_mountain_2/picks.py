"""The picks Horrible Mountain 2 declares for its own move fields (:class:`companion.core.picks.Pick`)."""

from __future__ import annotations

from companion.core.picks import Pick

SLOT = Pick("slot", "A numbered Table Card slot.")
CUBE = Pick("cube", "A cube colour.")

PICKS: tuple[Pick, ...] = (SLOT, CUBE)
"""Every pick of Horrible Mountain 2's own (the generic ones are :data:`companion.core.picks.GENERIC`)."""
