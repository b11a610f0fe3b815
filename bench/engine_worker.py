"""One tree's engine measured pass by pass: the long-lived worker of ``bench/engine.py --against``.

``bench/engine.py`` starts this file (always this tree's copy: the other tree's bench scripts are
not run) once per tree and game, with cwd and ``PYTHONPATH`` the tree it measures, and tells it
which tree's turn it is. It imports only the pieces of the measured tree that have kept their
names and behaviour: ``companion.games.get_game`` (a game's ``new_state``, ``judge``, ``apply``,
``codec``), ``read_notation`` and ``replay``, from ``companion.log.notation`` and
``companion.log.replay`` or, before they moved there (0ef2ab8), from ``companion.notation`` and
``companion.replay``. It works against every commit since 341a3ff, the first with ``replay``;
whether a commit has the game, and reads these moves, is the game's history.

    PYTHONPATH=<tree> .venv/bin/python bench/engine_worker.py GAME.jsonl [GAME.jsonl ...]  (cwd <tree>)
    PYTHONPATH=<tree> .venv/bin/python bench/engine_worker.py --own-games GAME_ID SEED      (cwd <tree>)

Each file is one whole game in the notation (JSON Lines: the header, then one line per move). The
worker reads them with the tree's own codec. With ``--own-games`` it makes the games instead, with
the measured tree's own ``bench/engine.py`` (``games_of_1000_moves``, there since the first bench)
and writes their notation with the tree's own codec: for a commit that cannot read this tree's
notation of a game (a field added since), each tree then measures its own playouts of the same seeds.
Either way it makes one untimed pass of each measure (imports,
caches, first allocations) and prints ``ready {"games": G, "moves": M, "illegal": I}``, ``I`` being
the moves the tree judged illegal (checked, not applied). Then it answers each line of stdin:

- ``check-apply``: one pass of ``judge``, and ``apply`` when legal, over every move of the games;
  prints the moves per second;
- ``replay``: one pass of ``companion replay``'s work over the texts (parse the notation, judge,
  apply); prints the milliseconds, scaled to 1,000 moves.

Times are the CPU time of this process (``time.process_time``). The worker exits 0 at the end of
stdin. Any error (a game the tree does not have, a move it cannot read, an unknown command) is
written to stderr as one line ``engine_worker: <what it was doing>: <the error>`` (after the
traceback, unless the error is one the tree raises on purpose, a ``CompanionError``), and the exit
status is 1; ``bench/engine.py`` names the tree and the game.
"""

from __future__ import annotations

import importlib
import importlib.util
import io
import json
import sys
import time
import traceback
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

TARGET_MOVES = 1000
COMMANDS = ("check-apply", "replay")
PREFIX = "engine_worker: "
"""The start of the worker's last line on stderr when an error stops it."""
READING = "reading "
"""How the worker's last line on stderr begins (after ``engine_worker: ``) when the tree could not
read a game file: ``bench/engine.py --against`` then has each tree measure its own playouts."""

Games = Sequence[tuple[Any, Sequence[Any]]]
"""Whole games as (header, moves), in the measured tree's own types."""


@dataclass(frozen=True)
class Engine:
    """The measured tree's public pieces the bench uses."""

    get_game: Callable[[str], Any]
    read_notation: Callable[[TextIO], Any]
    replay: Callable[[Any], Iterable[Any]]


def load_engine() -> Engine:
    """The pieces, from whichever tree ``companion`` is imported from (``PYTHONPATH``)."""
    games = importlib.import_module("companion.games")
    try:
        notation = importlib.import_module("companion.log.notation")
        replaying = importlib.import_module("companion.log.replay")
    except ModuleNotFoundError as exc:
        if exc.name not in ("companion.log", "companion.log.notation", "companion.log.replay"):
            raise
        notation = importlib.import_module("companion.notation")  # before 0ef2ab8
        replaying = importlib.import_module("companion.replay")
    return Engine(games.get_game, notation.read_notation, replaying.replay)


def check_apply_pass(engine: Engine, games: Games) -> tuple[float, int, int]:
    """One timed pass of judge + apply over the games: moves per second, moves, illegal moves."""
    plays = [(engine.get_game(header.game), header, moves) for header, moves in games]
    count = illegal = 0
    start = time.process_time()
    for game, header, moves in plays:
        state: Any = game.new_state(header)
        for move in moves:
            verdict = game.judge(state, move)
            if verdict.ok:
                state = game.apply(state, move)
            else:
                illegal += 1
            count += 1
    return count / (time.process_time() - start), count, illegal


