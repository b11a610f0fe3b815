"""Every shipped game in notation replays, through the installed `companion` command, to its .expected output."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"
GAMES = sorted(DATA.glob("*/*.jsonl"))


def test_there_are_acceptance_games() -> None:
    assert len({p.parent.name for p in GAMES}) >= 4


@pytest.mark.parametrize("game_file", GAMES, ids=lambda p: f"{p.parent.name}/{p.name}")
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
