"""Engine speed: moves checked and applied per second, and the time to replay a 1,000-move game.

Targets (DESIGN.md): at least 50,000 check+apply a second; a 1,000-move game replayed in < 50 ms.
Games come from each engine's seeded ``random_playout`` (a simulator; the engines have no randomness).
Times are this process's CPU time (``time.process_time``), the median of ``--repeat`` runs: the
machines are shared, and CPU time is what the engine costs whatever else is running.

    .venv/bin/python bench/engine.py [--games ID ...] [--seed N] [--repeat N] [--json]
"""

from __future__ import annotations

import argparse
import importlib
import io
import json
import statistics
import sys
import time
from typing import Any

from companion.core import Header, Move
from companion.games import game_ids, get_game, get_spec
from companion.log.notation import read_notation
from companion.log.replay import replay

TARGET_MOVES = 1000


def playout(game_id: str, seed: int) -> tuple[Header, list[Move]]:
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


def check_apply_rate(game_id: str, games: list[tuple[Header, list[Move]]], repeat: int) -> tuple[float, int, int]:
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
    return statistics.median(rates), moves, illegal


def replay_time_ms(game_id: str, games: list[tuple[Header, list[Move]]], repeat: int) -> float:
    """Time to replay 1,000 moves from notation text, as ``companion replay`` does (parse + judge + apply)."""
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
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", nargs="*", default=list(game_ids()))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--json", action="store_true", help="print one JSON object per game instead of a table")
    args = parser.parse_args(argv)
    rows = []
    for game_id in args.games:
        try:
            games = games_of_1000_moves(game_id, args.seed)
        except (ModuleNotFoundError, AttributeError) as exc:
            print(f"{game_id}: no playout to benchmark ({exc})", file=sys.stderr)
            continue
        rate, moves, illegal = check_apply_rate(game_id, games, args.repeat)
        replay_ms = replay_time_ms(game_id, games, args.repeat)
        rows.append({"game": game_id, "moves": moves, "illegal": illegal, "moves_per_s": round(rate), "replay_1000_ms": round(replay_ms, 2)})
    if args.json:
        for row in rows:
            print(json.dumps(row))
        return 0
    print(f"{'game':<22}{'moves':>7}{'illegal':>9}{'check+apply/s':>15}{'1,000-move replay':>20}")
    for row in rows:
        ok_rate = "ok" if row["moves_per_s"] >= 50_000 else "SLOW"
        ok_replay = "ok" if row["replay_1000_ms"] < 50 else "SLOW"
        print(
            f"{row['game']:<22}{row['moves']:>7}{row['illegal']:>9}{row['moves_per_s']:>11,} {ok_rate:<4}"
            f"{row['replay_1000_ms']:>13.2f} ms {ok_replay}"
        )
    print("targets: >= 50,000 check+apply/s; 1,000-move replay < 50 ms (parse + judge + apply, as `companion replay`)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
