"""``companion demo``: the whole pipeline with a simulated reader array, a scripted game, a live scoreboard.

``companion demo --game G``: G's acceptance games and generated ones played whole through its sensor
plan (simulated arrays running the real firmware, the bridge, the table model, the session and its
log), each move accounted; the last line is the sensor share (issue 21)."""

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
    p.add_argument("--game", help="play this game's acceptance and generated games through its sensors and print the share")
    p.add_argument("--fast", action="store_true", help="with --game: play as fast as the pipeline settles")
    p.add_argument("--generated", type=int, default=20, help="with --game: how many generated games after the acceptance ones")
    p.add_argument("--play", nargs="+", type=Path, metavar="FILE",
                   help="with --game: play these notation files (a game you recorded) instead of the acceptance games")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from companion.demo import run_demo

    if args.speed < 0:
        raise SystemExit("companion demo: --speed must be 0 or more")
    if args.game is not None:
        return _share(args)
    run_demo(Path(args.dir), args.host, args.port, args.speed, args.seed, serve_after=not args.exit)
    return 0


def _share(args: argparse.Namespace) -> int:
    from companion.demo.measure import TableGame, file_games, measure, table_games
    from companion.core.errors import NotationError
    from companion.demo.account import Report, share_line
    from companion.games import game_ids, get_spec

    if args.game not in game_ids():
        raise SystemExit(f"companion demo: no game {args.game!r}; the games are {', '.join(game_ids())}")
    if args.generated < 0:
        raise SystemExit("companion demo: --generated must be 0 or more")
    spec = get_spec(args.game)
    if spec.sensors is None:
        raise SystemExit(f"companion demo: {spec.title} has no sensor plan yet (issue 21)")

    def each(game: TableGame, report: Report) -> None:
        print(f"{game.name}: {share_line(report)}", flush=True)

    games = list(table_games(spec, args.generated, seed=args.seed, acceptance=not args.play))
    if args.play:
        try:
            recorded = list(file_games(args.play))
        except (OSError, NotationError) as exc:
            raise SystemExit(f"companion demo: {exc}") from None
        for game in recorded:
            if game.header.game != spec.id:
                raise SystemExit(f"companion demo: {game.name} is a game of {game.header.game}, not {spec.id}")
        games = recorded + games
    report = measure(spec, games, Path(args.dir), fast=args.fast or args.speed == 0, pace=args.speed or 1.0, each=each)
    print("\n".join(report.lines()))
    return 0 if not report.misread_on_legal_play() else 1
