"""Escape House's scoreboard panel and player page in headless Chromium, against a real served
Session (tests/browser/live.py)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.live import WAIT_MS, LiveTable, attr, caught_up, fits_a_phone, not_reloaded, open_board, shows_the_own_hand
from tests.browser.live import table, watched  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser


def eh_shows(page: Any, t: LiveTable) -> None:
    s = t.scoreboard
    clocks = page.locator(".clocks")
    assert clocks.get_attribute("data-clocks") == str(s["clocks"])
    assert f"level-{s['clocks']}" in (clocks.get_attribute("class") or "")
    assert page.inner_text(".clocks .count").startswith(str(s["clocks"]))
    assert page.inner_text('[data-stat="main-left"] .stat-value') == str(s["main_left"])
    assert page.inner_text('[data-stat="round"] .stat-value') == str(s["round"])
    assert page.inner_text('[data-stat="alive"] .stat-value') == str(len(s["alive"]))
    dead = page.locator(".person.dead").evaluate_all("ps => ps.map(p => p.dataset.player)")
    assert dead == s["sacrificed"]
    if s["phase"] != "over":
        assert attr(page, ".phases", "data-phase") == s["phase"]
        assert page.inner_text(".phases li.now") == s["phase"]


def test_escape_house_clocks_are_big_and_redden_as_they_rise(table: Any, watched: Any) -> None:
    t = table("escape-house", 2)
    t.play_until(lambda s: s["clocks"] == 1)
    open_board(watched, t)
    eh_shows(watched, t)
    drawn = watched.locator(".clocks svg.clock.on")
    assert drawn.count() == 1
    one = watched.locator(".clocks .count").evaluate("n => [parseFloat(getComputedStyle(n).fontSize), getComputedStyle(n).color]")
    assert one[0] >= 48, "the clock count must be big"
    t.play_until(lambda s: s["clocks"] == 2)
    caught_up(watched, t)
    eh_shows(watched, t)
    assert drawn.count() == 2
    two = watched.locator(".clocks .count").evaluate("n => getComputedStyle(n).color")
    red, green, _blue = (int(v) for v in two[two.index("(") + 1 : two.index(")")].split(",")[:3])
    assert red > 200 and green < 150, f"two clocks should read red, not {two}"
    assert "one more and everyone loses" in watched.inner_text(".clocks")
    not_reloaded(watched)
    fits_a_phone(watched)


def test_player_page_shows_the_own_hand(table: Any, watched: Any) -> None:
    t = table("escape-house", 2)
    t.play_until(lambda s: s["round"] >= 2 and s["phase"] == "explore")
    shows_the_own_hand(watched, t)


def test_a_sacrificed_player_s_page_offers_no_move_and_says_why(table: Any, watched: Any) -> None:
    t = table("escape-house", 2)
    t.play_until(lambda s: bool(s["sacrificed"]) and s["phase"] != "over")
    gone = t.scoreboard["sacrificed"][0]
    watched.goto(t.link(gone))
    watched.wait_for_selector('[data-builder][data-ready="1"]', timeout=WAIT_MS)
    assert watched.inner_text("[data-builder] [data-out]") == f"{gone} was sacrificed and takes no further part"
    assert watched.locator('[data-builder] [data-tap^="verb:"], [data-builder] [data-tap="every-verb"], [data-builder] [data-tap^="quick:"]').count() == 0
    fits_a_phone(watched)
