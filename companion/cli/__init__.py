"""``companion``: the command line. One module per command group; ``main`` wires them up.

Exit status: 0 done, 1 the thing checked is bad (a tampered log), 2 the input cannot be read
(bad notation, bad config), 130 interrupted. Every error is one line on stderr naming the problem.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
from collections.abc import Sequence

from companion import __version__
from companion.core.errors import CompanionError

log = logging.getLogger(__name__)

# Each module exposes add_parser(subparsers) and sets a `run` default on its parser(s).
COMMAND_MODULES = (
    "companion.cli.replay",
    "companion.cli.logcmd",
    "companion.cli.serve",
    "companion.cli.demo",
    "companion.cli.enroll",
    "companion.cli.hw",
    "companion.cli.camera",
    "companion.cli.venue",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="companion", description="Table Companion: a referee for a real game table.")
    parser.add_argument("--version", action="version", version=f"companion {__version__}")
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug detail to stderr")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            continue  # a command group not installed yet (see COMMAND_MODULES)
        module.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.WARNING,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    try:
        code: int = args.run(args)
        return code
    except CompanionError as exc:
        print(f"companion: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
