"""Everest options: every GAPS.md default and every gap this engine had to settle, with its default."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from .board import DEFAULT_HOMES, Square


@dataclass(frozen=True)
class EverestOptions:
    notches: Literal["off_board", "table"] = field(
        default="off_board",
        metadata={
            "doc": 'GAPS.md: the four notches (x 1 and 8, y 3-4) are off the board ("off_board", the '
            'default: moving into one is moving off the edge) or table-level squares of height 0 ("table").'
        },
    )
    homes: tuple[Square, ...] = field(
        default=DEFAULT_HOMES,
        metadata={
            "doc": "GAPS.md: the home bases given to the players in seating order when the setup names "
            "none; default (1,5), (8,5), (8,2), (1,2)."
        },
    )
    edge_no_heal_rounds: int = field(
        default=1,
        metadata={
            "doc": "Gap: 'it can not heal until the end of the next round'. How many round ends, counting "
            "the one at which a yeti that went off the edge is returned home, it may not heal at. "
            "1 (default): it may heal again at the end of the next round; 2: not until the round after."
        },
    )
    edge_sets_aside_all: bool = field(
        default=False,
        metadata={
            "doc": "Gap: a yeti off the edge is returned home 'but does not get any of its coins back'. "
            "False (default): coins already set aside stay aside and the round's damage is set aside as "
            "usual; True: the yeti sets aside all its coins."
        },
    )
    pushed_fall_damage: bool = field(
        default=True,
        metadata={
            "doc": "Gap: a yeti pushed (by a yeti or a snowball) off a cliff falls and takes damage, as "
            "'whenever a yeti falls off a cliff' says (default True); False: only a yeti falling on its "
            "own move takes the fall damage."
        },
    )

    def __post_init__(self) -> None:
        if self.edge_no_heal_rounds < 1:
            raise ValueError("edge_no_heal_rounds must be 1 or more")
        if len(self.homes) < 2:
            raise ValueError("homes must name at least two squares")
