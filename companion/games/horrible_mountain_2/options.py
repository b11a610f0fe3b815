"""Options: the rulebook's Optional Variant and every GAPS.md default, each a field with its default."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal


@dataclass(frozen=True)
class Options:
    once_per_game_actions: bool = field(
        default=False,
        metadata={
            "doc": "The Optional Variant: once per game the Evil Master may examine the adventurer's hand "
            "(examine) and the adventurer may take any card from the Discard Pile (search_discard)."
        },
    )
    cube_follows: Literal["slot"] = field(
        default="slot",
        metadata={
            "doc": "GAPS.md: the cube on a Table Card stays with the slot when its card is replaced or "
            "swapped. The only reading that keeps one cube of each colour on a Table Card, so the only value."
        },
    )
    short_hand: Literal["score", "none"] = field(
        default="score",
        metadata={
            "doc": 'GAPS.md: a hand of fewer than five cards still scores its best combination ("score"; '
            'a pair is 2, nothing is -1). "none": a hand of fewer than five cards is none of the above (-1).'
        },
    )
    hand_tiebreak: Literal["poker", "points"] = field(
        default="poker",
        metadata={
            "doc": 'Tie on points, "the best poker hand wins": "poker" compares two hands of the same kind by '
            'poker ranks (a full house of 5s beats one of 3s, then kickers); "points" compares only the '
            "points of the hand table, so two full houses are equal and the tie goes on to Control Cubes."
        },
    )
