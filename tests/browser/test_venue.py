"""The venue page in headless Chromium, on a real Mosquitto with real table services: every table
listed with its game and players, a table one tap away (its board and events), and the standings
after a finished game, updating live without a reload."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.games import game_ids
from tests.venue.conftest import Broker, broker  # noqa: F401  (the real-Mosquitto fixture)
from tests.venue.tables import start_game_table, start_table, start_venue, wait_for

pytestmark = pytest.mark.browser


def test_the_venue_page_lists_tables_opens_one_and_shows_standings(tmp_path: Path, broker: Broker, page: Any) -> None:  # noqa: F811
    tables = [start_table(tmp_path, f"t{i}", broker.port, seed=i) for i in (1, 2)]
    venue = start_venue(tmp_path, broker.port)
    try:
        for t in tables:
            t.start_game()
            t.play(10)
        assert wait_for(lambda: all(venue.store.last_seq("cafe", t.name, t.service.publisher.instance) == t.service.log.last_seq for t in tables))
        page.goto(venue.url)
        page.wait_for_selector("#live.on", timeout=60_000)
        page.wait_for_selector('li.table-tile[data-table="t2"]', timeout=60_000)
        for t in tables:
            tile = page.text_content(f'li.table-tile[data-table="{t.name}"]')
            assert "Escape From Horrible Mountain 2" in tile
            assert all(p in tile for p in t.header.players)
            assert "points" in tile and "draw pile ran out" in tile  # the game's headline figures
        page.evaluate("window.__marker = 'same page'")

        first = tables[0]
        first.play(len(first.moves))  # t1's game ends: the standings fill in, live
        winners = first.service.session.board()["winners"]
        assert winners
        page.wait_for_selector('#finished li[data-table="t1"]', timeout=60_000)
        assert page.evaluate("window.__marker") == "same page"
        assert ", ".join(winners) + " won" in page.inner_text("#finished")
        for w in winners:
            assert page.inner_text(f'#wins tr[data-player="{w}"] td.won') == "1"
        assert "game over" in page.inner_text('li.table-tile[data-table="t1"]')

        page.click('li.table-tile[data-table="t2"] a')  # one tap away
        page.wait_for_url(venue.url + "table/t2")
        second = tables[1]
        page.wait_for_function(f"() => document.body.dataset.seq === '{second.service.log.last_seq}'", timeout=60_000)
        head = page.text_content("#table-head")
        assert "Escape From Horrible Mountain 2" in head and "null" not in head
        assert page.locator("#events li").count() == second.service.log.last_seq
        assert page.inner_text("#board").strip()
        second.play(14)  # live on the table's page too
        page.wait_for_function(f"() => document.body.dataset.seq === '{second.service.log.last_seq}'", timeout=60_000)
    finally:
        venue.stop()
        for t in tables:
            t.service.stop()


def test_every_game_shows_its_headline_figures(tmp_path: Path, broker: Broker, page: Any) -> None:  # noqa: F811
    games = game_ids()  # every registered game, the toy one too
    services = [start_game_table(tmp_path, f"g{i}", broker.port, game) for i, game in enumerate(games)]
    venue = start_venue(tmp_path, broker.port)
    try:
        assert wait_for(lambda: len(venue.store.tables("cafe")) == len(games))
        page.goto(venue.url)
        for i, game in enumerate(games):
            # the game's own figures, read from its published scoreboard (not the generic fallback)
            headline = page.wait_for_selector(f'li.table-tile[data-table="g{i}"] dl.headline[data-game="{game}"]', timeout=60_000)
            assert "—" not in headline.inner_text(), (game, headline.inner_text())
    finally:
        venue.stop()
        for s in services:
            s.stop()
