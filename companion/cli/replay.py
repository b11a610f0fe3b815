"""``companion replay FILE``: re-check a notation file, exactly as NOTATION.md says."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from companion.core.errors import NotationError
from companion.log.notation import read_notation
from companion.log.replay import replay


def add_parser(sub: Any) -> None:
    p = sub.add_parser("replay", help="re-check a game in notation (JSON Lines) and print a verdict per move")
    p.add_argument("file", help="the notation file, or - for standard input")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        if args.file == "-":
            record = read_notation(sys.stdin)
        else:
            try:
                with open(args.file, encoding="utf-8") as handle:
                    record = read_notation(handle)
            except OSError as exc:
                raise NotationError(f"{args.file}: cannot read ({exc.strerror})") from exc
            except UnicodeDecodeError as exc:
                raise NotationError(f"{args.file}: not UTF-8 text") from exc
    except NotationError as exc:
        # Nothing is printed as a result for a file that cannot be read: one message, status 2.
        print(f"companion replay: {exc}", file=sys.stderr)
        return 2
    for result in replay(record):
        print(json.dumps(result, sort_keys=True))
    return 0
