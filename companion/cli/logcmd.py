"""``companion log verify DB`` and ``companion log export DB --format jsonl|text``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from companion.errors import LogError, LogIntegrityError
from companion.export import notation_lines, transcript_lines
from companion.log import GameLog


def add_parser(sub: Any) -> None:
    p = sub.add_parser("log", help="check or export a game log")
    logsub = p.add_subparsers(dest="log_command", metavar="ACTION")
    logsub.required = True
    v = logsub.add_parser("verify", help="check the hash chain; names the first bad row")
    v.add_argument("db")
    v.set_defaults(run=verify)
    e = logsub.add_parser("export", help="export the game as notation (jsonl) or a readable transcript (text)")
    e.add_argument("db")
    e.add_argument("--format", choices=("jsonl", "text"), default="jsonl")
    e.set_defaults(run=export)


def _open(path: str) -> GameLog:
    if not Path(path).is_file():
        raise LogError(f"{path}: no such log file")
    return GameLog(path)


def verify(args: argparse.Namespace) -> int:
    with _open(args.db) as game_log:
        try:
            count = game_log.verify()
        except LogIntegrityError as exc:
            print(f"companion log verify: {args.db}: BROKEN at row {exc.seq}: {exc}", file=sys.stderr)
            return 1
    print(f"{args.db}: {count} rows, hash chain intact")
    return 0


def export(args: argparse.Namespace) -> int:
    with _open(args.db) as game_log:
        lines = notation_lines(game_log) if args.format == "jsonl" else transcript_lines(game_log)
        for line in lines:
            print(line)
    return 0
