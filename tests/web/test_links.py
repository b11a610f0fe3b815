"""A player's link belongs to the player at the table (issue 22): over real HTTP against `companion
serve` started as systemd would (no terminal, so the PIN and links go to the `.access` file).

- Play again and a new game that seats the player keep their link, and it opens the new game.
- A player the next game does not seat loses theirs; sitting down again later gives a new one.
- The referee can rotate every link; the `.access` file lists the live links only, and a restart
  keeps them.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.app.config import load_config
from tests.test_serve import _start, _until
from tests.web.client import Browser, player_links

pytestmark = pytest.mark.slow


class Table:
    """A served table, its console and its access file."""

    def __init__(self, config: Path) -> None:
        self.config = config
        self.access = load_config(config).log_path.with_suffix(".access")
        self.proc, self.url, self.pin = _start(config)
        self.port = int(self.url.rsplit(":", 1)[1].strip("/"))
        self.console = Browser(self.port)
        assert self.console.login(self.pin).status == 303
        self.csrf = self.console.csrf()

    def access_links(self) -> dict[str, str]:
        """The links the access file lists, as paths."""
        text = self.access.read_text(encoding="utf-8")
        return {m.group(1): m.group(2) for m in re.finditer(r"^  (\S+): http://[^/]+(/p/\S+)$", text, re.M)}

    def console_links(self) -> dict[str, str]:
        return player_links(self.console.get("/referee").text)

    def new_game(self, players: list[str]) -> None:
        answer = self.console.post_json("/api/referee/new-game", {"game": "everest", "players": players}, self.csrf)
        assert answer.status == 200, answer.text
        _until(lambda: self.console_links().keys() == set(players), "the console to list the new game's players")

    def view(self, link: str) -> int:
        return Browser(self.port).get("/api" + link + "/view").status

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(20)


@pytest.fixture
def config(tmp_path: Path) -> Path:
    path = tmp_path / "table.toml"
    subprocess.run(
        [sys.executable, "-m", "companion", "init", str(path), "--game", "everest", "--no-hardware", "--host", "127.0.0.1", "--port", "0"],
        check=True, capture_output=True, cwd=tmp_path,
    )
    return path


@pytest.fixture
def table(config: Path) -> Iterator[Table]:
    served = Table(config)
    try:
        yield served
    finally:
        served.stop()


def test_play_again_keeps_every_link_and_it_opens_the_new_game(table: Table) -> None:
    first = table.access_links()
    assert set(first) == {"anna", "ben", "cleo", "dan"} and first == table.console_links()
    log_path = load_config(table.config).log_path
    table.new_game(["anna", "ben", "cleo", "dan"])  # Play again
    assert len(list(log_path.parent.glob(log_path.stem + "-*" + log_path.suffix))) == 1  # the last game, set aside
    assert table.console_links() == first and table.access_links() == first
    for link in first.values():
        assert table.view(link) == 200
    anna = Browser(table.port).get("/api" + first["anna"] + "/view").json()
    board = Browser(table.port).get("/api/board").json()
    assert isinstance(anna, dict) and isinstance(board, dict) and anna["player"] == "anna"
    assert anna["board"]["seq"] == board["seq"] and anna["board"]["players"] == board["players"]


def test_a_player_who_leaves_loses_the_link_and_gets_a_new_one_on_return(table: Table) -> None:
    first = table.access_links()
    table.new_game(["anna", "ben", "zed"])
    now = table.access_links()
    assert set(now) == {"anna", "ben", "zed"}, "the access file lists the live links only"
    assert now["anna"] == first["anna"] and now["ben"] == first["ben"]
    assert table.view(first["cleo"]) == 404 and table.view(first["dan"]) == 404  # not at the table
    assert table.view(now["zed"]) == 200
    table.new_game(["anna", "cleo"])
    back = table.access_links()
    assert set(back) == {"anna", "cleo"} and back["anna"] == first["anna"]
    assert back["cleo"] != first["cleo"], "a link revoked stays revoked"
    assert table.view(first["cleo"]) == 404 and table.view(back["cleo"]) == 200
    assert table.view(now["zed"]) == 404  # zed left in turn
    assert table.view(first["ben"]) == 404  # and so did ben


def test_the_referee_rotates_every_link(table: Table) -> None:
    first = table.access_links()
    stranger = Browser(table.port)
    assert stranger.post_form("/referee/rotate-links", {"csrf": stranger.csrf()}).status in (302, 303, 401)
    assert table.access_links() == first  # only the referee may
    assert table.console.post_form("/referee/rotate-links", {"csrf": "forged"}).status == 403
    assert table.console.post_form("/referee/rotate-links", {"csrf": table.csrf}).status == 303
    rotated = table.access_links()
    assert set(rotated) == set(first) and rotated == table.console_links()
    for player, link in first.items():
        assert rotated[player] != link
        assert table.view(link) == 404 and table.view(rotated[player]) == 200


def test_a_restart_keeps_the_links(config: Path) -> None:
    table = Table(config)
    try:
        table.new_game(["anna", "ben"])
        links = table.access_links()
    finally:
        table.stop()
    again = Table(config)
    try:
        assert again.access_links() == links
        assert all(again.view(link) == 200 for link in links.values())
    finally:
        again.stop()
