"""The game contract, checked for every game the registry finds: the five and the tests' toy game.

A game package promises (companion/contract/spec.py):
- its declaration is whole: docs, a panel, acceptance games with their expected replays, an example
  table that starts as it is, a playout;
- every move field can be tapped in (each declares the values it is drawn from);
- every rule id is documented in its GAME.md (tests/test_rule_cases.py replays a move each rule refuses
  and one it allows);
- its playout replays through the notation exactly as the engine judged it live, and its acceptance
  games replay to their expected output through the installed command;
- ``companion init --no-hardware`` writes a config that serves, and serves the game's panel;
- hidden cards stay hidden (tests/contract/test_hidden.py);
- its panel renders in Chromium (tests/browser/test_panels.py).
"""

from __future__ import annotations

import io
import json
import random
import signal
import subprocess
import sys
import tomllib
import urllib.request
from pathlib import Path

import pytest

from companion.app.config import load_config
from companion.cli import main
from companion.core import Header
from companion.entry.builder import field_specs
from companion.games import game_ids, get_spec
from companion.log.notation import read_notation
from companion.log.replay import replay
from companion.log.store import GameLog
from tests.test_serve import _board, _start

GAMES = game_ids()


def acceptance() -> list[object]:
    return [pytest.param(game_id, path, id=f"{game_id}/{path.stem}") for game_id in GAMES for path in get_spec(game_id).acceptance_files()]


@pytest.mark.parametrize("game_id", GAMES)
def test_the_declaration_is_whole(game_id: str) -> None:
    spec = get_spec(game_id)
    assert spec.root.is_dir() and spec.package.startswith(("companion.games.", "tests."))
    assert spec.path(spec.docs).is_file(), f"{game_id} has no {spec.docs}"
    assert (spec.path(spec.panel) / "panel.js").is_file(), f"{game_id} has no panel.js"
    assert f'TC.games.register("{game_id}"' in (spec.path(spec.panel) / "panel.js").read_text(encoding="utf-8")
    files = spec.acceptance_files()
    assert files, f"{game_id} has no acceptance game"
    assert all(f.with_suffix(".expected").is_file() for f in files)
    for seed in range(3):
        table = spec.example(random.Random(seed))
        assert table.header.game == game_id
        spec.game.new_state(table.header)  # starts as it is
        assert "hands" not in table.header.setup, "no face-down card is ever written into a config"
    header, moves = spec.playout(1, max_moves=40)
    assert header.game == game_id and moves


@pytest.mark.parametrize("game_id", GAMES)
def test_every_move_field_can_be_tapped_in(game_id: str) -> None:
    game = get_spec(game_id).game
    for move_type in game.move_types:
        for name, field_spec in field_specs(move_type):  # raises for a field with no declared values
            assert field_spec.least <= field_spec.most, f"{move_type.verb}.{name}"


@pytest.mark.parametrize("game_id", GAMES)
def test_every_rule_id_is_documented(game_id: str) -> None:
    spec = get_spec(game_id)
    docs = spec.path(spec.docs).read_text(encoding="utf-8")
    missing = [rule_id for rule_id in spec.game.rules if rule_id not in docs]
    assert missing == []


@pytest.mark.parametrize("game_id", GAMES)
def test_the_playout_replays_as_it_was_judged(game_id: str) -> None:
    """A seeded game with illegal attempts, written as notation and replayed: the same verdicts, the same end."""
    spec = get_spec(game_id)
    game = spec.game
    header, moves = spec.playout(7, max_moves=300, illegal_every=9)
    state = game.new_state(header)
    verdicts = []
    for move in moves:
        verdict, state = game.play(state, move)
        verdicts.append(verdict.to_json())
    assert any(not v["ok"] for v in verdicts) or len(moves) < 9, "the playout tried no illegal move"
    text = "\n".join([json.dumps(header.to_json())] + [json.dumps(game.codec.to_json(m)) for m in moves]) + "\n"
    lines = list(replay(read_notation(io.StringIO(text))))
    assert [{k: v for k, v in line.items() if k != "n"} for line in lines[:-1]] == [
        {k: v for k, v in v.items() if k != "fix"} for v in verdicts
    ]
    outcome = game.outcome(state)
    assert lines[-1] == {"scoreboard": game.scoreboard(state), "outcome": outcome.to_json() if outcome else None}


@pytest.mark.parametrize("game_id, path", acceptance())
def test_acceptance_games_replay_through_the_command(game_id: str, path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "companion", "replay", str(path)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert result.stdout.splitlines() == path.with_suffix(".expected").read_text(encoding="utf-8").splitlines()


def test_an_unknown_game_is_one_sentence_naming_the_games_there_are() -> None:
    from companion.core.errors import UnknownGameError

    with pytest.raises(UnknownGameError) as caught:
        get_spec("chess")
    assert str(caught.value).startswith('unknown game "chess" (known: ') and all(g in str(caught.value) for g in GAMES)


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAMES)
def test_init_no_hardware_serves_the_game_and_its_panel(tmp_path: Path, game_id: str) -> None:
    config = tmp_path / "table.toml"
    assert main(["init", str(config), "--no-hardware", "--game", game_id, "--host", "127.0.0.1", "--port", "0"]) == 0
    raw = tomllib.loads(config.read_text(encoding="utf-8"))
    assert "camera" not in raw and "array" not in raw and not raw.get("zones")
    loaded = load_config(config)
    game = get_spec(game_id).game
    assert game.min_players <= len(loaded.header.players) <= game.max_players
    assert loaded.header == Header(game_id, loaded.header.players, loaded.header.options, loaded.header.setup)
    proc, url, _ = _start(config)
    try:
        board = _board(url)
        assert board["game"] == game_id and board["players"] == list(loaded.header.players)
        assert board["chain"]["rows"] >= 1 and board["outcome"] is None
        with urllib.request.urlopen(f"{url}panels/{game_id}/panel.js", timeout=10) as answer:
            assert f'TC.games.register("{game_id}"'.encode() in answer.read()
        with urllib.request.urlopen(url, timeout=10) as answer:
            assert f'src="/panels/{game_id}/panel.js"'.encode() in answer.read()
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(30) == 0
    with GameLog(loaded.log_path) as game_log:
        assert game_log.verify() >= 1
