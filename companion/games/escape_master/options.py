"""Escape Master's options: the rulebook's variants, its numbers, and every gap as a setting."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class EscapeMasterOptions:
    """Every field has the rulebook's value or the default GAME.md explains."""

    breaking_point: int = field(
        default=30,
        metadata={"doc": "Rulebook: the game ends when a player has this many faults or more at the end of a round."},
    )
    hand_size: int = field(
        default=10,
        metadata={"doc": "Rulebook: the dealer deals 10 cards to each player (before leader and Story changes)."},
    )
    fixed_rounds: int | None = field(
        default=None,
        metadata={"doc": "Variant 'Festgelegte Runden': play this many rounds instead of to the Breaking Point."},
    )
    early_end_doom_pile: bool = field(
        default=False,
        metadata={
            "doc": "Variant 'Frühes Ende': a Doom Master card left in a hand at round end goes to the Doom pile "
            "and out of the deck; when the Doom pile holds them all, the game ends."
        },
    )
    teams: tuple[tuple[str, str], ...] | None = field(
        default=None,
        metadata={"doc": "Variant 'Escape Alliance': teams of two, e.g. [[\"anna\", \"carl\"], [\"ben\", \"dora\"]]."},
    )
    beaten_window_s: float = field(
        default=1.0,
        metadata={
            "doc": "A play that no longer fits a pile but fitted it before another player's play at most this "
            "many seconds earlier was beaten to the pile (EM-BEATEN) rather than simply wrong (EM-PILE)."
        },
    )
    combo_window_s: float = field(
        default=1.0,
        metadata={
            "doc": "Readers: the second card of a combination must reach the pile within this many seconds of "
            "the first (interpret() pairs them; a single play can be completed into a face-card pair)."
        },
    )
    out_window_s: float = field(
        default=0.5,
        metadata={
            "doc": "Gap: after 'Escape Master!' everyone stops at once, but a play stamped no later than this "
            "after the call still counts (players who get out at the same moment)."
        },
    )
    start_card_on_pile: bool = field(
        default=False,
        metadata={"doc": "Gap: may a start card (worth 7) be played onto a pile at 6 or 8? Default no: start cards start piles."},
    )
    wisdom_on_wisdom: bool = field(
        default=True,
        metadata={"doc": "Gap: may a Wisdom go on a Wisdom? The rulebook says 'on any numbered card'; default yes (both wild)."},
    )
    start_card_blocks_draw: bool = field(
        default=True,
        metadata={
            "doc": "Gap: does holding a start card (always playable: it starts a pile) forbid drawing? Default yes."
        },
    )
    tie_extra_round: bool = field(
        default=True,
        metadata={"doc": "Rulebook: players tied for the win play one extra round to decide. false: they share the win."},
    )
    xp_cap: int = field(default=4, metadata={"doc": "Rulebook: never more than 4 XP stored; more is lost."})
    beast_cost_xp: int = field(default=2, metadata={"doc": "Rulebook: unlocking Beast Mode returns 2 XP to the STORY deck."})
    check_deal_size: bool = field(
        default=True,
        metadata={
            "doc": "At Start!, check every hand holds hand_size cards, adjusted by leader abilities, Beast Mode and "
            "Story cards in effect. false: any deal."
        },
    )
    faults_floor_zero: bool = field(
        default=True,
        metadata={"doc": "Gap: Story cards that take faults off a score never take it below 0."},
    )
    deck_file: str = field(default="deck.json", metadata={"doc": "Deck counts (data; the scan is garbled)."})
    leaders_file: str = field(default="leaders.json", metadata={"doc": "Escape Leader abilities by tribe (data)."})
    story_file: str = field(default="story.json", metadata={"doc": "Story cards: XP and effects (data)."})
