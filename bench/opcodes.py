"""Where an engine's check+apply pass spends its work: bytecodes executed per function (or per line).

A map for speed work, not a speed figure: it counts the bytecodes of one ``bench/engine.py`` pass
(1,000 moves of seeded playouts) by function, through ``sys.settrace``'s opcode events. Counts are
exact and repeatable, seconds long, and unaffected by the machine's load; they miss the work done in
C (string formatting, dict copies), so confirm a change with ``bench/instructions.py``.

    .venv/bin/python bench/opcodes.py [--game everest] [--top 40] [--lines]
"""

from __future__ import annotations

import argparse
import collections
import sys
from pathlib import Path
from types import FrameType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from engine import games_of_1000_moves  # noqa: E402 (bench/ is not a package)
from instructions import check_apply_pass  # noqa: E402

Where = tuple[str, str, int]  # file name, function, line (0 when counted by function)


def count(game_id: str, seed: int, by_line: bool) -> collections.Counter[Where]:
    """Bytecodes of one check+apply pass (after a warm-up pass), by function or by line."""
    games = games_of_1000_moves(game_id, seed)
    check_apply_pass(game_id, games)
    counts: collections.Counter[Where] = collections.Counter()

    def local(frame: FrameType, event: str, arg: Any) -> Any:
        if event == "opcode":
            code = frame.f_code
            counts[(Path(code.co_filename).name, code.co_name, (frame.f_lineno or 0) if by_line else 0)] += 1
        return local

    def start(frame: FrameType, event: str, arg: Any) -> Any:
        frame.f_trace_opcodes = True
        frame.f_trace_lines = False
        return local

    sys.settrace(start)
    try:
        check_apply_pass(game_id, games)
    finally:
        sys.settrace(None)
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="everest")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--lines", action="store_true", help="count by line instead of by function")
    args = parser.parse_args(argv)
    counts = count(args.game, args.seed, args.lines)
    total = sum(counts.values())
    print(f"{args.game}: {total:,} bytecodes in one pass")
    for (file, function, line), n in counts.most_common(args.top):
        place = f"{file}:{line} ({function})" if args.lines else f"{file} {function}"
        print(f"{n:>10,} {100 * n / total:5.1f}%  {place}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
