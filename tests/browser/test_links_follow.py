"""An open player page follows its player into the next game (issue 22), in headless Chromium at
412 px against a real TableService: through Play again and through a new game of another game; a
page whose player the next game does not seat goes to the scoreboard."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.app.table_service import TableService
from tests.serving import console_table
from tests.web.client import Browser, player_links

pytestmark = pytest.mark.browser

PIN = "24681357"
WAIT_MS = 15_000


@pytest.fixture
def table(tmp_path: Path) -> Iterator[TableService]:
    with console_table(tmp_path, PIN) as service:
        yield service


def _phone(chromium: Any, url: str, errors: list[str]) -> Any:
    page = chromium.new_context(viewport={"width": 412, "height": 915}).new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url)
    page.wait_for_selector("#live.on", timeout=WAIT_MS)
    page.wait_for_function("() => document.body.dataset.viewSeq !== undefined", timeout=WAIT_MS)
    page.evaluate("() => { window.sameDocument = true; }")  # gone once the page has loaded afresh
    return page


def _followed(page: Any, link: str, game: str) -> None:
    page.wait_for_function("() => window.sameDocument === undefined", timeout=WAIT_MS)
    page.wait_for_function("() => document.body.dataset.viewSeq !== undefined", timeout=WAIT_MS)
    assert page.url.endswith(link)
    assert page.locator("#entry").get_attribute("data-game") == game
    page.evaluate("() => { window.sameDocument = true; }")


def test_a_player_page_follows_its_player_into_the_next_games(chromium: Any, table: TableService) -> None:
    assert table.web is not None
    port = int(table.web.server.effective_port)
    base = f"http://127.0.0.1:{port}"
    console = Browser(port)
    assert console.login(PIN).status == 303
    csrf = console.csrf()
    links = player_links(console.get("/referee").text)
    errors: list[str] = []
    anna = _phone(chromium, base + links["anna"], errors)
    dan = _phone(chromium, base + links["dan"], errors)
    try:
        again = console.post_json("/api/referee/new-game", {"game": "everest", "players": ["anna", "ben", "cleo", "dan"]}, csrf)
        assert again.status == 200, again.text
        _followed(anna, links["anna"], "everest")
        _followed(dan, links["dan"], "everest")
        assert anna.locator(".me").get_attribute("data-player") == "anna"

        other = console.post_json("/api/referee/new-game", {"game": "escape-master", "players": ["anna", "ben", "zed"],
                                                             "setup": {"dealer": "anna"}}, csrf)
        assert other.status == 200, other.text
        _followed(anna, links["anna"], "escape-master")
        assert anna.locator(".me").get_attribute("data-player") == "anna"
        dan.wait_for_url(base + "/", timeout=WAIT_MS)  # dan is not at the table now: the scoreboard
        assert dan.locator(".me").count() == 0
    finally:
        anna.context.close()
        dan.context.close()
    assert errors == []
