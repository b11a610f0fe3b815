"""The Mountain's scoreboard panel and player page in headless Chromium, against a real served
Session (tests/browser/live.py)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.live import LiveTable, caught_up, fits_a_phone, not_reloaded, open_board, shows_the_own_hand
from tests.browser.live import table, watched  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser


def tm_shows(page: Any, t: LiveTable) -> None:
    s = t.scoreboard
    for key, name in (("health", "health"), ("threats_left", "threats-left"), ("score", "score"), ("attack", "attack")):
        assert page.inner_text(f'[data-stat="{name}"] .stat-value') == str(s[key]), key
    slots = page.locator("[data-pos]").evaluate_all("cs => Object.fromEntries(cs.map(c => [c.dataset.pos, c.dataset.slot]))")
    assert slots == s["slots"]
    cards = page.locator(".pyramid [data-card]").evaluate_all("cs => cs.map(c => c.dataset.card)")
    assert sorted(cards) == sorted(c for c in s["mountain"].values() if c)


def test_the_mountain_health_threats_score_and_the_pyramid(table: Any, watched: Any) -> None:
    t = table("the-mountain", 2)
    t.play_until(lambda s: s["removed"] >= 1)
    open_board(watched, t)
    tm_shows(watched, t)
    # row 1 (the peak) is drawn above row 6
    assert watched.locator('[data-pos="1-1"]').bounding_box()["y"] < watched.locator('[data-pos="6-1"]').bounding_box()["y"]
    before = t.scoreboard["health"]
    t.play_until(lambda s: s["health"] != before)
    caught_up(watched, t)
    tm_shows(watched, t)
    not_reloaded(watched)
    fits_a_phone(watched)


def test_player_page_shows_the_own_hand(table: Any, watched: Any) -> None:
    t = table("the-mountain", 2)
    t.play_until(lambda s: s["phase"] == "actions")
    shows_the_own_hand(watched, t)
