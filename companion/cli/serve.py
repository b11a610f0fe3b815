"""``companion init`` (write a commented default config) and ``companion serve --config FILE``."""

from __future__ import annotations

import argparse
import sys
import threading
from pathlib import Path
from typing import Any

from companion.config import DEFAULT_CONFIG, load_config
from companion.errors import ConfigError
from companion.games import get_game
from companion.log import GameLog
from companion.service import lan_url, new_pin, print_welcome, start_web, table_secret
from companion.session import Session


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
    config = load_config(args.config)
    game = get_game(config.header.game)
    game_log = GameLog(config.log_path)
    resumed = game_log.header() is not None
    session = Session(game, game_log, None if resumed else config.header)
    if resumed and session.header.to_json() != config.header.to_json():
        print(f"note: resuming the game in {config.log_path}; its header differs from the config's [game]", file=sys.stderr)
    session.start()
    pin = config.web.pin or new_pin()
    secret = table_secret(config.log_path.with_suffix(".secret"))
    public = lan_url(config.web.host, config.web.port)
    web = start_web(session, config.web, pin, secret, public)
    print(f"{game.title}: {'resumed' if resumed else 'new game'} — log {config.log_path}")
    print_welcome(web.url, public, pin, session.header.players, secret, game.id)
    sys.stdout.flush()
    waiter = stop or threading.Event()
    try:
        while not waiter.wait(1.0):
            pass
    finally:
        web.close()
        session.stop()
        game_log.close()
    return 0
