"""Every move of every acceptance file can be entered by taps through the move builder.

Each move is tapped in on the page of the player who makes it (the referee's console for a move
by nobody), on the state the file has reached; the taps are counted, and the median per game is
what docs/web.md reports.
"""

from __future__ import annotations

import statistics
from pathlib import Path

import pytest

from companion.entry.builder import Builder
from companion.games import get_game, specs
from companion.log.notation import read_notation
from tests.entry_driver import assert_as_meant, tap_in

FILES = [p for spec in specs().values() for p in spec.acceptance_files()]


def tap_through(path: Path) -> list[tuple[str, int]]:
    """(verb, taps) for each move of the file, entered by taps on the state it has reached."""
    with path.open(encoding="utf-8") as handle:
        notation = read_notation(handle)
    game = get_game(notation.header.game)
    state = notation.start
    counted = []
    for _, move in notation.moves:
        by = move.by
        builder = Builder(game, state, notation.header.players, by)
        built, taps = tap_in(builder, move, referee=by is None)
        assert_as_meant(builder, built, move)  # a page names a card, not a copy of it
        counted.append((move.verb, taps))
        _, state = game.play(state, move)
    return counted


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_move_is_tapped_in(path: Path) -> None:
    counted = tap_through(path)
    assert counted
    assert statistics.median(t for _, t in counted) <= 3, counted
