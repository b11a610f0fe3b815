"""Every shipped game in notation replays, through the installed `companion` command, to its .expected output."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from companion.games import specs

import pytest

GAMES = [p for spec in specs().values() for p in spec.acceptance_files()]


def test_there_are_acceptance_games() -> None:
    assert {p.parent.parent.name for p in GAMES} == {spec.package.rsplit(".", 1)[-1] for spec in specs().values()}


@pytest.mark.parametrize("game_file", GAMES, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_replay_matches_expected(game_file: Path) -> None:
    expected = game_file.with_suffix(".expected")
    assert expected.exists(), f"{game_file} has no .expected beside it"
    result = subprocess.run(
        [sys.executable, "-m", "companion", "replay", str(game_file)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert result.stdout.splitlines() == expected.read_text(encoding="utf-8").splitlines()
