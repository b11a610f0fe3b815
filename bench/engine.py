"""Engine speed: moves checked and applied per second, and the time to replay a 1,000-move game.

Targets (DESIGN.md): at least 50,000 check+apply a second; a 1,000-move game replayed in < 50 ms.
Games come from each engine's seeded ``random_playout`` (a simulator; the engines have no randomness).
Times are this process's CPU time (``time.process_time``), the median of ``--repeat`` runs: the
machines are shared, and CPU time is what the engine costs whatever else is running. The table also
prints each figure's spread over its runs ((slowest - fastest) / median): on a loaded machine it is
often 30% or more, and a difference smaller than the spread is noise (``bench/instructions.py``
counts instructions instead, which do not vary with the load).

``--against REF`` measures this tree and another commit side by side in one run, so that both
columns see the same machine load: the commit is checked out in a temporary ``git worktree``, and
that tree's own ``bench/engine.py --json`` and this tree's run by turns, game by game (``--rounds``
times each, every run in its own subprocess of this interpreter, cwd and PYTHONPATH the tree
measured). Each figure is the median over the rounds; the ratio is how many times faster this tree is.

    .venv/bin/python bench/engine.py [--games ID ...] [--seed N] [--repeat N] [--json]
    .venv/bin/python bench/engine.py --against 5ed1253 [--rounds 3] [--games ID ...]
"""

from __future__ import annotations

import argparse
import io
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from companion.core import Header, Move
from companion.games import game_ids, get_game, get_spec
from companion.log.notation import read_notation
from companion.log.replay import replay

TARGET_MOVES = 1000
TARGET_RATE = 50_000
TARGET_REPLAY_MS = 50.0
TREE = Path(__file__).resolve().parent.parent


def playout(game_id: str, seed: int) -> tuple[Header, list[Move]]:
    """The game's seeded playout, as its declaration names it (``GameSpec.playout``)."""
    header, moves = get_spec(game_id).playout(seed, TARGET_MOVES)
    return header, list(moves)


def games_of_1000_moves(game_id: str, seed: int) -> list[tuple[Header, list[Move]]]:
    """Whole games, from consecutive seeds, until they hold at least 1,000 moves between them."""
    out: list[tuple[Header, list[Move]]] = []
    total = 0
    while total < TARGET_MOVES:
        header, moves = playout(game_id, seed + len(out))
        if not moves:
            raise RuntimeError(f"{game_id}: random_playout({seed + len(out)}) made no moves")
        out.append((header, moves))
        total += len(moves)
    return out


def spread(values: list[float]) -> float:
    """How far apart the runs were: (largest - smallest) / median, in percent."""
    middle = statistics.median(values)
    return 100 * (max(values) - min(values)) / middle if middle else 0.0


def check_apply_rate(game_id: str, games: list[tuple[Header, list[Move]]], repeat: int) -> tuple[float, int, int, float]:
    """The median rate, the moves and illegal attempts of one run, and the spread of the rates."""
    game = get_game(game_id)
    rates = []
    illegal = moves = 0
    for _ in range(repeat):
        count = 0
        illegal = 0
        start = time.process_time()
        for header, ms in games:
            state: Any = game.new_state(header)
            for move in ms:
                verdict = game.judge(state, move)
                if verdict.ok:
                    state = game.apply(state, move)
                else:
                    illegal += 1
                count += 1
        rates.append(count / (time.process_time() - start))
        moves = count
    return statistics.median(rates), moves, illegal, spread(rates)


def replay_time_ms(game_id: str, games: list[tuple[Header, list[Move]]], repeat: int) -> tuple[float, float]:
    """Time to replay 1,000 moves from notation text, as ``companion replay`` does (parse + judge +
    apply): the median, and the spread of the runs."""
    game = get_game(game_id)
    texts = [
        "\n".join([json.dumps(h.to_json())] + [json.dumps(game.codec.to_json(m)) for m in ms]) for h, ms in games
    ]
    total_moves = sum(len(ms) for _, ms in games)
    times = []
    for _ in range(repeat):
        start = time.process_time()
        for text in texts:
            for _result in replay(read_notation(io.StringIO(text))):
                pass
        times.append((time.process_time() - start) * 1000 * TARGET_MOVES / total_moves)
    return statistics.median(times), spread(times)


