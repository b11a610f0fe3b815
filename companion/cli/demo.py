"""``companion demo``: the whole pipeline with a simulated reader array, a scripted game, a live scoreboard."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any


def add_parser(sub: Any) -> None:
    p = sub.add_parser("demo", help="play a scripted Escape Master game through simulated readers, scoreboard on localhost")
    p.add_argument("--dir", default="demo-data", help="where the demo keeps its log and tag registry (wiped at start)")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--speed", type=float, default=1.0, help="2 plays twice as fast; 0 plays as fast as the pipeline goes")
    p.add_argument("--seed", type=int, default=7, help="which scripted game")
    p.add_argument("--exit", action="store_true", help="stop when the game is over instead of serving on")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from companion.demo import run_demo

    if args.speed < 0:
        raise SystemExit("companion demo: --speed must be 0 or more")
    run_demo(Path(args.dir), args.host, args.port, args.speed, args.seed, serve_after=not args.exit)
    return 0
