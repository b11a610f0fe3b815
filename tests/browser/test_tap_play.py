"""Whole games played by taps only, in headless Chromium, through the real pages and service.

Each acceptance file (tests/games/data) is entered move by move: a move with a player goes in on
that player's own page, a move by nobody on the referee's console. Only buttons are clicked (no
key is pressed in any field; the PIN login before the game is the one exception). The game must
end with the same verdicts and final scoreboard as ``companion replay`` of the same file, and the
taps per move are reported (``-s`` prints them; docs/web.md has the table).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from companion.log.notation import read_notation
from tests.browser.tapping import play_file
from tests.test_entry_files import FILES

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def covering(files: list[Path]) -> list[Path]:
    """The fewest of each game's acceptance files that between them tap every verb the game's files
    hold, fewer moves first where files cover as much: every builder path is drawn in Chromium and
    tapped, in about half the moves. tests/test_entry_files.py taps every move of every file through
    the same builder without a browser; ``TC_TAP_FILES=all`` plays every file here too."""
    verbs: dict[Path, set[str]] = {}
    moves: dict[Path, int] = {}
    for path in files:
        with path.open(encoding="utf-8") as handle:
            notation = read_notation(handle)
        verbs[path] = {move.verb for _, move in notation.moves}
        moves[path] = len(notation.moves)
    chosen: list[Path] = []
    for game in dict.fromkeys(path.parent.parent for path in files):
        own = [path for path in files if path.parent.parent == game]
        left = set().union(*(verbs[path] for path in own))
        while left:
            best = max(own, key=lambda path: (len(verbs[path] & left), -moves[path]))
            chosen.append(best)
            left -= verbs[best]
    return [path for path in files if path in chosen]


TAPPED = FILES if os.environ.get("TC_TAP_FILES") == "all" else covering(FILES)
"""The files played by taps: a verb cover by default (``make test``), every acceptance file with
``TC_TAP_FILES=all`` (the long form)."""


@pytest.mark.parametrize("path", TAPPED, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_whole_game_by_taps(path: Path, chromium: Any, tmp_path: Path) -> None:
    play_file(path, chromium, tmp_path)
