"""Shared helpers for the Escape House tests (no tests here).

``covers(rule_id, kind)`` marks a test as a "legal" or "illegal" (a refusal, or an outcome the rule
forces) case of a rule; test_escape_house_game checks that every rule id has both.
"""

from __future__ import annotations

import copy
from collections import defaultdict
from collections.abc import Callable
from typing import Any, Literal, TypeVar

from companion.core import Header, Move, Verdict
from companion.games.escape_house import GAME
from companion.games.escape_house.state import State
from tests.games import rulecheck
from tests.games.rulecheck import legal, read_move

F = TypeVar("F", bound=Callable[..., Any])

COVERED: dict[str, set[str]] = defaultdict(set)

A, B, C, D, E, F_ = "anna", "ben", "cleo", "dev", "eli", "fay"
PLAYERS = (A, B, C, D, E, F_)

MAIN = ["front-door", "cellar-hatch", "fuse-box", "altar", "portrait", "grandfather-clock", "iron-gate"]
ROOMS = {
    "library": ["locked-chest", "door-slam-1", "key-3", "pit", "lamp-2"],
    "kitchen": ["boiler", "alarm", "fuse-2", "crowbar-2", "cobweb-1"],
    "cellar": ["trapdoor", "rope-2", "key-4", "door-slam-2", "matches-1"],
    "study": ["bookcase", "cobweb-2", "matches-2", "gear-2", "wire-2"],
    "attic": ["cursed-idol", "candle-2", "scavenge-2", "key-5", "rope-3"],
    "parlour": ["boarded-window", "crowbar-3", "lamp-3", "barricade-2"],
}
HANDS = {
    A: ["betray-1", "key-1", "key-2", "dagger-1"],
    B: ["betray-2", "crowbar-1", "amulet-1", "scavenge-1"],
    C: ["betray-3", "rope-1", "candle-1", "dagger-2"],
    D: ["betray-4", "fuse-1", "wire-1", "barricade-1"],
    E: ["betray-5", "lamp-1", "shove", "distract"],
    F_: ["betray-6", "gear-1", "pickpocket", "amulet-2"],
}
PENALTIES = ["lights-out", "clock-1", "whispers", "clock-2", "footsteps", "clock-3", "chill", "rummage"]


def covers(rule_id: str, *kinds: Literal["legal", "illegal"]) -> Callable[[F], F]:
    def mark(test: F) -> F:
        assert rule_id in GAME.rules, rule_id
        COVERED[rule_id].update(kinds)
        return test

    return mark


def setup_obj(**changes: Any) -> dict[str, Any]:
    """The test house's setup object (a deep copy), with top-level ``changes``."""
    obj: dict[str, Any] = {
        "card_set": "example",
        "main": list(MAIN),
        "rooms": copy.deepcopy(ROOMS),
        "hands": copy.deepcopy(HANDS),
        "penalties": list(PENALTIES),
    }
    obj.update(changes)
    return obj


def header(options: dict[str, Any] | None = None, players: tuple[str, ...] = PLAYERS, **setup: Any) -> Header:
    return Header("escape-house", players, options or {}, setup_obj(**setup))


def new(options: dict[str, Any] | None = None, **setup: Any) -> State:
    state: State = GAME.new_state(header(options, **setup))
    return state


def mv(player: str | None, verb: str, /, **fields: Any) -> Move:
    """A move read through the game's codec, as the table would enter it (``by=[...]`` for a clear)."""
    return read_move(GAME, player, verb, **fields)


def play(state: State, *moves: Move) -> State:
    """Apply legal moves, failing the test on the first illegal one."""
    return legal(GAME, state, *moves)


def refused(state: State, move: Move, rule: str) -> Verdict:
    """Assert ``move`` is illegal citing ``rule``, with a why and a fix; return the verdict."""
    return rulecheck.refused(GAME, state, move, rule)


def loose(**setup: Any) -> State:
    """The test house where players need not all play (most action tests play only a few cards)."""
    return new({"must_play": False}, **setup)


def to_action(state: State, *moves: Move) -> State:
    """End the explore phase (after ``moves``)."""
    return play(state, *moves, mv(None, "end_explore"))


def resolved(state: State, *plays: Move) -> State:
    """From the action phase: ``plays`` (moves, follows, plays), then resolve."""
    return play(state, *plays, mv(None, "resolve"))