def measure(game_ids: list[str], seed: int, repeat: int) -> list[dict[str, Any]]:
    rows = []
    for game_id in game_ids:
        try:
            games = games_of_1000_moves(game_id, seed)
        except (ModuleNotFoundError, AttributeError) as exc:
            print(f"{game_id}: no playout to benchmark ({exc})", file=sys.stderr)
            continue
        rate, moves, illegal, rate_spread = check_apply_rate(game_id, games, repeat)
        replay_ms, replay_spread = replay_time_ms(game_id, games, repeat)
        rows.append({
            "game": game_id, "moves": moves, "illegal": illegal, "moves_per_s": round(rate), "replay_1000_ms": round(replay_ms, 2),
            "rate_spread_pct": round(rate_spread), "replay_spread_pct": round(replay_spread),
        })
    return rows


def _verdicts(row: dict[str, Any]) -> tuple[str, str]:
    return (
        "ok" if row["moves_per_s"] >= TARGET_RATE else "SLOW",
        "ok" if row["replay_1000_ms"] < TARGET_REPLAY_MS else "SLOW",
    )


TARGETS = "targets: >= 50,000 check+apply/s; 1,000-move replay < 50 ms (parse + judge + apply, as `companion replay`)"


def print_table(rows: list[dict[str, Any]]) -> None:
    print(f"{'game':<22}{'moves':>7}{'illegal':>9}{'check+apply/s':>15}{'spread':>8}{'1,000-move replay':>20}{'spread':>8}")
    for row in rows:
        ok_rate, ok_replay = _verdicts(row)
        print(
            f"{row['game']:<22}{row['moves']:>7}{row['illegal']:>9}{row['moves_per_s']:>11,} {ok_rate:<4}{row['rate_spread_pct']:>7}%"
            f"{row['replay_1000_ms']:>13.2f} ms {ok_replay:<4}{row['replay_spread_pct']:>5}%"
        )
    print(TARGETS)
    print("spread: (slowest - fastest) / median of the runs; differences smaller than it are noise")


# -- side by side with another commit ---------------------------------------------------------------


