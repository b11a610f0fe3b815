"""The Mountain's set-up picker on the referee's console at 412 px (issue 22, HIGH 3), in headless
Chromium against a real TableService whose game on is another one (Everest): every card face is drawn
(black ones too), no two tiles overlap, nothing is wider than the phone, the mountain tapped so far is
laid out as a pyramid, and all 31 cards tap through it to a started game."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.app.table_service import TableService
from tests.serving import console_table

pytestmark = pytest.mark.browser

PIN = "24681357"
WAIT_MS = 15_000

OVERLAPS = """() => {
  const boxes = [...document.querySelectorAll('[data-setup] [data-tap^="setup:"]')].map((b) => b.getBoundingClientRect());
  let overlaps = 0;
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const a = boxes[i], b = boxes[j];
    if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5) overlaps++;
  }
  // Each face's rank must lie inside its tile (a tile too small for its card spills it onto the next).
  const spills = [...document.querySelectorAll('[data-setup] [data-tap^="setup:"]')].filter((b) => {
    const card = b.querySelector(".card");
    if (!card) return true;  // a tile with no face: the game's cards are not drawn
    const t = b.getBoundingClientRect(), c = card.getBoundingClientRect();
    return c.top < t.top - 0.5 || c.bottom > t.bottom + 0.5 || c.left < t.left - 0.5 || c.right > t.right + 0.5;
  }).length;
  return { tiles: boxes.length, overlaps, spills, wide: document.documentElement.scrollWidth };
}"""

FACES = """() => [...document.querySelectorAll('[data-setup] [data-tap^="setup:"] .card')].map((c) => {
  const s = getComputedStyle(c);
  return { text: c.textContent, colour: s.color, ground: s.backgroundColor, black: c.classList.contains("black") };
})"""


@pytest.fixture
def table(tmp_path: Path) -> Iterator[TableService]:
    with console_table(tmp_path, PIN) as service:
        yield service


def _tap(page: Any, selector: str) -> None:
    page.locator(selector).first.click()
    page.wait_for_selector('#new-game[data-ready="1"]', timeout=WAIT_MS)


def test_the_mountains_setup_fits_a_phone_and_draws_every_card(chromium: Any, table: TableService) -> None:
    assert table.web is not None
    base = f"http://127.0.0.1:{table.web.server.effective_port}/"
    context = chromium.new_context(viewport={"width": 412, "height": 915}, device_scale_factor=1)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(base + "referee/login")
        page.fill("input[name=pin]", PIN)
        page.click("button[type=submit]")
        page.wait_for_url(base + "referee")
        page.wait_for_selector('#new-game[data-ready="1"]', timeout=WAIT_MS)
        if page.locator('[data-tap="new-game"]').count():
            _tap(page, '[data-tap="new-game"]')
        _tap(page, '[data-tap="game:the-mountain"]')
        if not page.locator('[data-tap="player:anna"].on').count():
            _tap(page, '[data-tap="player:anna"]')
        taps = 0
        while page.locator("[data-setup]").count():
            if page.locator('[data-setup="mountain"]').count():
                laid = page.locator('[data-setup="mountain"] .setup-pyramid .pyramid-row')
                assert [laid.nth(r).locator(".card").count() for r in range(laid.count())] == [1, 2, 3, 4, 5, 6]
                assert page.locator('[data-setup="mountain"] .setup-pyramid .card:not(.empty)').count() == taps
            found = page.evaluate(OVERLAPS)
            assert found["overlaps"] == 0 and found["spills"] == 0 and found["wide"] <= 412, found
            faces = page.evaluate(FACES)
            assert any(f["black"] for f in faces), "no black card offered"
            for face in faces:
                assert face["text"].strip() and face["colour"] != face["ground"], face
                if face["black"]:  # black ink on a light card, not on the page's dark ground
                    assert face["colour"] == "rgb(17, 17, 17)" and face["ground"] != "rgb(13, 17, 23)", face
            if page.locator('[data-setup] [data-tap^="setup:"]').count():
                _tap(page, '[data-setup] [data-tap^="setup:"]')
                taps += 1
            else:
                _tap(page, '[data-tap="setup-done"]')
        assert taps == 31, taps  # the mountain's 21 and the health pile's 10, a tap each
        with page.expect_navigation():
            page.locator('[data-tap="start-game"]').click()
        assert table.session.game.id == "the-mountain" and sum(map(len, table.session.header.setup["mountain"])) == 21  # row by row
        assert len(table.session.header.setup["health"]) == 10
    finally:
        context.close()
    assert errors == []
