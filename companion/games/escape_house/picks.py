"""The picks Escape House declares for its own move fields (:class:`companion.core.picks.Pick`)."""

from __future__ import annotations

from companion.core.picks import Pick

ROOM = Pick("room", "A room of the house.")

PICKS: tuple[Pick, ...] = (ROOM,)
"""Every pick of Escape House's own (the generic ones are :data:`companion.core.picks.GENERIC`)."""
