"""Escape House options: every gap in the rulebook the engine had to fill, with its default.

The rulebook has no variants; each field here is a default we chose where the text is silent
(GAME.md says why for each).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class EscapeHouseOptions:
    draws_per_explore: int = field(
        default=1,
        metadata={
            "doc": "Draws a player may take in one explore phase (room deck or discard pile). The rulebook lists "
            '"2 actions ... draw and trade" without a count; default 1 (each action once).'
        },
    )
    trades_per_explore: int | None = field(
        default=1,
        metadata={
            "doc": "Cards a player may give away in one explore phase; null for no limit. Default 1, read like "
            "draws; receiving is never limited (the rulebook says so)."
        },
    )
    discard_draw_anywhere: bool = field(
        default=False,
        metadata={
            "doc": "May the explore draw from the discard pile be taken from any room? Default false: the pile is "
            '"in the center room", and a draw is made in the room a player is in.'
        },
    )
    traps_fire_from_discard: bool = field(
        default=False,
        metadata={
            "doc": 'Does a trap drawn from the discard pile fire? Default false: traps "only activate if drawn '
            'from an uncleared room", and the discard pile is not a room\'s deck.'
        },
    )
    deck_order_known: bool = field(
        default=True,
        metadata={
            "doc": "Are the setup's room decks and penalty deck listed top card first? Default true: a draw from "
            "an uncleared room must name its top card and a penalty draw the top penalty card. False: any card "
            "in that deck may be named (the table did not record the shuffle)."
        },
    )
    must_play: bool = field(
        default=True,
        metadata={
            "doc": "Must every living player who holds a card (and is not barred) play one before the reveal? "
            'Default true: "When everyone has played a card, reveal them."'
        },
    )
    follow_blocked_by_no_move: bool = field(
        default=True,
        metadata={
            "doc": "Does a card that forbids moving (Door Slam) also forbid following? Default true: following "
            "moves the token just the same."
        },
    )
    check_even_split: bool = field(
        default=True,
        metadata={
            "doc": "Must the setup's side-room decks differ by at most one card? Default true: the rest of the "
            'deck is divided "evenly between the side rooms".'
        },
    )

    def __post_init__(self) -> None:
        if not 0 <= self.draws_per_explore <= 10:
            raise ValueError("draws_per_explore must be from 0 to 10")
        if self.trades_per_explore is not None and not 0 <= self.trades_per_explore <= 50:
            raise ValueError("trades_per_explore must be from 0 to 50, or null for no limit")
