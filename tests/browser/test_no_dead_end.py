"""No dead end across a whole game of each game (issue 22, "Done when"): one acceptance game of each
of the five games is played by taps only at 412 px (tests/browser/tapping.py), and before every tap
of a legal move the builder offers a button that leads on (a one-tap move, a legal value, a None or
Done that makes a legal move, or a legal verb), and every answer lands in the viewport.

One file per game, the one with the most distinct verbs for its length; test_tap_play.py
plays a verb cover of every game's files (``TC_TAP_FILES=all``: every file) without the per-step
checks, and ``TC_DEAD_END_FILES=all`` walks every file here too (the long form)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

import companion
from companion.log.notation import read_notation
from tests.browser.tapping import play_file
from tests.test_entry_files import FILES

pytestmark = pytest.mark.browser


def one_per_game(files: list[Path]) -> list[Path]:
    """Each game's file with the most distinct verbs for its length (a short game that taps many paths)."""
    best: dict[Path, tuple[float, int, Path]] = {}
    for path in files:
        with path.open(encoding="utf-8") as handle:
            moves = [move for _, move in read_notation(handle).moves]
        rank = (len({move.verb for move in moves}) / len(moves), -len(moves), path)
        game = path.parent.parent
        if game not in best or rank[:2] > best[game][:2]:
            best[game] = rank
    return sorted(rank[2] for rank in best.values())


GAMES = [path for path in FILES if path.is_relative_to(Path(companion.__file__).parent)]
"""The five games' files (the tests' toy game proposes no candidates for its ``peek``: nothing to walk)."""

WALKED = GAMES if os.environ.get("TC_DEAD_END_FILES") == "all" else one_per_game(GAMES)


@pytest.mark.parametrize("path", WALKED, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_a_whole_game_by_taps_never_meets_a_dead_end(path: Path, chromium: Any, tmp_path: Path) -> None:
    play_file(path, chromium, tmp_path, guard=True)
