"""Engine cost in instructions, per 1,000 moves: the same passes as ``bench/engine.py``, counted by callgrind.

Wall and CPU time on a shared machine vary by a third from run to run; the number of instructions
a pass executes does not (a few tenths of a percent). So a speed-up is measured here and confirmed
with ``bench/engine.py``. Each game is run twice under ``valgrind --tool=callgrind``: once with the
set-up only (imports, playouts, one warm-up pass) and once with ``--passes`` more passes; the
difference, divided by the moves of those passes and scaled to 1,000, is the figure. Only the
difference is read, so start-up and the playouts cost nothing in it.

    .venv/bin/python bench/instructions.py [--games ID ...] [--part check-apply|replay] [--passes N]

Needs valgrind (``/usr/bin/valgrind``); a run takes about 30 s a game.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from engine import TREE, games_of_1000_moves  # noqa: E402 (bench/ is not a package)

from companion.core import Header, Move  # noqa: E402
from companion.games import game_ids, get_game, get_spec  # noqa: E402
from companion.log.notation import read_notation  # noqa: E402
from companion.log.replay import replay  # noqa: E402

PARTS = ("check-apply", "replay")
_COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")


def check_apply_pass(game_id: str, games: list[tuple[Header, list[Move]]]) -> int:
    """One pass of ``engine.check_apply_rate``'s loop; the moves it made."""
    game = get_game(game_id)
    count = 0
    for header, ms in games:
        state: Any = game.new_state(header)
        for move in ms:
            if game.judge(state, move).ok:
                state = game.apply(state, move)
            count += 1
    return count


def replay_pass(texts: list[str]) -> None:
    """One pass of ``engine.replay_time_ms``'s loop: parse, judge and apply from notation text."""
    for text in texts:
        for _result in replay(read_notation(io.StringIO(text))):
            pass


def run_passes(game_id: str, part: str, passes: int, seed: int) -> int:
    """The set-up and one warm-up pass, then ``passes`` passes; the moves in those passes."""
    games = games_of_1000_moves(game_id, seed)
    moves = sum(len(ms) for _, ms in games)
    if part == "check-apply":
        for _ in range(passes + 1):
            check_apply_pass(game_id, games)
    else:
        game = get_game(game_id)
        texts = ["\n".join([json.dumps(h.to_json())] + [json.dumps(game.codec.to_json(m)) for m in ms]) for h, ms in games]
        for _ in range(passes + 1):
            replay_pass(texts)
    return moves * passes


def instructions(game_id: str, part: str, passes: int, seed: int) -> int:
    """Instructions callgrind counts for one run of this script's ``--inner`` mode."""
    with tempfile.TemporaryDirectory(prefix="bench-instr-") as scratch:
        command = [
            "valgrind", "--tool=callgrind", f"--callgrind-out-file={scratch}/out",
            sys.executable, __file__, "--inner", game_id, "--part", part, "--passes", str(passes), "--seed", str(seed),
        ]
        env = dict(os.environ, PYTHONHASHSEED="0")  # the same set and dict orders in both runs
        done = subprocess.run(command, cwd=TREE, env=env, capture_output=True, text=True, check=False)
    found = _COLLECTED.search(done.stderr)
    if done.returncode != 0 or found is None:
        raise RuntimeError(f"callgrind run failed ({done.returncode}):\n{done.stderr[-2000:]}")
    return int(found.group(1))


def per_1000_moves(game_id: str, part: str, passes: int, seed: int) -> tuple[float, int]:
    """Millions of instructions per 1,000 moves of ``part``, and the moves counted."""
    games = games_of_1000_moves(game_id, seed)
    moves = sum(len(ms) for _, ms in games) * passes
    base = instructions(game_id, part, 0, seed)
    full = instructions(game_id, part, passes, seed)
    return (full - base) / moves * 1000 / 1e6, moves


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", nargs="*", default=[g for g in game_ids() if get_spec(g).package.startswith("companion.games.")])
    parser.add_argument("--part", choices=PARTS, nargs="*", default=list(PARTS))
    parser.add_argument("--passes", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--inner", metavar="GAME", help=argparse.SUPPRESS)  # the run under callgrind
    args = parser.parse_args(argv)
    if args.inner:
        run_passes(args.inner, args.part if isinstance(args.part, str) else args.part[0], args.passes, args.seed)
        return 0
    if shutil.which("valgrind") is None:
        print("valgrind is not installed", file=sys.stderr)
        return 2
    print(f"{'game':<22}{'part':<13}{'moves':>7}{'M instructions / 1,000 moves':>30}")
    for game_id in args.games:
        for part in args.part:
            millions, moves = per_1000_moves(game_id, part, args.passes, args.seed)
            print(f"{game_id:<22}{part:<13}{moves:>7}{millions:>30.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
