"""The Mountain's options: the rulebook's Nightmare mode and every GAPS.md default as a setting."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Literal

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class MountainOptions:
    """Every field has the rulebook's value or the GAPS.md default (GAME.md)."""

    nightmare: bool = field(
        default=False,
        metadata={"doc": "Nightmare mode (rulebook): hand size 4 instead of 5, and 5 points added to the score."},
    )
    geometry: Literal["pyramid", "peak_on_top"] = field(
        default="pyramid",
        metadata={
            "doc": 'GAPS.md default "pyramid": row 6 lies on top and card (r, i) is covered by (r+1, i) and '
            '(r+1, i+1). "peak_on_top": row 1 lies on top and card (r, i) is covered by (r-1, i-1) and (r-1, i).'
        },
    )
    neighbours: Literal["row_or_cover", "row_only"] = field(
        default="row_or_cover",
        metadata={
            "doc": 'GAPS.md default "row_or_cover": two cards are neighbours when side by side in one row or '
            'when one covers the other. "row_only": only side by side in one row.'
        },
    )
    chain_link: Literal["previous", "any_earlier"] = field(
        default="previous",
        metadata={
            "doc": 'GAPS.md default "previous": each card of a Clubs chain neighbours the card removed just before '
            'it. "any_earlier": it neighbours any card removed earlier in the same chain.'
        },
    )
    spades_cascade: bool = field(
        default=True,
        metadata={
            "doc": "GAPS.md default true: Spades removal keeps going until no exposed card matches, newly exposed "
            "cards included. false: only the matching cards exposed when the suit or rank is chosen."
        },
    )
    health_draw: Literal["top", "any"] = field(
        default="top",
        metadata={"doc": 'GAPS.md default "top": a draw from the health pile takes its top card. "any": any card.'},
    )
    damage_from: Literal["top", "bottom"] = field(
        default="top",
        metadata={"doc": 'GAPS.md default "top": damage discards health cards from the top of the pile. "bottom": from the bottom.'},
    )
    zero_health_survives: bool = field(
        default=True,
        metadata={
            "doc": "GAPS.md default true: an attack that leaves the health pile at exactly 0 is survived; you lose "
            "only when an attack finds no health to discard. false: reaching 0 health loses."
        },
    )
    short_actions: bool = field(
        default=True,
        metadata={
            "doc": "Engine default true (the rulebook is silent): an action may remove fewer cards than it names "
            "only when no card it could remove next is left (or the last threat has fallen). false: it must be "
            "complete (Hearts still heals from the hand)."
        },
    )

    @property
    def hand_limit(self) -> int:
        """Five cards, four in Nightmare mode."""
        return 4 if self.nightmare else 5
