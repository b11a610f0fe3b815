"""Every page of every game fits a phone, and the big screen a TV, at the game's player counts.

At 412 px (a phone) no page is wider than the screen: the scoreboard, the big screen, the log, a
player's page and the referee's console, with the fewest, a typical and the most players each game
allows (the tables each game's scene lays out, tests/games/scenes.py). At 1920x1080 the big screen
shows the game's central state (piles, board, clocks, Table Cards, pyramid: the scene's
``big_screen``) without scrolling.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.core import Header, Observation, ObservationKind
from companion.games import get_spec, specs
from companion.log.store import GameLog
from companion.referee.session import Session
from tests.games.scenes import Layout, scene
from tests.serving import Served, serve
from web.links import player_link

pytestmark = pytest.mark.browser

TABLES = [(game_id, layout) for game_id, spec in specs().items() for layout in scene(spec).layouts]
"""Every registered game, at the player counts its scene lays out (tests/games/<package>_scenes.py)."""


def _table(tmp: Path, game_id: str, layout: Layout) -> Session:
    spec = get_spec(game_id)
    game = spec.game
    if layout.fresh is not None:  # the fewest players, before the first move
        return Session(game, GameLog(tmp / "log.sqlite"), Header(game_id, layout.fresh, {}, {}))
    header, moves = spec.playout(5, max_moves=150, **layout.playout)
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


@pytest.mark.parametrize(("game_id", "layout"), TABLES, ids=[f"{game_id}-{layout.label}" for game_id, layout in TABLES])
def test_every_page_fits_a_phone_and_the_big_screen_a_tv(chromium: Any, tmp_path: Path, game_id: str, layout: Layout) -> None:
    session = _table(tmp_path, game_id, layout)
    served: Served = serve(session, threads=16)  # each page visited holds its stream until the next heartbeat
    base = f"http://127.0.0.1:{served.port}"
    player = session.header.players[-1]
    link = player_link(served.web.app, player)
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
        box = big.locator(scene(get_spec(game_id)).big_screen).first.bounding_box()
        assert box is not None and box["y"] + box["height"] <= 1080, f"{game_id}: the central state is below the fold ({box})"
    finally:
        phone.close()
        tv.close()
        served.web.close()
        session.stop()
