"""Whole games: the acceptance files, random playouts, and every rule id exercised both ways."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest

from companion.games.escape_house import GAME
from companion.games.escape_house.playout import random_playout
from companion.log.notation import read_notation
from companion.log.replay import replay
from tests.games.test_escape_house_support import COVERED
from companion.games import get_spec

DATA = get_spec("escape-house").path("acceptance")
GAMES = sorted(DATA.glob("*.jsonl"))


@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_acceptance_games_replay_as_expected(path: Path) -> None:
    with path.open(encoding="utf-8") as handle:
        record = read_notation(handle)
    got = [json.dumps(line, sort_keys=True) for line in replay(record)]
    assert got == path.with_suffix(".expected").read_text(encoding="utf-8").splitlines()


def test_the_acceptance_games_end_as_the_rulebook_says() -> None:
    assert {p.stem for p in GAMES} == {"clocks", "escape", "live-setup"}
    last = {p.stem: json.loads(p.with_suffix(".expected").read_text().splitlines()[-1]) for p in GAMES}
    assert last["clocks"]["outcome"] == {"won": False, "escaped": []} and last["clocks"]["scoreboard"]["clocks"] == 3
    assert last["escape"]["outcome"] == {"won": True, "escaped": ["anna", "ben", "cleo", "eli", "fay"]}
    assert last["live-setup"]["outcome"] == {"won": True, "escaped": ["anna"]}  # dealt, flipped and cleared live
    assert last["escape"]["scoreboard"]["sacrificed"] == ["dev"] and last["escape"]["scoreboard"]["main_left"] == 0
    for p in GAMES:  # each file has illegal moves in it, and replays them without applying
        assert any('"ok": false' in line for line in p.with_suffix(".expected").read_text().splitlines())


@pytest.mark.parametrize("seed", range(6))
def test_random_playouts_are_whole_legal_games(seed: int) -> None:
    header, moves = random_playout(seed)
    state = GAME.new_state(header)
    for move in moves:
        verdict, state = GAME.play(state, move)
        assert verdict.ok, (GAME.codec.to_json(move), verdict)
        assert GAME.codec.from_json(GAME.codec.to_json(move)) == move
    assert GAME.outcome(state) is not None


def test_a_determined_table_can_escape() -> None:
    header, moves = random_playout(154, teamwork=1.0)
    state = GAME.new_state(header)
    for move in moves:
        state = GAME.apply(state, move)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.to_json()["won"] is True and outcome.to_json()["escaped"]


def test_playouts_with_illegal_attempts_refuse_them_and_go_on() -> None:
    header, moves = random_playout(3, illegal_every=4)
    state = GAME.new_state(header)
    refused = 0
    for n, move in enumerate(moves, start=1):
        verdict, after = GAME.play(state, move)
        if not verdict.ok:
            refused += 1
            assert after is state and verdict.why
        state = after
    assert refused >= len(moves) // 5 and GAME.outcome(state) is not None


def test_every_rule_is_exercised_legal_and_illegal() -> None:
    for name in ("cardset", "setup", "explore", "action", "resolve"):
        importlib.import_module(f"tests.games.test_escape_house_{name}")
    missing = {
        rule: sorted({"legal", "illegal"} - COVERED.get(rule, set()))
        for rule in GAME.rules
        if {"legal", "illegal"} - COVERED.get(rule, set())
    }
    assert not missing, missing


def test_the_registry_finds_the_game() -> None:
    from companion.games import get_game

    assert get_game("escape-house") is GAME and GAME.min_players == 6 and GAME.max_players == 8


def test_every_rule_quotes_its_source() -> None:
    for rule in GAME.rules.values():
        assert rule.id.startswith("EH-") and rule.title and rule.passage
        assert rule.source in ("escape-house.txt", "GAPS.md", "NOTATION.md")
