"""The picks Escape Master declares for its own move fields (:class:`companion.core.picks.Pick`)."""

from __future__ import annotations

from companion.core.picks import Pick

PILE = Pick("pile", 'A central pile (or ``"new"``).')

PICKS: tuple[Pick, ...] = (PILE,)
"""Every pick of Escape Master's own (the generic ones are :data:`companion.core.picks.GENERIC`)."""
