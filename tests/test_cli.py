"""The command line, in process: replay as NOTATION.md says, log verify and export, init."""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.cli import main
from companion.log.store import GameLog
from companion.referee.session import Session
from tests.conftest import TOY_HEADER, StepClock, move
from tests.toy_game import GAME as TOY


def _write(path: Path, lines: list[object]) -> Path:
    path.write_text("\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines) + "\n", encoding="utf-8")
    return path


HEADER = {"game": "toy", "players": ["anna", "ben"], "options": {"pile": 5}}


def test_replay_prints_a_verdict_per_move_and_the_final_board(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = _write(
        tmp_path / "g.jsonl",
        [
            HEADER,
            {"by": "anna", "do": "take", "n": 3},
            {"by": "anna", "do": "take", "n": 1},
            "",
            {"by": "ben", "do": "take", "n": 4},
            {"by": "ben", "do": "take", "n": 2},
        ],
    )
    assert main(["replay", str(f)]) == 0
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert out[0] == {"n": 1, "ok": True}
    assert out[1] == {"n": 2, "ok": False, "rules": ["TOY-TURN"], "why": "it is ben's turn"}
    assert out[2] == {"n": 3, "ok": False, "rules": ["TOY-MOST"], "why": "take at most 3"}
    assert out[3] == {"n": 4, "ok": True}
    assert out[4] == {"scoreboard": {"left": 0, "turn": "anna"}, "outcome": {"winner": "ben"}}


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        ([HEADER, "{not json"], "line 2: not valid JSON"),
        ([{"game": "chess", "players": ["a", "b"]}], 'line 1: unknown game "chess"'),
        ([HEADER, {"by": "anna", "do": "fly"}], 'line 2: unknown verb "fly"'),
        ([HEADER, {"by": "anna", "do": "take", "n": 1}, {"by": "ben", "do": "take"}], 'line 3: take is missing the field "n"'),
        ([HEADER, "", {"by": "anna", "do": "take", "n": "x"}], "line 3: take field"),
        ([{"game": "toy", "players": ["solo"]}], "line 1: Take-away is for 2 to 4 players, not 1"),
        ([{"game": "toy", "players": ["a", "b"], "setup": {"bad": True}}], "line 1: setup.bad"),
        (["[1, 2]"], "line 1: the header must be a JSON object"),
        ([], "line 1: the file is empty"),
    ],
)
def test_replay_of_a_malformed_file_exits_2_with_one_message_and_no_results(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], lines: list[object], message: str
) -> None:
    f = tmp_path / "bad.jsonl"
    if lines:
        _write(f, lines)
    else:
        f.write_text("", encoding="utf-8")
    assert main(["replay", str(f)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert message in captured.err
    assert len(captured.err.strip().splitlines()) == 1


def test_replay_of_a_missing_or_binary_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(tmp_path / "nope.jsonl")]) == 2
    assert "cannot read" in capsys.readouterr().err
    binary = tmp_path / "b.jsonl"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    assert main(["replay", str(binary)]) == 2
    assert "companion replay:" in capsys.readouterr().err


def _played_log(path: Path) -> Path:
    game_log = GameLog(path)
    session = Session(TOY, game_log, TOY_HEADER, clock=StepClock())
    session.process(move({"by": "anna", "do": "take", "n": 3}))
    session.process(move({"by": "anna", "do": "take", "n": 1}))  # illegal
    session.process(move({"by": "ben", "do": "take", "n": 1}))
    from companion.core import Observation, ObservationKind

    session.process(Observation("web:referee", 1.0, ObservationKind.UNDO, {}))
    session.process(move({"by": "ben", "do": "take", "n": 2}))
    game_log.close()
    return path


def test_log_verify_passes_then_names_the_tampered_row(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = _played_log(tmp_path / "g.sqlite")
    assert main(["log", "verify", str(db)]) == 0
    assert "6 rows, hash chain intact" in capsys.readouterr().out
    con = sqlite3.connect(db)
    con.execute("UPDATE rows SET source='someone else' WHERE seq=4")
    con.commit()
    con.close()
    assert main(["log", "verify", str(db)]) == 1
    assert "BROKEN at row 4" in capsys.readouterr().err
    assert main(["log", "verify", str(tmp_path / "missing.sqlite")]) == 2


def test_export_jsonl_replays_to_the_same_verdicts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = _played_log(tmp_path / "g.sqlite")
    assert main(["log", "export", str(db), "--format", "jsonl"]) == 0
    exported = capsys.readouterr().out
    lines = exported.splitlines()
    assert json.loads(lines[0])["game"] == "toy"
    moves = [json.loads(x) for x in lines[1:]]
    # the undone "ben takes 1" is gone; the illegal attempt stays for the record
    assert [(m["by"], m["n"]) for m in moves] == [("anna", 3), ("anna", 1), ("ben", 2)]
    f = tmp_path / "export.jsonl"
    f.write_text(exported, encoding="utf-8")
    assert main(["replay", str(f)]) == 0
    results = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [r.get("ok") for r in results[:3]] == [True, False, True]
    assert results[3] == {"scoreboard": {"left": 2, "turn": "anna"}, "outcome": None}


def test_export_text_cites_the_rule_at_every_illegal_move(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = _played_log(tmp_path / "g.sqlite")
    assert main(["log", "export", str(db), "--format", "text"]) == 0
    text = capsys.readouterr().out
    assert "ILLEGAL: it is ben's turn" in text
    assert "rule TOY-TURN, Turns (toy): “Players take turns.”" in text
    assert "taken back by the referee: ben take" in text


def test_export_text_says_who_took_a_move_back_and_who_made_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from companion.core import Observation, ObservationKind
    from companion.core.sources import link_source
    from companion.games import get_spec
    from companion.log.notation import read_notation

    db = tmp_path / "g.sqlite"
    with GameLog(db) as game_log:
        session = Session(TOY, game_log, TOY_HEADER, clock=StepClock())
        session.process(move({"by": "anna", "do": "take", "n": 3}, source=link_source("anna")))
        session.process(Observation(link_source("anna"), 2.0, ObservationKind.UNDO, {}))  # her own, on her page
        session.stop()
    assert main(["log", "export", str(db), "--format", "text"]) == 0
    text = capsys.readouterr().out
    assert "taken back through anna's link: anna take" in text and "referee" not in text

    # Escape House's clear names the cards that clear a puzzle in its "by": the table's move, not a player's.
    path = next(p for p in get_spec("escape-house").acceptance_files() if p.stem == "clocks")
    with path.open(encoding="utf-8") as handle:
        record = read_notation(handle)
    game = get_spec("escape-house").game
    db = tmp_path / "house.sqlite"
    with GameLog(db) as game_log:
        session = Session(game, game_log, record.header, clock=StepClock())
        for _, played in record.moves:
            session.process(move(dict(game.codec.to_json(played)), t=played.t or 100.0))
        session.stop()
    assert main(["log", "export", str(db), "--format", "text"]) == 0
    clears = [line for line in capsys.readouterr().out.splitlines() if line.startswith("#") and " clear " in line]
    assert clears and all(re.search(r"\d table clear by=\[\"", line) for line in clears), clears


def test_init_writes_a_config_that_loads(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from companion.app.config import load_config

    target = tmp_path / "table.toml"
    assert main(["init", str(target)]) == 0
    config = load_config(target)
    assert config.header.game == "escape-master"
    assert main(["init", str(target)]) == 2
    assert "already exists" in capsys.readouterr().err
