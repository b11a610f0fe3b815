"""The log fold's cost: folding rows live as the session writes them, resuming a table from its log,
and the dispute view's states around a row.

For each engine, whole games from consecutive seeds of its ``random_playout`` (with illegal attempts)
until they hold 1,000 moves between them, each entered through a real :class:`Session` on its own
real log, in bursts of ``--batch`` observations, with a referee's take-back and re-entry every 10th
move. Figures are CPU time of this process
(``time.process_time``), the median of ``--repeat`` runs, so the fsyncs of the log's commits (which
wait on the disk, not the CPU) do not hide what the fold costs.

- live: CPU microseconds per row written (interpret, the fold's step, codec, the log's hashing);
- resume: CPU milliseconds to open sessions on the finished logs (each log folded whole), per 1,000 rows;
- dispute: CPU milliseconds per ``/api/log/<seq>`` state pair, from fresh snapshots, for up to 50 rows a log.

    .venv/bin/python bench/fold.py [--games ID ...] [--seed N] [--repeat N] [--batch N] [--json]
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from companion.core import Header, Move, Observation, ObservationKind
from companion.games import GAME_MODULES, get_game
from companion.log.store import GameLog
from companion.referee.session import Session
from web.disputes import DisputeStates

TARGET_MOVES = 1000


def playouts(game_id: str, seed: int) -> list[tuple[Header, list[Move]]]:
    """Whole games, from consecutive seeds, until they hold at least 1,000 moves between them."""
    module = importlib.import_module(GAME_MODULES[game_id] + ".playout")
    out: list[tuple[Header, list[Move]]] = []
    total = 0
    while total < TARGET_MOVES:
        header, moves = module.random_playout(seed + len(out), TARGET_MOVES - total, illegal_every=9)
        out.append((header, list(moves)))
        total += len(moves)
    return out


def observations(game_id: str, moves: list[Move]) -> list[Observation]:
    codec = get_game(game_id).codec
    out: list[Observation] = []
    t = 1000.0
    for n, move in enumerate(moves):
        t += 0.5
        entry = codec.to_json(move)
        out.append(Observation("bench", t, ObservationKind.MOVE, entry))
        if n % 10 == 9:  # the referee takes the last move back (refused if it was illegal) and it is entered again
            out.append(Observation("web:referee", t, ObservationKind.UNDO, {}))
            out.append(Observation("bench", t, ObservationKind.MOVE, entry))
    return out


def one_run(game_id: str, games: list[tuple[Header, list[Observation]]], batch: int, folder: Path) -> dict[str, float]:
    game = get_game(game_id)
    live = resume = dispute = 0.0
    rows = entered = asked = 0
    for n, (header, obs) in enumerate(games):
        path = folder / f"{game_id}-{n}-{time.monotonic_ns()}.sqlite"
        with GameLog(path) as log:
            session = Session(game, log, header)
            start = time.process_time()
            for i in range(0, len(obs), batch):
                session.process_many(obs[i : i + batch])
            live += time.process_time() - start
            entered += len(obs)
            last = log.last_seq
        rows += last
        with GameLog(path) as log:
            start = time.process_time()
            resumed = Session(game, log)
            resume += time.process_time() - start
            disputes = DisputeStates(resumed)
            seqs = random.Random(last).sample(range(2, last + 1), min(50, last - 1))
            start = time.process_time()
            for seq in seqs:
                disputes.around(seq)
            dispute += time.process_time() - start
            asked += len(seqs)
    return {
        "rows": rows,
        "live_us_per_row": live / entered * 1e6,
        "resume_ms_per_1000": resume / rows * 1e6,
        "dispute_ms": dispute / asked * 1e3,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", nargs="*", default=sorted(GAME_MODULES))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    out: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for game_id in args.games:
            games = [(header, observations(game_id, moves)) for header, moves in playouts(game_id, args.seed)]
            runs = [one_run(game_id, games, args.batch, Path(tmp)) for _ in range(args.repeat)]
            row: dict[str, Any] = {"game": game_id, "rows": runs[0]["rows"]}
            for key in ("live_us_per_row", "resume_ms_per_1000", "dispute_ms"):
                row[key] = round(statistics.median(r[key] for r in runs), 2)
            out.append(row)
    if args.json:
        json.dump(out, sys.stdout)
        print()
        return 0
    print(f"{'game':<22}{'rows':>7}{'live µs/row':>14}{'resume ms/1,000 rows':>22}{'dispute ms':>13}")
    for row in out:
        print(f"{row['game']:<22}{row['rows']:>7}{row['live_us_per_row']:>14}{row['resume_ms_per_1000']:>22}{row['dispute_ms']:>13}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
