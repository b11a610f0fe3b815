"""Shared helpers for the Horrible Mountain 2 tests (no tests here).

``covers(rule_id, kind)`` marks a test as a "legal" or "illegal" (refusal, setup error or outcome)
case of a rule; test_horrible_mountain_2_game checks that every rule id has both.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import Any, Literal, TypeVar

from companion.core import Header, Move, Verdict
from companion.games.horrible_mountain_2 import GAME
from companion.games.horrible_mountain_2.state import State
from tests.games.rulecheck import refused_exactly

F = TypeVar("F", bound=Callable[..., Any])

COVERED: dict[str, set[str]] = defaultdict(set)


def covers(rule_id: str, *kinds: Literal["legal", "illegal"]) -> Callable[[F], F]:
    def mark(test: F) -> F:
        assert rule_id in GAME.rules, rule_id
        COVERED[rule_id].update(kinds)
        return test

    return mark


EVE, ADAM = "eve", "adam"  # the Evil Master and the unwitting adventurer

SETUP: dict[str, Any] = {
    "evil_master": EVE,
    "table": ["2S", "3S", "4S", "5S", "6S"],
    "hands": {EVE: ["2H", "3H", "4H"], ADAM: ["5H", "6H", "2D"]},
    "cubes": {EVE: ["red", "orange"], ADAM: ["yellow", "green"]},
    "centre": "blue",
}
"""Draw Pile: 3D 4D 5D 6D 2C 3C 4C 5C 6C."""


def header(options: dict[str, Any] | None = None, **setup: Any) -> Header:
    return Header(GAME.id, (ADAM, EVE), options or {}, {**SETUP, **setup})


def mv(by: str | None, do: str, **fields: Any) -> Move:
    """A move read through the notation codec, as a file or the console would give it."""
    obj: dict[str, Any] = {"do": do, **fields}
    if by is not None:
        obj["by"] = by
    return GAME.codec.from_json(obj)


def start(options: dict[str, Any] | None = None, **setup: Any) -> State:
    state: State = GAME.new_state(header(options, **setup))
    return state


def placed(options: dict[str, Any] | None = None, **setup: Any) -> State:
    """After setup: yellow 2S, red 3S, blue 4S, orange 5S, green 6S; Eve to play."""
    return play(start(options, **setup), mv(ADAM, "place", slots=[1, 5]), mv(EVE, "place", slots=[2, 4]))


def play(state: State, *moves: Move) -> State:
    for move in moves:
        verdict, state = GAME.play(state, move)
        assert verdict.ok, (GAME.codec.to_json(move), verdict)
    return state


def refused(state: State, move: Move, *rules: str) -> Verdict:
    """The move is illegal, names exactly these rules, says why and how to fix it; state unchanged."""
    return refused_exactly(GAME, state, move, *rules)
