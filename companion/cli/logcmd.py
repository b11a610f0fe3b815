"""``companion log verify DB [--head FINGERPRINT]`` and ``companion log export DB --format jsonl|text|bgstats``."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from companion.core.errors import LogError, LogIntegrityError
from companion.log import bgstats
from companion.log.export import notation_lines, transcript_lines
from companion.log.store import CHAIN_KEYED, GameLog, fingerprint


def add_parser(sub: Any) -> None:
    p = sub.add_parser("log", help="check or export a game log")
    logsub = p.add_subparsers(dest="log_command", metavar="ACTION")
    logsub.required = True
    v = logsub.add_parser("verify", help="check the hash chain; names the first bad row")
    v.add_argument("db")
    v.add_argument(
        "--head",
        metavar="FINGERPRINT",
        help='a head the scoreboard showed ("ab12 cd34 ef56", or "N:ab12cd34ef56" for row N): '
        "also prove that row is still there and nothing before it changed",
    )
    v.add_argument("--key", metavar="FILE", help="the chain key (default: log-chain.key beside the log)")
    v.add_argument("--allow-unkeyed", action="store_true", help="accept a plain sha256 chain (a log from before keyed chains)")
    v.set_defaults(run=verify)
    e = logsub.add_parser("export", help="export the game as notation (jsonl), a readable transcript (text) or a BG Stats play (bgstats)")
    e.add_argument("db")
    e.add_argument("--format", choices=("jsonl", "text", "bgstats"), default="jsonl",
                   help="bgstats: the finished game as BG Stats' createPlay JSON (the page's \"Save to BG Stats\" link carries the same)")
    e.set_defaults(run=export)


def _open(path: str, key: str | None = None) -> GameLog:
    if not Path(path).is_file():
        raise LogError(f"{path}: no such log file")
    if key is not None and not Path(key).is_file():
        raise LogError(f"{key}: no such key file")
    return GameLog(path, key)


def verify(args: argparse.Namespace) -> int:
    with _open(args.db, args.key) as game_log:
        try:
            if args.head is None:
                count = game_log.verify(args.allow_unkeyed)
            else:
                count, at = game_log.verify_head(args.head, args.allow_unkeyed)
        except LogIntegrityError as exc:
            print(f"companion log verify: {args.db}: BROKEN at row {exc.seq}: {exc}", file=sys.stderr)
            return 1
        kind = "keyed (HMAC-SHA256)" if game_log.chain == CHAIN_KEYED else "plain sha256, unkeyed: it shows accidents, not deliberate edits"
        head = fingerprint(game_log.head)
    print(f"{args.db}: {count} rows, hash chain intact, {kind}; head {head}")
    if args.head is not None:
        print(f"the head you kept names row {at}; it is unchanged, and {count - at} rows follow it")
    return 0


def export(args: argparse.Namespace) -> int:
    if args.format == "bgstats":
        with _open(args.db) as game_log:
            play = bgstats.from_log(game_log)
        if play is None:
            print(f"companion log export: {args.db}: the game is not over, so it is not a play yet", file=sys.stderr)
            return 1
        print(json.dumps(play, indent=2, ensure_ascii=False))
        return 0
    with _open(args.db) as game_log:
        lines = notation_lines(game_log) if args.format == "jsonl" else transcript_lines(game_log)
        for line in lines:
            print(line)
    return 0
