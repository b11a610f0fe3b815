"""Every page of every game fits a phone, and the big screen a TV, at the game's player counts.

At 412 px (a phone) no page is wider than the screen: the scoreboard, the big screen, the log, a
player's page and the referee's console, with the fewest, a typical and the most players each game
allows. At 1920x1080 the big screen shows
the game's central state (piles, board, clocks, Table Cards, pyramid) without scrolling.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import pytest

from companion.core import Header, Observation, ObservationKind
from companion.games import get_game
from companion.log.store import GameLog
from companion.referee.session import Session
from tests.serving import Served, serve
from web.auth import player_token

pytestmark = pytest.mark.browser

CENTRAL = {
    "escape-master": ".em-piles, .panel h3",
    "escape-house": ".clocks",
    "everest": "svg.everest-map",
    "horrible-mountain-2": ".slots",
    "the-mountain": ".pyramid",
}
"""What a table looks at on the big screen, per game."""

TABLES: list[tuple[str, dict[str, Any]]] = [
    ("escape-master", {"players": ["anna", "ben"]}),
    ("escape-master", {"players": ["anna", "ben", "carl", "dora"]}),
    ("escape-master", {"players": [f"player{i}" for i in range(1, 9)]}),
    ("escape-house", {"players": 6}),
    ("escape-house", {"players": 8}),
    ("everest", {}),
    ("everest", {"fresh": ("anna", "ben")}),
    ("everest", {"fresh": ("anna", "ben", "cleo", "dev")}),
    ("horrible-mountain-2", {}),
    ("the-mountain", {}),
]


def _table(tmp: Path, game_id: str, spec: dict[str, Any]) -> Session:
    game = get_game(game_id)
    if "fresh" in spec:  # the fewest players, before the first move
        return Session(game, GameLog(tmp / "log.sqlite"), Header(game_id, spec["fresh"], {}, {}))
    playout = importlib.import_module(f"companion.games.{game_id.replace('-', '_')}.playout")
    header, moves = playout.random_playout(5, max_moves=150, **spec)
    session = Session(game, GameLog(tmp / "log.sqlite"), header)
    for n, move in enumerate(moves[:120]):  # part of a game: full panels, the round history, hands
        session.process(Observation("test", 1000.0 + n, ObservationKind.MOVE, game.codec.to_json(move)))
    return session


def _width(page: Any, url: str) -> int:
    page.goto(url)
    page.wait_for_selector("#live.on", timeout=10_000)  # the live stream has drawn the page
    page.wait_for_timeout(300)
    width: int = page.evaluate("() => document.documentElement.scrollWidth")
    return width


@pytest.mark.parametrize(("game_id", "spec"), TABLES, ids=lambda v: v if isinstance(v, str) else str(len(v.get("players", v.get("fresh", "x"))) if not isinstance(v.get("players"), int) else v["players"]))
def test_every_page_fits_a_phone_and_the_big_screen_a_tv(chromium: Any, tmp_path: Path, game_id: str, spec: dict[str, Any]) -> None:
    session = _table(tmp_path, game_id, spec)
    served: Served = serve(session, threads=16)  # each page visited holds its stream until the next heartbeat
    base = f"http://127.0.0.1:{served.port}"
    player = session.header.players[-1]
    link = f"/p/{player}/{player_token(served.web.app.config['TABLE_SECRET'], served.web.app.config['GAME_KEY'], player)}"
    phone = chromium.new_context(viewport={"width": 412, "height": 915})
    tv = chromium.new_context(viewport={"width": 1920, "height": 1080})
    try:
        page = phone.new_page()
        page.goto(base + "/referee/login")
        page.fill("input[name=pin]", "123456")
        page.click("button[type=submit]")
        page.wait_for_url(base + "/referee")
        for path in ("/", "/big", "/log", link, "/referee"):
            assert _width(page, base + path) <= 412, f"{game_id} with {len(session.header.players)}: {path} is wider than a phone"
        big = tv.new_page()
        assert _width(big, base + "/big") <= 1920
        box = big.locator(CENTRAL[game_id]).first.bounding_box()
        assert box is not None and box["y"] + box["height"] <= 1080, f"{game_id}: the central state is below the fold ({box})"
    finally:
        phone.close()
        tv.close()
        served.web.close()
        session.stop()
