"""Every registered game's panel renders in Chromium (the contract, tests/contract/test_contract.py).

For each game the registry finds — the five and the tests' toy game — a seeded playout is served for
real, some moves in; on a 412 px phone the scoreboard draws the game's own board (never the generic
fallback table), a player's page draws that player's view, nothing overflows the width, and the page
logs no error and no Content Security Policy refusal (the panel and its styles come from the game's
folder, served at /panels/<id>/).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.core import Observation, ObservationKind
from companion.games import game_ids, get_spec
from companion.log.store import GameLog
from companion.referee.session import Session
from tests.serving import Served, serve
from web.links import player_link

pytestmark = pytest.mark.browser

WAIT_MS = 10_000
MOVES = 25


@pytest.fixture
def table(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[tuple[Session, Served]]:
    spec = get_spec(request.param)
    header, moves = spec.playout(3, max_moves=MOVES)
    game_log = GameLog(tmp_path / "game.sqlite")
    session = Session(spec.game, game_log, header)
    for n, move in enumerate(moves):
        session.process(Observation("test", 1000.0 + n, ObservationKind.MOVE, spec.game.codec.to_json(move)))
    served = serve(session)
    yield session, served
    served.web.close()
    game_log.close()


def watch(page: Any) -> list[str]:
    """Console errors, CSP refusals and failed requests (a panel or its styles that did not load)."""
    problems: list[str] = []
    page.on("console", lambda msg: problems.append(msg.text) if "Content Security Policy" in msg.text else None)
    page.on("response", lambda r: problems.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    return problems


def fits(page: Any) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 412


@pytest.mark.parametrize("table", game_ids(), indirect=True)
def test_the_panel_draws_the_board_and_a_players_view(table: tuple[Session, Served], page: Any) -> None:
    session, served = table
    game_id = session.game.id
    problems = watch(page)
    base = f"http://127.0.0.1:{served.port}"
    page.goto(base + "/")
    page.wait_for_selector("#live.on", timeout=WAIT_MS)
    page.wait_for_function("() => document.querySelector('#board').children.length > 0", timeout=WAIT_MS)
    assert page.locator("#board .generic").count() == 0, f"{game_id}: the scoreboard fell back to the generic table"
    assert page.evaluate(f"TC.games.has({game_id!r}, 'board')")
    css = page.evaluate("[...document.styleSheets].map(s => s.href || '')")
    if get_spec(game_id).path(get_spec(game_id).panel).joinpath("panel.css").is_file():
        assert any(href.endswith(f"/panels/{game_id}/panel.css") for href in css)
    fits(page)

    player = session.header.players[0]
    app = served.web.app
    page.goto(f"{base}{player_link(app, player)}")
    page.wait_for_selector("#live.on", timeout=WAIT_MS)
    page.wait_for_function("() => document.body.dataset.viewSeq !== undefined", timeout=WAIT_MS)
    assert page.locator("#mine .generic").count() == 0, f"{game_id}: the player's view fell back to the generic table"
    fits(page)
    assert problems == []
