"""`companion serve` and the log file it is given: a broken log is refused (or carried on in a new
log linked to its last good row), and a log whose game differs from the config is never resumed
silently (issue 15 item 5, issue 12). Each runs the real command as a process."""

from __future__ import annotations

import json
import os
import pty
import re
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from companion.cli.serve import ask_on_terminal
from companion.app.config import load_config
from companion.core import Observation, ObservationKind
from companion.core.errors import LogIntegrityError
from companion.games import get_game
from companion.games.everest.playout import random_playout
from companion.log.store import GameLog
from companion.log.files import Choice, Declined
from companion.referee.session import Session
from companion.app.table_service import TableService
from tests.test_log_integrity import _edit_row, _rechain
from tests.test_serve import _board, _start

pytestmark = pytest.mark.slow

MOVES = 30

CONFIG = """
[game]
id = "everest"
players = {players}
[log]
path = "game.sqlite"
[web]
host = "127.0.0.1"
port = 0
"""


@pytest.fixture
def table(tmp_path: Path) -> tuple[Path, list[Any]]:
    """A config and the Everest game its log holds: the header and 30 moves (rows 2..31)."""
    header, moves = random_playout(seed=7, max_moves=MOVES)
    game = get_game("everest")
    session = Session(game, GameLog(tmp_path / "game.sqlite"), header)
    for i, move in enumerate(moves):
        session.process(Observation("referee", float(i), ObservationKind.MOVE, game.codec.to_json(move)))
    session.log.close()
    config = tmp_path / "table.toml"
    config.write_text(CONFIG.format(players=json.dumps(list(header.players))), encoding="utf-8")
    return config, moves


