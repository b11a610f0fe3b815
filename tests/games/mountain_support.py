"""Positions for The Mountain's tests: the example deal, a hand drawn, a mountain set by hand."""

from __future__ import annotations

from typing import Any

from companion.core import Verdict
from companion.games.the_mountain import GAME
from companion.games.the_mountain.cards import SLOT_OF
from companion.games.the_mountain.examples import example_header
from companion.games.the_mountain.moves import Draw
from companion.games.the_mountain.state import MountainState, count_threats
from tests.games import rulecheck


def start(**options: Any) -> MountainState:
    return GAME.new_state(example_header(options))


def ready(hand: tuple[str, ...], **options: Any) -> MountainState:
    """Turn 1, after drawing ``hand`` from the stock."""
    state = start(**options)
    for card in hand:
        state = played(state, Draw(card=card, from_="stock"))
    return state


def played(state: MountainState, move: Any) -> MountainState:
    return rulecheck.legal(GAME, state, move)


def refused(state: MountainState, move: Any, rule: str) -> Verdict:
    return rulecheck.refused(GAME, state, move, rule)


def with_mountain(state: MountainState, cards: dict[str, str]) -> MountainState:
    """The same state, with a mountain holding only ``cards`` (position -> card)."""
    mountain: list[str | None] = [None] * 21
    for pos, card in cards.items():
        mountain[SLOT_OF[pos]] = card
    return state.evolve(mountain=tuple(mountain), threats_left=count_threats(tuple(mountain)))
