"""Shared helpers for the Everest tests (no tests here).

``covers(rule_id, kind)`` marks a test as a "legal" or "illegal" (a refusal, or an outcome the rule
forces) case of a rule; test_everest_game checks that every rule id has both.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Any, Literal, TypeVar

from companion.core import Header, Move, Verdict
from companion.games.everest import GAME
from companion.games.everest.board import Square
from companion.games.everest.state import EverestState
from tests.games.rulecheck import refused_exactly

F = TypeVar("F", bound=Callable[..., Any])

COVERED: dict[str, set[str]] = defaultdict(set)

A, B, C, D = "anna", "ben", "cleo", "dev"
PLAYERS = (A, B, C, D)
"""Default homes: anna (1,5), ben (8,5), cleo (8,2), dev (1,2)."""


def covers(rule_id: str, *kinds: Literal["legal", "illegal"]) -> Callable[[F], F]:
    def mark(test: F) -> F:
        assert rule_id in GAME.rules, rule_id
        COVERED[rule_id].update(kinds)
        return test

    return mark


def header(players: Sequence[str] = PLAYERS, options: dict[str, Any] | None = None, **setup: Any) -> Header:
    return Header(GAME.id, tuple(players), options or {}, setup)


def start(players: Sequence[str] = PLAYERS, options: dict[str, Any] | None = None, **setup: Any) -> EverestState:
    state: EverestState = GAME.new_state(header(players, options, **setup))
    return state


def placed(positions: dict[str, Square | None], players: Sequence[str] = PLAYERS, **options: Any) -> EverestState:
    """A fresh game with the yeti moved to ``positions`` (the others stay at home)."""
    state = start(players, options)
    pos = list(state.positions)
    for name, square in positions.items():
        pos[state.players.index(name)] = square
    return state.evolve(positions=tuple(pos))


def mv(by: str | None, do: str, **fields: Any) -> Move:
    """A move read through the notation codec, as a file or the console would give it."""
    obj: dict[str, Any] = {"do": do, **fields}
    if by is not None:
        obj["by"] = by
    return GAME.codec.from_json(obj)


def coin(text: str) -> dict[str, str]:
    """ "3E" -> move 3 east; "rN" -> roar north (blank coin); "s2W" -> the 2 coin thrown as a snowball west."""
    if text.startswith("r"):
        return {"coin": "blank", "face": "value", "dir": text[1]}
    if text.startswith("s"):
        value = {"A": "ace", "B": "blank"}.get(text[1], text[1])
        return {"coin": value, "face": "suit", "dir": text[2]}
    value = {"A": "ace"}.get(text[0], text[0])
    return {"coin": value, "face": "value", "dir": text[1]}


def plan(by: str, *coins: str) -> Move:
    return mv(by, "plan", coins=[coin(c) for c in coins])


def roll(by: str, value: str) -> Move:
    return mv(by, "roll", value=value)


def play(state: EverestState, *moves: Move) -> EverestState:
    for move in moves:
        verdict, state = GAME.play(state, move)
        assert verdict.ok, (GAME.codec.to_json(move), verdict)
    return state


def plans(state: EverestState, **by_player: Sequence[str]) -> EverestState:
    """Everybody still to plan does: those not named throw snowballs off the nearest side edge."""
    moves = []
    for name in state.players:
        seat = state.players.index(name)
        if state.usable(seat) == 0:
            continue
        coins = by_player.get(name)
        if coins is None and state.plans[seat] is not None:
            continue  # planned already
        if coins is None:
            k = min(3, state.usable(seat))
            pool = ["sB", "sA", "s2"][:k]
            coins = [_idle(state, seat, c) for c in pool]
        moves.append(plan(name, *coins))
    return play(state, *moves)


def _idle(state: EverestState, seat: int, kind: str) -> str:
    """A snowball from a home square towards the nearest side edge: it flies off, touching nobody."""
    here = state.positions[seat]
    assert here is not None
    x, y = here
    d = "W" if x <= 4 else "E"
    return f"{kind}{d}"


def refused(state: EverestState, move: Move, *rules: str) -> Verdict:
    """The move is illegal, names exactly these rules, says why and how to fix it; state unchanged."""
    return refused_exactly(GAME, state, move, *rules)


def at(state: EverestState, name: str) -> Square | None:
    return state.positions[state.players.index(name)]


def dmg(state: EverestState, name: str) -> int:
    return state.damage[state.players.index(name)]
