"""``companion init`` (write a commented default config) and ``companion serve --config FILE``.

``init`` writes the file readable by its owner only (0600): it is where the PIN and the broker
password go. ``serve`` refuses a config that holds either and that other users can read.

``serve`` never silently resumes a log whose header disagrees with the config: it says what differs
and asks on a terminal (resume / new game / quit), or follows ``--resume`` / ``--new-game``; with
neither and no terminal it exits 2 with the message. A broken log is refused unless
``--continue-broken`` (see :mod:`companion.log.files`).
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from companion.app.config import default_config, load_config
from companion.app.secret_files import refuse_exposed_config
from companion.core.errors import ConfigError
from companion.games import game_ids
from companion.log.store import fingerprint
from companion.log.files import Choice, Declined
from companion.log.private_file import write_private
from companion.app.service import print_welcome
from companion.app.starter import no_hardware_config
from companion.app.table_service import TableService


def add_parser(sub: Any) -> None:
    i = sub.add_parser("init", help="write a commented default table config")
    i.add_argument("path", nargs="?", default="table.toml")
    i.add_argument("--force", action="store_true", help="overwrite an existing file")
    i.add_argument(
        "--no-hardware",
        action="store_true",
        help="a config that starts as it is with no readers and no camera (moves entered by tapping)",
    )
    i.add_argument("--game", choices=game_ids(), help="the game (with --no-hardware; default escape-master)")
    i.add_argument("--host", default="0.0.0.0", help="with --no-hardware: the address to serve on (default every interface)")
    i.add_argument("--port", type=int, default=8000, help="with --no-hardware: the port (default 8000; 0 = any free port)")
    i.set_defaults(run=init)
    s = sub.add_parser("serve", help="run the companion for the table in a config file")
    s.add_argument("--config", required=True)
    s.add_argument("--host", help="serve on this address instead of the config's [web] host")
    s.add_argument("--port", type=_port, help="serve on this port instead of the config's [web] port (0 = any free port)")
    when = s.add_mutually_exclusive_group()
    when.add_argument("--resume", action="store_true", help="if the log's game differs from the config's, resume the log's game")
    when.add_argument(
        "--new-game",
        action="store_true",
        help="start the config's game in a new log file; the old log is kept as <stem>-<time><suffix>",
    )
    s.add_argument(
        "--continue-broken",
        action="store_true",
        help="if the log's hash chain is broken, keep it as <stem>-broken-<time><suffix> and carry on "
        "from its last good row in a new log linked to it",
    )
    s.set_defaults(run=serve)


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{port} is not a TCP port (0-65535)")
    return port


ANSWERS = {"r": Choice.RESUME, "resume": Choice.RESUME, "n": Choice.NEW_GAME, "new": Choice.NEW_GAME, "q": Choice.QUIT, "quit": Choice.QUIT}


def ask_on_terminal(path: Path, read: Callable[[str], str] = input) -> Callable[[list[str]], Choice]:
    """The question put to the person at the terminal when the log's game differs from the config's."""

    def choose(differences: list[str]) -> Choice:
        print(f"{path} holds a game whose header differs from the config's [game]:", file=sys.stderr)
        for line in differences:
            print(f"  {line}", file=sys.stderr)
        while True:
            try:
                answer = read("[r]esume the old game / start a [n]ew game in a new log file / [q]uit? ")
            except EOFError:
                return Choice.QUIT
            if (choice := ANSWERS.get(answer.strip().lower())) is not None:
                return choice

    return choose


def init(args: argparse.Namespace) -> int:
    path = Path(args.path)
    if path.exists() and not args.force:
        raise ConfigError(f"{path}: already exists (use --force to overwrite)")
    # 0600: the config is where the referee PIN and the broker password go (docs/security.md).
    if args.no_hardware:
        write_private(path, no_hardware_config(args.game or "escape-master", host=args.host, port=args.port).encode("utf-8"))
        print(f"wrote {path} (no readers, no camera); start it with: companion serve --config {path}")
        return 0
    if args.game is not None:
        raise ConfigError("--game goes with --no-hardware (the default config with readers is for Escape Master)")
    write_private(path, default_config().encode("utf-8"))
    print(f"wrote {path}; edit the game, players and zones, then: companion serve --config {path}")
    return 0


def serve(args: argparse.Namespace, stop: threading.Event | None = None) -> int:
    waiter = stop or threading.Event()
    if stop is None and threading.current_thread() is threading.main_thread():
        # systemd stops the service with SIGTERM: finish the batch in hand, close the log, exit 0.
        signal.signal(signal.SIGTERM, lambda signum, frame: waiter.set())
    config = load_config(args.config)
    refuse_exposed_config(config.path)  # a PIN or password that another user on the Pi could read
    if args.host is not None or args.port is not None:
        web = replace(config.web, host=config.web.host if args.host is None else args.host,
                      port=config.web.port if args.port is None else args.port)
        config = replace(config, web=web)
    if args.resume:
        choose: Callable[[list[str]], Choice] | None = lambda differences: Choice.RESUME
    else:
        choose = ask_on_terminal(config.log_path) if sys.stdin.isatty() else None
    try:
        service = TableService(config, None, choose, args.new_game, args.continue_broken)
    except Declined as exc:
        print(f"companion: {exc}", file=sys.stderr)
        return 0
    service.start()
    opened = service.opened
    if opened.differences:
        print(f"note: resuming the game in {config.log_path}; it differs from the config's [game]: {'; '.join(opened.differences)}", file=sys.stderr)
    if opened.continued is not None:
        link = opened.continued
        print(
            f"the log was broken: kept as {opened.archived}; this log carries on from its row {link['seq']} "
            f"(head {fingerprint(str(link['hash']))})"
        )
    elif opened.archived is not None:
        print(f"the previous game's log is kept as {opened.archived}")
    assert service.web is not None
    print(f"{service.game.title}: {'resumed' if service.resumed else 'new game'} — log {config.log_path}")
    written = print_welcome(
        service.web.url, service.public_url, service.pin, service.live_links(),
        access_file=config.log_path.with_suffix(".access"),
    )
    if written is not None:
        service.keep_access_file(written)  # rewritten when a new game seats others or the links rotate
    try:
        while not waiter.wait(1.0):
            pass
    finally:
        service.stop()
    return 0
