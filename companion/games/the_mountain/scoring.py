"""Scoring (TM-SCORE, TM-NIGHTMARE) and the end of the game (TM-WIN, TM-LOSE)."""

from __future__ import annotations

import logging

from companion.core import Outcome
from .state import MountainState

logger = logging.getLogger(__name__)

SURVIVAL = 15
NIGHTMARE_BONUS = 5
THREATS_IN_PLAY = 12


def score(state: MountainState) -> int:
    """Survival: 15 + 1 per remaining health; otherwise 1 per threat defeated; Nightmare adds 5.

    While the game goes on this is what the player would have if they fell now.
    """
    bonus = NIGHTMARE_BONUS if state.options.nightmare else 0
    if state.result == "won":
        return SURVIVAL + len(state.health) + bonus
    return THREATS_IN_PLAY - state.threats_left + bonus


def outcome(state: MountainState) -> Outcome | None:
    if state.result is None:
        return None
    won = state.result == "won"
    reason = "the last threat fell" if won else "a threat attack found no health to discard"
    return Outcome((state.player,) if won else (), reason, {"won": won, "score": score(state)})