def replay_pass(engine: Engine, texts: Sequence[str], total_moves: int) -> float:
    """One timed pass of ``companion replay``'s work over the notation texts, in ms per 1,000 moves."""
    start = time.process_time()
    for text in texts:
        for _result in engine.replay(engine.read_notation(io.StringIO(text))):
            pass
    return (time.process_time() - start) * 1000 * TARGET_MOVES / total_moves


def _check_tree(engine_module: str) -> None:
    """Refuse to measure a ``companion`` that is not the tree in cwd (a venv's editable install
    otherwise answers when ``PYTHONPATH`` is missing or wrong)."""
    found = Path(importlib.import_module(engine_module).__file__ or "").resolve()
    tree = Path.cwd().resolve()
    if not found.is_relative_to(tree):
        raise RuntimeError(f"companion is imported from {found.parent}, not from the tree in cwd ({tree}): set PYTHONPATH")


def notation_text(codec: Any, header: Any, moves: Iterable[Any]) -> str:
    """One game as notation text, with the game's ``codec``: the header line, then a line per move."""
    return "\n".join([json.dumps(header.to_json())] + [json.dumps(codec.to_json(move)) for move in moves])


def own_games(engine: Engine, game_id: str, seed: int) -> tuple[list[str], list[tuple[Any, list[Any]]]]:
    """The games the measured tree's own ``bench/engine.py`` makes, and their notation texts."""
    found = importlib.util.spec_from_file_location("_measured_bench_engine", Path.cwd() / "bench" / "engine.py")
    if found is None or found.loader is None:
        raise RuntimeError("the measured tree has no bench/engine.py")
    module = importlib.util.module_from_spec(found)
    found.loader.exec_module(module)
    games = [(header, list(moves)) for header, moves in module.games_of_1000_moves(game_id, seed)]
    codec = engine.get_game(game_id).codec
    return [notation_text(codec, header, moves) for header, moves in games], games


def serve(paths: Sequence[str], commands: TextIO, answers: TextIO) -> None:
    """Read (or make) the games, warm up, say ready, then answer ``commands`` until their end."""
    doing = "importing the engine"
    try:
        _check_tree("companion")
        engine = load_engine()
        texts: list[str] = []
        games: list[tuple[Any, list[Any]]] = []
        if paths[0] == "--own-games":
            doing = f"making the games of {' '.join(paths[1:])} with the tree's own bench/engine.py"
            texts, games = own_games(engine, paths[1], int(paths[2]))
        else:
            for path in paths:
                doing = f"{READING}{path}"
                text = Path(path).read_text(encoding="utf-8")
                record = engine.read_notation(io.StringIO(text))
                texts.append(text)
                games.append((record.header, [move for _line, move in record.moves]))
        total = sum(len(moves) for _header, moves in games)
        if total == 0:
            raise ValueError("no moves to measure")
        doing = "warming up"
        _rate, moves, illegal = check_apply_pass(engine, games)
        replay_pass(engine, texts, total)
        print("ready " + json.dumps({"games": len(games), "moves": moves, "illegal": illegal}), file=answers, flush=True)
        for line in commands:
            command = line.strip()
            doing = f"answering {command!r}"
            if command == "check-apply":
                print(repr(check_apply_pass(engine, games)[0]), file=answers, flush=True)
            elif command == "replay":
                print(repr(replay_pass(engine, texts, total)), file=answers, flush=True)
            else:
                raise ValueError(f"unknown command (known: {', '.join(COMMANDS)})")
    except Exception as exc:
        raise WorkerFailed(doing, exc) from exc


class WorkerFailed(Exception):
    """What the worker was doing when an error stopped it."""

    def __init__(self, doing: str, error: Exception) -> None:
        super().__init__(f"{doing}: {type(error).__name__}: {error}")


def _plain(error: BaseException | None) -> bool:
    """An error the tree raises on purpose, in one plain sentence (its ``CompanionError``, in
    ``companion.errors`` or ``companion.core.errors`` depending on the commit): no traceback."""
    return error is not None and any(cls.__name__ == "CompanionError" for cls in type(error).__mro__)


def main(argv: Sequence[str] | None = None) -> int:
    paths = list(sys.argv[1:] if argv is None else argv)
    own = len(paths) == 3 and paths[0] == "--own-games" and paths[2].isdigit()
    if not own and (not paths or any(p.startswith("-") for p in paths)):
        print(__doc__, file=sys.stderr)
        return 2
    try:
        serve(paths, sys.stdin, sys.stdout)
    except WorkerFailed as exc:
        if not _plain(exc.__cause__):
            traceback.print_exception(exc.__cause__ or exc, file=sys.stderr)
        print(f"{PREFIX}{exc}", file=sys.stderr, flush=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
