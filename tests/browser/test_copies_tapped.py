"""Identical cards tapped on a phone at 412 px (issue 22, HIGH 1): in Escape Master's deal, anna is dealt
a 7 START, then ben taps the first 7 START his page offers (the very copy anna holds): the move is
recorded with a copy still to deal, not refused; the page says so where the tap was."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.core import Observation, ObservationKind
from companion.games.escape_master import GAME as EM
from tests.games.test_escape_master_support import A, B, C, header
from tests.serving import Served, served_game
from web.links import player_link

pytestmark = pytest.mark.browser

WAIT_MS = 15_000


@pytest.fixture
def dealing(tmp_path: Path) -> Iterator[Served]:
    with served_game(tmp_path / "em.sqlite", EM, header(None, players=[A, B, C]), threads=16) as served:
        yield served


def test_the_first_start_card_tapped_is_dealt_though_anna_holds_that_copy(chromium: Any, dealing: Served) -> None:
    session = dealing.session
    row = session.process(Observation("web:anna", 1.0, ObservationKind.MOVE, {"by": A, "do": "dealt", "card": "start-1"}))
    assert row.verdict is not None and row.verdict["ok"]
    context = chromium.new_context(viewport={"width": 412, "height": 915}, device_scale_factor=1)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(f"http://127.0.0.1:{dealing.port}{player_link(dealing.web.app, B)}")
        page.wait_for_selector('[data-builder][data-ready="1"]', timeout=WAIT_MS)
        first_start = page.locator('.step [data-tap^="value:\\"start-"]').first
        assert first_start.get_attribute("data-tap") == 'value:"start-1"'  # ben cannot know anna holds it
        first_start.click()
        page.wait_for_selector("#answer:not(.pending):not(:empty)", timeout=WAIT_MS)
        assert "answer legal" in str(page.locator("#answer").get_attribute("class")), page.locator("#answer").inner_text()
        hands = EM.view(session.state, None)["hands"]
        assert "start-1" in hands[A] and any(c.startswith("start-") and c != "start-1" for c in hands[B])
        last = session.log.row(session.log.last_seq)
        assert last is not None and last.move is not None and last.move["card"] == "start-2"
    finally:
        context.close()
    assert errors == []
