"""Real table services and a real venue service for the venue tests: tables publish to the test's
Mosquitto, the venue answers over HTTP, and a game is played through the session's one path in."""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.app.config import load_config
from companion.venue.broker import BrokerConfig
from companion.core import Header, Observation, ObservationKind
from companion.games import get_game
from companion.games.horrible_mountain_2.playout import random_playout
from companion.venue.publish import TablePublisher
from companion.app.starter import no_hardware_config
from companion.app.table_service import TableService
from companion.app.venue import VenueConfig, VenueService
from companion.venue.limits import VenueLimits

PIN = "24681357"
VENUE = "cafe"


def wait_for(check: Callable[[], bool], timeout: float = 120.0) -> bool:
    """Poll ``check`` until it holds; a generous deadline, never a timed assertion."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.1)
    return False


def broker_section(port: int, table: str, extra: str = "") -> str:
    return f'\n[broker]\nhost = "127.0.0.1"\nport = {port}\nvenue = "{VENUE}"\ntable = "{table}"\n{extra}'


@dataclass
class Table:
    """A real TableService that publishes, with a game of Horrible Mountain 2 to play through it."""

    name: str
    service: TableService
    header: Header
    moves: list[Any]
    played: int = 0
    codec: Any = field(default=None)

    def start_game(self) -> None:
        """The console's path: a new game at the table (its own log, its own instance at the venue)."""
        self.service.new_game(self.header)

    def play(self, upto: int) -> None:
        session = self.service.session
        for m in self.moves[self.played : upto]:
            # Refereeing never waits on the broker: the listener only queues a row number.
            session.process(Observation("cli", float(self.played), ObservationKind.MOVE, self.codec.to_json(m)))
            self.played += 1

    def cut_off(self) -> None:
        """The table's network path to the broker goes away; its game goes on into its log."""
        self.service.publisher.stop()

    def reconnect(self) -> None:
        assert self.service.config.broker is not None
        self.service.publisher = TablePublisher(self.service.session, self.service.config.broker).start()

    def public_rows(self) -> list[dict[str, Any]]:
        session = self.service.session
        return [json.loads(json.dumps(session.public_row(r), sort_keys=True)) for r in session.log.rows()]


def start_table(tmp_path: Path, name: str, port: int, seed: int, extra: str = "") -> Table:
    folder = tmp_path / name
    folder.mkdir()
    config = folder / "table.toml"
    text = no_hardware_config("horrible-mountain-2", host="127.0.0.1", port=0)
    config.write_text(text + broker_section(port, name, extra), encoding="utf-8")
    header, moves = random_playout(seed=seed, max_moves=400)
    service = TableService(load_config(config), pin=PIN).start()
    return Table(name, service, header, list(moves), codec=get_game("horrible-mountain-2").codec)


def start_game_table(tmp_path: Path, name: str, port: int, game_id: str) -> TableService:
    """A real table service serving ``game_id`` as ``companion init --no-hardware`` sets it up, publishing."""
    folder = tmp_path / name
    folder.mkdir()
    config = folder / "table.toml"
    config.write_text(no_hardware_config(game_id, host="127.0.0.1", port=0) + broker_section(port, name), encoding="utf-8")
    return TableService(load_config(config), pin=PIN).start()


def start_venue(tmp_path: Path, port: int, broker: BrokerConfig | None = None, limits: VenueLimits | None = None) -> VenueService:
    """The real venue service (its own random client id, as in production), listening to ``broker``."""
    config = VenueConfig(
        broker=broker or BrokerConfig(host="127.0.0.1", port=port, venue=VENUE, table="venue"),
        db=tmp_path / "venue.sqlite",
        host="127.0.0.1",
        port=0,
        limits=limits or VenueLimits(),
    )
    return VenueService(config).start()


def as_user(user: str) -> str:
    """A table config's ``[broker]`` lines for its own user on :func:`tests.venue.conftest.secured_broker`."""
    return f'username = "{user}"\npassword = "pw-{user}"\n'


def venue_user(port: int) -> BrokerConfig:
    """The venue's broker settings as its own user on :func:`tests.venue.conftest.secured_broker`."""
    return BrokerConfig(host="127.0.0.1", port=port, venue=VENUE, table="venue", username="venue", password="pw-venue")


def get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as response:
        return json.loads(response.read())


def venue_events(venue: VenueService, table: str) -> list[dict[str, Any]]:
    """Every event the venue serves for a table's current game, page by page over HTTP."""
    out: list[dict[str, Any]] = []
    while True:
        page = get_json(f"{venue.url}api/table/{table}?after={out[-1]['seq'] if out else 0}")
        if not page["events"]:
            return out
        out += page["events"]
