"""Frictions of issue 22 in headless Chromium at 412 px: the answer to a tap is in view where the tap
was, however long the page (MEDIUM 4); the console's Options stay open through +/− taps (MEDIUM 7); and
no tap is taken while a move is on its way (a live update redrawing the builder then drew buttons that
silently dropped a tap: a full run lost a whole-game tapper's move so)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.app.table_service import TableService
from companion.core import Observation, ObservationKind
from companion.games.escape_master import GAME as EM
from tests.games.test_escape_master_support import A, B, C, header
from tests.serving import Served, console_table, served_game
from web.links import player_link

pytestmark = pytest.mark.browser

PIN = "24681357"
WAIT_MS = 15_000

IN_VIEW = """(selector) => {
  const r = document.querySelector(selector).getBoundingClientRect();
  return { top: r.top, bottom: r.bottom, height: r.height, view: window.innerHeight };
}"""


@pytest.fixture
def dealing(tmp_path: Path) -> Iterator[Served]:
    with served_game(tmp_path / "em.sqlite", EM, header(None, players=[A, B, C]), threads=16) as served:
        yield served


def _in_view(page: Any, selector: str) -> None:
    box = page.evaluate(IN_VIEW, selector)
    assert box["height"] > 0 and box["top"] >= 0 and box["bottom"] <= box["view"], box


def test_the_answer_to_a_tap_is_in_view(chromium: Any, dealing: Served) -> None:
    context = chromium.new_context(viewport={"width": 412, "height": 915}, device_scale_factor=1)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(f"http://127.0.0.1:{dealing.port}{player_link(dealing.web.app, B)}")  # not the dealer: dealt is the one verb
        page.wait_for_selector('[data-builder][data-ready="1"]', timeout=WAIT_MS)
        tiles = page.locator('.step [data-tap^="value:"]')
        assert tiles.count() > 50  # every card ben might be dealt: a page many screens long
        assert page.evaluate("() => document.documentElement.scrollHeight") > 2 * 915
        # The card near the top of the list: the builder's own end (where the answer sits) is far below.
        tiles.first.click()
        page.wait_for_selector("#answer.legal", timeout=WAIT_MS)
        assert page.locator("#answer").inner_text().startswith("Recorded")
        _in_view(page, "#answer")
        # An illegal tap: the answer (with its rule and fix) is in view too, and stays until the next tap.
        page.wait_for_selector('[data-builder][data-ready="1"]', timeout=WAIT_MS)
        page.locator('[data-tap="verb:call_draw"]').first.click()  # no Draw! call before the round starts
        page.wait_for_selector("#answer.illegal", timeout=WAIT_MS)
        _in_view(page, "#answer")
        said = page.locator("#answer").inner_text()
        page.mouse.wheel(0, 600)
        page.wait_for_timeout(300)
        assert page.locator("#answer").inner_text() == said
        _in_view(page, "#answer")
    finally:
        context.close()
    assert errors == []


def test_no_tap_is_taken_while_a_move_is_on_its_way(chromium: Any, dealing: Served) -> None:
    context = chromium.new_context(viewport={"width": 412, "height": 915}, device_scale_factor=1)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    held: list[Any] = []
    page.route("**/move", lambda route: held.append(route))  # ben's move waits here until let go
    try:
        page.goto(f"http://127.0.0.1:{dealing.port}{player_link(dealing.web.app, B)}")
        page.wait_for_selector('[data-builder][data-ready="1"]', timeout=WAIT_MS)
        page.locator('.step [data-tap^="value:"]').first.click()  # dealt: a one-field move, sent at once
        page.wait_for_function("() => document.querySelector('[data-builder]').getAttribute('aria-busy') === 'true'", timeout=WAIT_MS)
        # (the page marks the builder busy before its request leaves, and the route hands the request
        # to this thread only while it waits on the page: wait for it, do not look once)
        for _ in range(WAIT_MS // 50):
            if held:
                break
            page.wait_for_timeout(50)
        assert len(held) == 1
        # Another player's deal arrives meanwhile: the live update redraws the builder for it.
        row = dealing.session.process(Observation(f"web:{C}", 1.0, ObservationKind.MOVE, {"by": C, "do": "dealt", "card": "teen-4"}))
        assert row.verdict is not None and row.verdict["ok"]
        page.wait_for_selector(f'[data-builder][data-seq="{dealing.session.log.last_seq}"]', timeout=WAIT_MS)
        assert page.locator("[data-builder]").get_attribute("data-ready") == "0"  # drawn, but not to be tapped
        tile = page.locator('[data-builder] .tap').first
        assert tile.evaluate("b => getComputedStyle(b).pointerEvents") == "none"
        before = dealing.session.log.last_seq
        held.pop().continue_()
        page.wait_for_selector(f'[data-builder][data-ready="1"][data-seq="{before + 1}"]', timeout=WAIT_MS)
        assert page.locator("[data-builder]").get_attribute("aria-busy") is None
        assert page.locator('[data-builder] .tap').first.evaluate("b => getComputedStyle(b).pointerEvents") != "none"
    finally:
        context.close()
    assert errors == []


@pytest.fixture
def table(tmp_path: Path) -> Iterator[TableService]:
    with console_table(tmp_path, PIN) as service:
        yield service


def test_the_options_stay_open_through_taps(chromium: Any, table: TableService) -> None:
    assert table.web is not None
    base = f"http://127.0.0.1:{table.web.server.effective_port}/"
    context = chromium.new_context(viewport={"width": 412, "height": 915}, device_scale_factor=1)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    ready = '#new-game[data-ready="1"]'
    try:
        page.goto(base + "referee/login")
        page.fill("input[name=pin]", PIN)
        page.click("button[type=submit]")
        page.wait_for_url(base + "referee")
        page.wait_for_selector(ready, timeout=WAIT_MS)
        if page.locator('[data-tap="new-game"]').count():
            page.locator('[data-tap="new-game"]').click()
            page.wait_for_selector(ready, timeout=WAIT_MS)
        page.locator('[data-tap="game:escape-master"]').click()
        page.wait_for_selector(ready, timeout=WAIT_MS)
        page.locator("details.options > summary").click()
        assert page.locator("details.options[open]").count() == 1
        down = page.locator('details.options [data-tap$=":down"]').first
        name = str(down.get_attribute("data-tap")).split(":")[1]
        value = page.locator("details.options .option-value").first
        start = value.inner_text()
        for n in range(3):
            page.locator(f'[data-tap="option:{name}:down"]').click()
            page.wait_for_selector(ready, timeout=WAIT_MS)
            assert page.locator("details.options[open]").count() == 1, f"the options folded shut after tap {n + 1}"
        assert page.locator("details.options .option-value").first.inner_text() != start
        page.locator("details.options > summary").click()  # folded by hand: it stays folded
        page.locator('[data-tap="game:escape-master"]').click()
        page.wait_for_selector(ready, timeout=WAIT_MS)
        assert page.locator("details.options[open]").count() == 0
    finally:
        context.close()
    assert errors == []