def run_tree(tree: Path, game_ids: list[str], seed: int, repeat: int) -> dict[str, dict[str, Any]]:
    """That tree's own ``bench/engine.py --json``, in a subprocess of this interpreter: game id -> row."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    command = [sys.executable, str(tree / "bench" / "engine.py"), "--json", "--seed", str(seed), "--repeat", str(repeat)]
    done = subprocess.run(command + ["--games", *game_ids], cwd=tree, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"bench/engine.py in {tree} failed ({done.returncode}):\n{done.stderr}")
    rows = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    return {row["game"]: row for row in rows}


def _median_rows(runs: list[dict[str, dict[str, Any]]], game_id: str) -> dict[str, Any] | None:
    rows = [run[game_id] for run in runs if game_id in run]
    if not rows:
        return None
    return {
        "game": game_id,
        "moves": rows[0]["moves"],
        "illegal": rows[0]["illegal"],
        "moves_per_s": round(statistics.median(r["moves_per_s"] for r in rows)),
        "replay_1000_ms": round(statistics.median(r["replay_1000_ms"] for r in rows), 2),
        # how far apart the rounds were (each round's own runs aside)
        "rate_spread_pct": round(spread([r["moves_per_s"] for r in rows])),
        "replay_spread_pct": round(spread([r["replay_1000_ms"] for r in rows])),
    }


def against(ref: str, game_ids: list[str], seed: int, repeat: int, rounds: int) -> list[dict[str, Any]]:
    """This tree and ``ref`` measured by turns, ``rounds`` times each; one row per game with both."""
    scratch = Path(tempfile.mkdtemp(prefix="bench-engine-"))
    other = scratch / "tree"
    git = ["git", "-C", str(TREE)]
    subprocess.run(git + ["worktree", "add", "--detach", "--quiet", str(other), ref], check=True)
    try:
        here_runs: list[dict[str, dict[str, Any]]] = []
        there_runs: list[dict[str, dict[str, Any]]] = []
        # Game by game and by turns, which tree goes first alternating: a burst of load on the
        # shared machine falls on both columns alike.
        for round_no in range(rounds):
            for game_id in game_ids:
                pair = [(there_runs, other), (here_runs, TREE)]
                for runs, tree in pair if round_no % 2 == 0 else pair[::-1]:
                    runs.append(run_tree(tree, [game_id], seed, repeat))
    finally:
        subprocess.run(git + ["worktree", "remove", "--force", str(other)], check=True)
        scratch.rmdir()
    rows = []
    for game_id in game_ids:
        here, there = _median_rows(here_runs, game_id), _median_rows(there_runs, game_id)
        if here is None or there is None:
            print(f"{game_id}: not measured in {'this tree' if here is None else ref}", file=sys.stderr)
            continue
        rows.append({
            "game": game_id,
            "here": here,
            "ref": there,
            "rate_ratio": round(here["moves_per_s"] / there["moves_per_s"], 2),
            "replay_ratio": round(there["replay_1000_ms"] / here["replay_1000_ms"], 2),
        })
    return rows


def print_against(ref: str, rows: list[dict[str, Any]], rounds: int, repeat: int) -> None:
    print(f"this tree against {ref}, measured by turns: median of {rounds} rounds, each the median of {repeat} runs")
    print(f"{'':<22}{'check+apply/s':>36}{'1,000-move replay (ms)':>36}")
    print(f"{'game':<22}{'moves':>7}{'here':>13}{ref[:10]:>11}{'x':>6}{'here':>16}{ref[:10]:>11}{'x':>6}")
    for row in rows:
        here, there = row["here"], row["ref"]
        ok_rate, ok_replay = _verdicts(here)
        print(
            f"{row['game']:<22}{here['moves']:>7}{here['moves_per_s']:>8,} {ok_rate:<4}{there['moves_per_s']:>11,}"
            f"{row['rate_ratio']:>6.2f}{here['replay_1000_ms']:>11.2f} {ok_replay:<4}{there['replay_1000_ms']:>11.2f}"
            f"{row['replay_ratio']:>6.2f}"
        )
    print(f"x: how many times faster this tree is than {ref} (check+apply/s here / there; replay ms there / here)")
    print("spread of the rounds ((slowest - fastest) / median), here / there:")
    for row in rows:
        here, there = row["here"], row["ref"]
        print(
            f"  {row['game']:<20} check+apply {here['rate_spread_pct']}% / {there['rate_spread_pct']}%,"
            f" replay {here['replay_spread_pct']}% / {there['replay_spread_pct']}%"
        )
    print(TARGETS + "; ok/SLOW judge this tree")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", nargs="*", default=[g for g in game_ids() if get_spec(g).package.startswith("companion.games.")])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--json", action="store_true", help="print one JSON object per game instead of a table")
    parser.add_argument("--against", metavar="REF", help="a commit to measure side by side with this tree")
    parser.add_argument("--rounds", type=int, default=3, help="with --against: runs of each tree, by turns")
    args = parser.parse_args(argv)
    if args.against:
        rows = against(args.against, args.games, args.seed, args.repeat, args.rounds)
        if args.json:
            for row in rows:
                print(json.dumps(row))
        else:
            print_against(args.against, rows, args.rounds, args.repeat)
        return 0
    rows = measure(args.games, args.seed, args.repeat)
    if args.json:
        for row in rows:
            print(json.dumps(row))
        return 0
    print_table(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
