"""Everest's speed-ups change nothing anyone sees: every verdict, state, scoreboard, view, prompt and
outcome of many seeded games is what the engine before them gave.

The reference is the engine as it was before the speed-ups of issue 20 (commit 8477152): each case
below is a seeded game (the spec's playout, with attempts ``check`` refuses mixed in; some with two
or three players or other options), and ``everest_sameness.json`` holds digests of everything the
engine answered along it, recorded at that commit by this module's ``__main__``. The speed-ups each
keep the straightforward version of what they replace beside them in test_everest_speedups.py,
checked on every input these games meet; this test is the whole engine's answer.

A change of behaviour on purpose re-records the digests (and says so in its commit):

    .venv/bin/python -m tests.games.test_everest_sameness > tests/games/everest_sameness.json
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import random
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.core import Header, Move
from companion.games.everest import GAME
from companion.games.everest.playout import PLAYERS, illegal_move, legal_move
from companion.games.everest.state import EverestState

DIGESTS = Path(__file__).with_name("everest_sameness.json")
BLOCK = 25
"""Moves per digest: a difference is found to within this many moves of a game."""


@dataclass(frozen=True)
class Case:
    name: str
    seed: int
    players: int = 4
    options: tuple[tuple[str, Any], ...] = ()
    illegal_every: int = 7
    moves: int = 300


CASES: tuple[Case, ...] = (
    *(Case(f"to-the-end-{seed}", seed) for seed in (8, 29, 43, 63, 122, 194)),  # a yeti wins
    *(Case(f"four-{seed}", seed) for seed in (1, 2, 3)),
    *(Case(f"four-legal-{seed}", seed, illegal_every=0, moves=400) for seed in (21, 22)),
    *(Case(f"three-{seed}", seed, players=3) for seed in (31, 32)),
    *(Case(f"two-{seed}", seed, players=2) for seed in (41, 42)),
    Case("table-notches", 51, options=(("notches", "table"),)),
    Case("table-notches-2", 52, options=(("notches", "table"),)),
    Case("no-pushed-fall-damage", 53, options=(("pushed_fall_damage", False),)),
    Case("edge-rules", 54, options=(("edge_no_heal_rounds", 2), ("edge_sets_aside_all", True))),
)


def _plain(value: Any) -> Any:
    """A state field as JSON, the same in every process (sets sorted: their order follows str hashes)."""
    if isinstance(value, frozenset):
        return sorted(value)
    if isinstance(value, tuple) and any(isinstance(v, frozenset) for v in value):
        return [_plain(v) for v in value]
    if isinstance(value, (str, int, type(None))):
        return value
    return repr(value)


def state_json(state: EverestState) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f in dataclasses.fields(state):
        value = getattr(state, f.name)
        if f.name == "board":
            out["board"] = [sorted(value.heights.items()), sorted(value.peak)]
        elif f.name == "aside_chosen":
            out[f.name] = [[s, sorted(c)] for s, c in value]
        else:
            out[f.name] = _plain(value)
    return out


def seen(state: EverestState) -> list[Any]:
    """Everything the engine answers about a state."""
    outcome = GAME.outcome(state)
    return [
        state_json(state),
        GAME.scoreboard(state),
        [GAME.view(state, p) for p in (*state.players, None)],
        [[p.who, p.verb, p.text] for p in GAME.prompts(state)],
        outcome.to_json() if outcome is not None else None,
    ]


def game_lines(case: Case) -> list[str]:
    """One JSON line per move of the case's game (the move, its verdict, everything seen after),
    after one line for the state before the first move."""
    rng = random.Random(case.seed)
    header = Header("everest", PLAYERS[: case.players], dict(case.options), {})
    state: EverestState = GAME.new_state(header)
    lines = [json.dumps(seen(state))]
    n = 0
    while n < case.moves and GAME.outcome(state) is None:
        n += 1
        move: Move | None = None
        if case.illegal_every and n % case.illegal_every == 0:
            move = illegal_move(state, rng)
        if move is None:
            move = legal_move(state, rng)
        verdict = GAME.judge(state, move)
        if verdict.ok:
            state = GAME.apply(state, move)
        lines.append(json.dumps([GAME.codec.to_json(move), verdict.to_json(), seen(state)]))
    return lines


def digests(lines: list[str]) -> list[str]:
    """One digest per BLOCK lines (the first block: the start and moves 1 to BLOCK - 1)."""
    return [hashlib.sha256("\n".join(lines[i : i + BLOCK]).encode()).hexdigest()[:16] for i in range(0, len(lines), BLOCK)]


def test_every_answer_is_the_reference_engines() -> None:
    expected = json.loads(DIGESTS.read_text(encoding="utf-8"))
    assert sorted(expected) == sorted(case.name for case in CASES)
    moves = 0
    for case in CASES:
        lines = game_lines(case)
        got, want = digests(lines), expected[case.name]
        first = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), None)
        if first is None and len(got) != len(want):
            first = min(len(got), len(want))
        assert first is None, f"{case.name}: the answers differ from the reference's within moves {first * BLOCK} to {first * BLOCK + BLOCK - 1}"
        moves += len(lines) - 1
    assert moves > 5000  # long enough to meet conflicts, roar waves, pushes and the edge many times


def main() -> None:
    json.dump({case.name: digests(game_lines(case)) for case in CASES}, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
