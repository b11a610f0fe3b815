"""A new game from the referee's console, over real HTTP against a real TableService: the game that
was on keeps its own log, the scoreboard moves on, a bad setup changes nothing, and a restart
resumes the console's game without asking."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.app.config import load_config
from companion.log.store import GameLog
from companion.log.files import console_game
from companion.app.table_service import TableService
from companion.games import specs
from tests.serving import console_table
from tests.games.scenes import scene
from tests.web.client import Browser

PIN = "24681357"


@pytest.fixture
def table(tmp_path: Path) -> Iterator[TableService]:
    with console_table(tmp_path, PIN) as service:
        yield service


def _console(service: TableService) -> tuple[Browser, str]:
    assert service.web is not None
    b = Browser(int(service.web.server.effective_port))
    assert b.login(PIN).status == 303
    return b, b.csrf()


def test_the_console_starts_a_new_game_and_the_last_one_keeps_its_log(table: TableService) -> None:
    b, csrf = _console(table)
    first_log = table.config.log_path
    catalogue = b.get("/api/referee/games").json()
    assert isinstance(catalogue, dict) and catalogue["now"]["game"] == "everest" and catalogue["can_start"]
    em = next(g for g in catalogue["games"] if g["id"] == "escape-master")
    assert [f["name"] for f in em["setup"]] == ["dealer", "leaders"] and em["setup"][0]["rotates"]
    assert any(o["name"] == "breaking_point" and o["doc"] for o in em["options"])
    choices = b.get("/api/referee/setup-choices?" + _query(game="escape-master", players=["ann", "bo", "cy"], field="dealer")).json()
    assert isinstance(choices, dict) and [c["value"] for c in choices["choices"]] == ["ann", "bo", "cy"]

    started = b.post_json("/api/referee/new-game", {"game": "escape-master", "players": ["ann", "bo", "cy"],
                                                    "options": {"breaking_point": 20}, "setup": {"dealer": "bo"}}, csrf)
    assert started.status == 200, started.text
    board = b.get("/api/board").json()
    assert isinstance(board, dict) and board["game"] == "escape-master" and board["players"] == ["ann", "bo", "cy"]
    # The Everest game is kept aside, whole; the new game is at the configured path.
    aside = [p for p in first_log.parent.glob(first_log.stem + "-*" + first_log.suffix)]
    assert len(aside) == 1
    old = GameLog(aside[0])
    try:
        old.verify()
        header = old.header()
        assert header is not None and header.game == "everest"
    finally:
        old.close()
    assert console_game(first_log) == table.session.header.to_json()
    assert table.session.header.setup == {"dealer": "bo"} and table.session.header.options == {"breaking_point": 20}


BAD_STARTS: list[tuple[dict[str, object], str]] = [
    ({"game": "everest", "players": ["a", "b", "c", "d", "e"]}, "Everest is for 2 to 4 players, not 5"),
    ({"game": "everest", "players": ["a", "a"]}, "two players have the same name"),
    ({"game": "chess", "players": ["a", "b"]}, 'unknown game "chess"'),
    ({"game": "everest", "players": ["a", "b"], "options": {"bogus": 1}}, "no option 'bogus'"),
    ({"game": "everest", "players": "a,b"}, "players must be a list"),
    # each game's own (its scene's): a setup value off the players, a card tapped twice, a card from
    # another deck, a card of the wrong kind, a count off the rulebook
    *(
        ({"game": game_id, "players": list(bad.players), "setup": bad.setup}, bad.says)
        for game_id, spec in specs().items()
        for bad in scene(spec).bad_starts
    ),
]


@pytest.mark.parametrize(("body", "says"), BAD_STARTS)
def test_a_bad_new_game_gets_one_message_and_changes_nothing(table: TableService, body: dict[str, object], says: str) -> None:
    b, csrf = _console(table)
    before = (table.session.game.id, table.session.log.last_seq)
    answer = b.post_json("/api/referee/new-game", body, csrf)
    assert answer.status == 422 and says in answer.text and "\n" == answer.text[-1] and answer.text.count("\n") == 1
    assert (table.session.game.id, table.session.log.last_seq) == before


def test_the_console_needs_the_pin_and_the_token(table: TableService) -> None:
    assert table.web is not None
    stranger = Browser(int(table.web.server.effective_port))
    body = {"game": "everest", "players": ["a", "b"]}
    assert stranger.post_json("/api/referee/new-game", body).status == 401
    b, _ = _console(table)
    assert b.post_json("/api/referee/new-game", body, "forged").status == 403
    assert table.session.header.players != ("a", "b")


def test_a_restart_resumes_the_consoles_game_without_asking(tmp_path: Path, table: TableService) -> None:
    b, csrf = _console(table)
    assert b.post_json("/api/referee/new-game", {"game": "everest", "players": ["x", "y"]}, csrf).status == 200
    config = table.config
    table.stop()
    again = TableService(load_config(config.path), pin=PIN)  # no question asked: the console started this game
    try:
        assert again.session.header.players == ("x", "y") and again.resumed
    finally:
        again.log.close()
    table.web = None  # stopped already


def _query(**values: object) -> str:
    from urllib.parse import urlencode

    return urlencode({k: v if isinstance(v, str) else json.dumps(v) for k, v in values.items()})