def _run(config: Path, *flags: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion", "serve", "--config", str(config), *flags],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )


def _stop(proc: subprocess.Popen[str]) -> str:
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(30) == 0
    assert proc.stderr is not None
    return proc.stderr.read()


def _scoreboard_after(moves: list[Any], n: int) -> Any:
    game = get_game("everest")
    header, _ = random_playout(seed=7, max_moves=MOVES)
    state = game.new_state(header)
    for move in moves[:n]:
        _, state = game.play(state, move)
    return json.loads(json.dumps(game.scoreboard(state)))


def test_serve_refuses_a_broken_log_naming_the_first_bad_row(table: tuple[Path, list[Any]]) -> None:
    config, _ = table
    log_path = config.parent / "game.sqlite"
    _edit_row(log_path, 20)
    _rechain(log_path, 20, None)  # the attacker's rewrite: plain sha256 from the edit on
    before = log_path.read_bytes()
    result = _run(config)
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1
    assert "broken at row 20" in result.stderr and "--continue-broken" in result.stderr
    assert log_path.read_bytes() == before  # nothing was appended to it


def test_continue_broken_starts_a_new_log_linked_to_the_last_good_row(table: tuple[Path, list[Any]]) -> None:
    config, moves = table
    folder = config.parent
    with GameLog(folder / "game.sqlite") as game_log:
        row19 = game_log.row(19)
    assert row19 is not None
    _edit_row(folder / "game.sqlite", 20)
    _rechain(folder / "game.sqlite", 20, None)

    proc, url, _ = _start(config, "--continue-broken")
    try:
        board = _board(url)
        link = board["chain"]["continues"]
        assert link["seq"] == 19 and link["hash"] == row19.hash and link["file"].startswith("game-broken-")
        assert board["chain"]["rows"] == 19
        assert board["scoreboard"] == _scoreboard_after(moves, 18)  # rows 2..19 are the first 18 moves
        with urllib.request.urlopen(url, timeout=10) as resp:
            assert 'id="chain"' in resp.read().decode()  # the footer scoreboard.js fills in
    finally:
        _stop(proc)
    archived = folder / link["file"]
    with GameLog(archived) as old, pytest.raises(LogIntegrityError):
        old.verify()  # the broken log is kept, as it was, beside the new one
    with GameLog(folder / "game.sqlite") as new:
        assert new.verify() >= 19
        header_row = new.row(1)
        assert header_row is not None and header_row.payload["continues"] == link

    proc, url, _ = _start(config)  # a restart resumes the continued log, and still says so
    try:
        board = _board(url)
        assert board["chain"]["continues"] == link
        assert board["scoreboard"] == _scoreboard_after(moves, 18)
    finally:
        _stop(proc)


def _other_players(config: Path) -> None:
    text = config.read_text(encoding="utf-8")
    config.write_text(re.sub(r"players = .*", 'players = ["anna", "ben"]', text), encoding="utf-8")


def test_a_changed_config_without_a_terminal_or_flag_exits_2_saying_what_differs(table: tuple[Path, list[Any]]) -> None:
    config, _ = table
    _other_players(config)
    before = (config.parent / "game.sqlite").read_bytes()
    result = _run(config)
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1
    assert 'players: ["red","blue","green","yellow"] in the log, ["anna","ben"] in the config' in result.stderr
    assert "--resume" in result.stderr and "--new-game" in result.stderr
    assert (config.parent / "game.sqlite").read_bytes() == before


def test_new_game_keeps_the_old_log_aside_and_starts_the_configs_game(table: tuple[Path, list[Any]]) -> None:
    config, _ = table
    _other_players(config)
    proc, url, _ = _start(config, "--new-game")
    try:
        board = _board(url)
        assert board["players"] == ["anna", "ben"] and board["chain"]["rows"] == 1
    finally:
        _stop(proc)
    kept = sorted(p.name for p in config.parent.glob("game-*.sqlite"))
    assert len(kept) == 1 and re.fullmatch(r"game-\d{8}T\d{6}Z\.sqlite", kept[0])
    with GameLog(config.parent / kept[0]) as old:
        assert old.verify() == MOVES + 1  # the old game, whole, and it still verifies where it is
    assert load_config(config).header.players == ("anna", "ben")


def test_resume_keeps_the_logs_game_and_says_what_differs(table: tuple[Path, list[Any]]) -> None:
    config, moves = table
    _other_players(config)
    proc, url, _ = _start(config, "--resume")
    try:
        board = _board(url)
        assert board["players"] == ["red", "blue", "green", "yellow"]
        assert board["scoreboard"] == _scoreboard_after(moves, MOVES)
    finally:
        err = _stop(proc)
    assert "differs from the config's [game]: players:" in err
    assert not list(config.parent.glob("game-*.sqlite"))


def test_on_a_terminal_serve_asks_and_a_new_game_is_chosen(table: tuple[Path, list[Any]]) -> None:
    config, _ = table
    _other_players(config)
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion", "serve", "--config", str(config)],
        stdin=slave,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    os.close(slave)
    try:
        assert proc.stderr is not None and proc.stdout is not None
        first = proc.stderr.readline()
        assert "holds a game whose header differs" in first
        assert "players:" in proc.stderr.readline()
        os.write(master, b"maybe\nn\n")  # an answer it does not know is asked again
        deadline = time.monotonic() + 60
        url = ""
        while not url and time.monotonic() < deadline:
            line = proc.stdout.readline()
            if m := re.search(r"scoreboard: (http://\S+/)", line):
                url = m.group(1)
        assert url
        assert _board(url)["players"] == ["anna", "ben"]
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(30) == 0
        os.close(master)
    assert len(list(config.parent.glob("game-*.sqlite"))) == 1


def test_the_question_and_quitting(table: tuple[Path, list[Any]]) -> None:
    config, _ = table
    answers = iter(["", "what", "R"])
    assert ask_on_terminal(config, lambda prompt: next(answers))(["players: ..."]) is Choice.RESUME

    def eof(prompt: str) -> str:
        raise EOFError

    assert ask_on_terminal(config, eof)(["players: ..."]) is Choice.QUIT
    _other_players(config)
    before = (config.parent / "game.sqlite").read_bytes()
    with pytest.raises(Declined, match="left as it was"):
        TableService(load_config(config), choose=lambda differences: Choice.QUIT)
    assert (config.parent / "game.sqlite").read_bytes() == before
    conn = sqlite3.connect(config.parent / "game.sqlite")
    assert conn.execute("SELECT count(*) FROM rows").fetchone()[0] == MOVES + 1
    conn.close()
