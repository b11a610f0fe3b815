"""Shared helpers for the Escape Master tests (no tests here).

``covers(rule_id, kind)`` marks a test as a "legal" or "illegal" (a refusal, or an outcome the rule
forces) case of a rule; test_escape_master_game checks that every rule id has both.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal, TypeVar

from companion.core import Header, Move, Verdict
from companion.games.escape_master import GAME
from companion.games.escape_master.state import State
from tests.games.rulecheck import legal, read_move, refused

F = TypeVar("F", bound=Callable[..., Any])

COVERED: dict[str, set[str]] = defaultdict(set)

A, B, C, D = "anna", "ben", "carl", "dora"


def covers(rule_id: str, *kinds: Literal["legal", "illegal"]) -> Callable[[F], F]:
    def mark(test: F) -> F:
        assert rule_id in GAME.rules, rule_id
        COVERED[rule_id].update(kinds)
        return test

    return mark


def header(
    hands: Mapping[str, Sequence[str]] | None,
    players: Sequence[str] | None = None,
    options: Mapping[str, Any] | None = None,
    dealer: str | None = None,
    leaders: Mapping[str, str] | None = None,
) -> Header:
    names = tuple(players) if players is not None else tuple(hands or (A, B))
    setup: dict[str, Any] = {"dealer": dealer or names[0]}
    if hands is not None:
        setup["hands"] = {p: list(c) for p, c in hands.items()}
    if leaders:
        setup["leaders"] = dict(leaders)
    opts = {"check_deal_size": False, **(options or {})}
    return Header(GAME.id, names, opts, setup)


def dealt(hands: Mapping[str, Sequence[str]], **kwargs: Any) -> State:
    """A game whose first round is dealt as ``hands`` (deal sizes unchecked unless options say so)."""
    state: State = GAME.new_state(header(hands, **kwargs))
    return state


def started(hands: Mapping[str, Sequence[str]], **kwargs: Any) -> State:
    """Dealt as ``hands`` and started (the dealer has called Start!)."""
    return ok(dealt(hands, **kwargs), mv(None, "start", t=0.0))


def mv(by: str | None, do: str, **fields: Any) -> Move:
    """A move read through the notation codec, as a file or the console would give it."""
    return read_move(GAME, by, do, **fields)


def ok(state: State, *moves: Move) -> State:
    """Apply moves that must be legal."""
    return legal(GAME, state, *moves)


def bad(state: State, move: Move, rule: str) -> Verdict:
    """Assert ``move`` is illegal for ``rule`` alone, with a why; return the verdict."""
    return refused(GAME, state, move, rule, only=True, fix=False)


def top(state: State, pile: int) -> str | None:
    for p in GAME.scoreboard(state)["piles"]:
        if p["pile"] == pile and p["open"]:
            return str(p["top"])
    return None


def hand(state: State, player: str) -> list[str]:
    return list(GAME.view(state, player)["hand"])
