"""Scoring (TM-SCORE, TM-NIGHTMARE) and the end of the game (TM-WIN, TM-LOSE)."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from companion.core import JsonObject, Outcome, Termination
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


@dataclass(frozen=True)
class Result:
    """The end of a Mountain climb: won or not, and the score (TM-SCORE)."""

    won: bool
    score: int

    def to_json(self) -> JsonObject:
        return {"won": self.won, "score": self.score}


def outcome(state: MountainState) -> Outcome | None:
    """TM-WIN: the last threat falls; TM-LOSE: a threat attack finds no health to discard."""
    if state.result is None:
        return None
    won = state.result == "won"
    return Outcome(Termination.GOAL if won else Termination.OVERRUN, (state.player,) if won else (), Result(won, score(state)))
