"""Engine cost in instructions inside one function: where ``bench/instructions.py``'s figure goes.

``bench/opcodes.py`` counts bytecodes, which miss the work done in C (a call, a new object, a
formatted string); ``bench/instructions.py`` counts that too, but only for a whole pass. This script
counts the instructions executed *inside* one function, everything it calls included, over
``--passes`` check+apply passes: the function is called through ``operator.call`` (wrapped where
its callers look it up) and callgrind collects only while ``_operator_call`` runs
(``--toggle-collect``). With no ``--inside``, the passes themselves are called so: the whole
figure in one run (set-up and imports are not collected, so no second run is subtracted).

    PYTHONPATH=<copy> .venv/bin/python bench/instructions_inside.py [--game everest] \\
        [--inside MODULE:FUNCTION[:CALLER_MODULE ...]] [--passes 2]

``MODULE`` and ``CALLER_MODULE`` are modules of the game's package (``conflicts``, ``resolve``):
``--inside conflicts:find_conflict:resolve`` counts conflict detection as resolve.py calls it.
Like ``bench/instructions.py``, measure a ``git archive`` copy (the venv's editable install
otherwise measures /work/main); compile it first (``python -m compileall -q <copy>``) or every
import is compiled under valgrind, which is slow, not wrong.
"""

from __future__ import annotations

import argparse
import importlib
import operator
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from engine import TREE, games_of_1000_moves  # noqa: E402 (bench/ is not a package)
from instructions import check_apply_pass  # noqa: E402

from companion.games import get_spec  # noqa: E402

_COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")


def _through_operator_call(function: Callable[..., Any]) -> Callable[..., Any]:
    def inside(*args: Any, **kwargs: Any) -> Any:
        return operator.call(function, *args, **kwargs)

    return inside


def run(game_id: str, inside: str | None, passes: int, seed: int) -> int:
    """The set-up and one warm-up pass, then ``passes`` passes with ``inside`` wrapped; the moves."""
    games = games_of_1000_moves(game_id, seed)
    check_apply_pass(game_id, games)
    if inside is None:
        return int(operator.call(lambda: sum(check_apply_pass(game_id, games) for _ in range(passes))))
    package = get_spec(game_id).package
    module_name, function_name, *callers = inside.split(":")
    function = getattr(importlib.import_module(f"{package}.{module_name}"), function_name)
    wrapped = _through_operator_call(function)
    for caller in callers or [module_name]:
        setattr(importlib.import_module(f"{package}.{caller}"), function_name, wrapped)
    return sum(check_apply_pass(game_id, games) for _ in range(passes))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="everest")
    parser.add_argument("--inside", metavar="MODULE:FUNCTION[:CALLER ...]")
    parser.add_argument("--passes", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)  # the run under callgrind
    args = parser.parse_args(argv)
    if args.inner:
        print(run(args.game, args.inside, args.passes, args.seed))
        return 0
    if shutil.which("valgrind") is None:
        print("valgrind is not installed", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="bench-inside-") as scratch:
        command = [
            "valgrind", "--tool=callgrind", "--collect-atstart=no", "--toggle-collect=_operator_call",
            f"--callgrind-out-file={scratch}/out", sys.executable, __file__, "--inner", "--game", args.game,
            "--passes", str(args.passes), "--seed", str(args.seed),
        ] + (["--inside", args.inside] if args.inside else [])
        env = dict(os.environ, PYTHONHASHSEED="0")  # the same set and dict orders in every run
        done = subprocess.run(command, cwd=TREE, env=env, capture_output=True, text=True, check=False)
    found = _COLLECTED.search(done.stderr)
    if done.returncode != 0 or found is None:
        print(f"callgrind run failed ({done.returncode}):\n{done.stderr[-2000:]}", file=sys.stderr)
        return 1
    moves = int(done.stdout.split()[-1])
    what = args.inside or "the whole pass"
    print(f"{args.game}: {int(found.group(1)) / moves * 1000 / 1e6:.1f}M instructions per 1,000 moves inside {what} ({moves} moves)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
