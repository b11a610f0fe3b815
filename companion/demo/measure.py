"""The share of a game's moves its sensors make: its acceptance games and seeded generated ones, each
played whole through the sensor runner (:mod:`companion.demo.runner`), one report per game and their sum.

``companion demo --game G`` prints it; docs/sensors.md quotes the figures and the command; the
end-to-end test (tests/contract/test_sensors.py) holds each plan to its floor.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from companion.contract.spec import GameSpec
from companion.core import Header, Move
from companion.demo.account import Report, merged
from companion.demo.runner import SensorRun
from companion.log.notation import read_notation

log = logging.getLogger(__name__)

GENERATED_MOVES = 200
"""How many moves of a generated game are played (a whole one runs to a thousand and more)."""
ILLEGAL_EVERY = 10
"""Every tenth move of a generated game is an illegal attempt, which the table must see refused."""


@dataclass(frozen=True)
class TableGame:
    """A game to play through the sensors: where it comes from, its header and its moves."""

    name: str
    header: Header
    moves: tuple[Move, ...]


def table_games(spec: GameSpec, generated: int, seed: int = 1, acceptance: bool = True) -> Iterator[TableGame]:
    """The game's acceptance files (when ``acceptance``), then ``generated`` seeded playouts."""
    if acceptance:
        yield from file_games(spec.acceptance_files())
    for k in range(generated):
        header, moves = spec.playout(seed + k, max_moves=GENERATED_MOVES, illegal_every=ILLEGAL_EVERY)
        yield TableGame(f"generated seed {seed + k}", header, tuple(moves))


def file_games(paths: Sequence[Path]) -> Iterator[TableGame]:
    """The games written in these notation files, each named by its file."""
    for path in paths:
        with path.open(encoding="utf-8") as handle:
            record = read_notation(handle)
        yield TableGame(path.name, record.header, tuple(move for _, move in record.moves))


def play_through(
    spec: GameSpec,
    game: TableGame,
    folder: Path,
    *,
    fast: bool = True,
    pace: float = 1.0,
    stop: threading.Event | None = None,
) -> tuple[Report, SensorRun]:
    """One game through the sensors, its log kept in ``folder`` (wiped first); the run is closed
    and returned with the report so a caller can read its log."""
    run = SensorRun(spec, game.header, folder, fast=fast, pace=pace, stop=stop)
    try:
        report = run.play(game.moves, game.header)
    finally:
        run.close()
    log.info("%s, %s: %s", spec.id, game.name, report.lines()[-1])
    return report, run


def measure(
    spec: GameSpec,
    games: Sequence[TableGame],
    folder: Path,
    *,
    fast: bool = True,
    pace: float = 1.0,
    each: Callable[[TableGame, Report], None] | None = None,
    stop: threading.Event | None = None,
) -> Report:
    """Every game through the sensors; the reports summed (the share over all their moves)."""
    reports: list[Report] = []
    for k, game in enumerate(games):
        if stop is not None and stop.is_set():
            break
        report, _ = play_through(spec, game, folder / f"game-{k + 1}", fast=fast, pace=pace, stop=stop)
        reports.append(report)
        if each is not None:
            each(game, report)
    return merged(reports)
