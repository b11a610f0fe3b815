"""``companion init`` (write a commented default config) and ``companion serve --config FILE``."""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from pathlib import Path
from typing import Any

from companion.config import DEFAULT_CONFIG, load_config
from companion.errors import ConfigError
from companion.service import print_welcome
from web.auth import game_key
from companion.table_service import TableService


def add_parser(sub: Any) -> None:
    i = sub.add_parser("init", help="write a commented default table config")
    i.add_argument("path", nargs="?", default="table.toml")
    i.add_argument("--force", action="store_true", help="overwrite an existing file")
    i.set_defaults(run=init)
    s = sub.add_parser("serve", help="run the companion for the table in a config file")
    s.add_argument("--config", required=True)
    s.set_defaults(run=serve)


def init(args: argparse.Namespace) -> int:
    path = Path(args.path)
    if path.exists() and not args.force:
        raise ConfigError(f"{path}: already exists (use --force to overwrite)")
    path.write_text(DEFAULT_CONFIG, encoding="utf-8")
    print(f"wrote {path}; edit the game, players and zones, then: companion serve --config {path}")
    return 0


def serve(args: argparse.Namespace, stop: threading.Event | None = None) -> int:
    waiter = stop or threading.Event()
    if stop is None and threading.current_thread() is threading.main_thread():
        # systemd stops the service with SIGTERM: finish the batch in hand, close the log, exit 0.
        signal.signal(signal.SIGTERM, lambda signum, frame: waiter.set())
    config = load_config(args.config)
    service = TableService(config).start()
    if service.resumed and service.session.header.to_json() != config.header.to_json():
        print(f"note: resuming the game in {config.log_path}; its header differs from the config's [game]", file=sys.stderr)
    assert service.web is not None
    print(f"{service.game.title}: {'resumed' if service.resumed else 'new game'} — log {config.log_path}")
    key = game_key(service.game.id, service.session.log.row(1))
    print_welcome(
        service.web.url, service.public_url, service.pin, service.session.header.players, service.secret, key,
        access_file=config.log_path.with_suffix(".access"),
    )
    try:
        while not waiter.wait(1.0):
            pass
    finally:
        service.stop()
    return 0
