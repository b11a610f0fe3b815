"""Escape From Horrible Mountain 2's scoreboard panel and player page in headless Chromium, against a
real served Session (tests/browser/live.py)."""

from __future__ import annotations

from typing import Any

import pytest

from companion.games.horrible_mountain_2.moves import Half, Lift, Withdraw
from tests.browser.live import LiveTable, attr, caught_up, fits_a_phone, not_reloaded, open_board, seen
from tests.browser.live import table, watched  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser


def hm2_shows(page: Any, t: LiveTable) -> None:
    s = t.scoreboard
    for p in t.header.players:
        score = s["scores"][p]
        points = score["total"] if score["total"] is not None else score["cubes"]
        assert attr(page, f'.player-row[data-player="{p}"] [data-points]', "data-points") == str(points)
        assert attr(page, f'.player-row[data-player="{p}"] [data-cubes]', "data-cubes") == str(score["cubes"])
        cubes = page.locator(f'.player-row[data-player="{p}"] .meta [data-cube]').evaluate_all("cs => cs.map(c => c.dataset.cube)")
        assert cubes == score["control_cubes"]
    for slot in s["table"]:
        assert attr(page, f'.slot[data-slot="{slot["slot"]}"] .card', "data-card") == slot["card"]
        assert attr(page, f'.slot[data-slot="{slot["slot"]}"] [data-cube]', "data-cube") == slot["cube"]


def test_horrible_mountain_2_shows_cube_points_only_while_hands_are_hidden(table: Any, watched: Any) -> None:
    t = table("horrible-mountain-2", 1)
    t.play_until(lambda s: s["phase"] == "play")
    open_board(watched, t)
    note = watched.inner_text("[data-public-note]")
    assert "Hands are hidden" in note and "Control Cube points only" in note
    hm2_shows(watched, t)
    before = {p: v["cubes"] for p, v in t.scoreboard["scores"].items()}
    t.play_until(lambda s: {p: v["cubes"] for p, v in s["scores"].items()} != before)
    caught_up(watched, t)
    hm2_shows(watched, t)
    not_reloaded(watched)
    t.play_until(lambda s: s["phase"] == "over")
    caught_up(watched, t)
    hm2_shows(watched, t)  # now the totals, hands included
    assert watched.locator("[data-public-note]").count() == 0
    assert watched.locator("#outcome").is_visible()
    fits_a_phone(watched)


def test_horrible_mountain_2_player_page_scores_the_own_hand(table: Any, watched: Any) -> None:
    t = table("horrible-mountain-2", 1)
    t.play_until(lambda s: s["phase"] == "play")
    watched.goto(t.link("anna"))
    seen(watched, "viewSeq", t.session.log.last_seq)
    view = t.game.view(t.session.state, "anna")
    shown = watched.locator('.hand[data-hand="anna"] .card').evaluate_all("cs => cs.map(c => c.dataset.card)")
    assert shown == view["hand"]
    me = view["scores"]["anna"]
    assert watched.inner_text('[data-stat="total"] .stat-value') == str(me["total"])
    assert attr(watched, "[data-hand-name]", "data-hand-name") == me["hand_name"]
    # ben's hand is nowhere on anna's page
    ben = t.game.view(t.session.state, "ben")["hand"]
    html = watched.inner_html("#mine")
    assert not [c for c in ben if f'data-card="{c}"' in html and c not in view["hand"]]
    fits_a_phone(watched)


def test_horrible_mountain_2_shows_a_take_a_discard_under_way_and_swap_cubes_cards_laid(table: Any, watched: Any) -> None:
    t = table("horrible-mountain-2", 1)

    def can_lift(s: Any) -> bool:
        state = t.session.state
        return s["phase"] == "play" and not s["must_discard"] and s["discard_top"] is not None and len(state.control[state.turn]) >= 2

    t.play_until(can_lift)
    s = t.scoreboard
    top, who = s["discard_top"], s["turn"]
    t.feed(Lift(by=who, card=top))
    assert t.scoreboard.get("lifted") == top
    open_board(watched, t)
    under = watched.locator('[data-under-way="lifted"]')
    assert under.count() == 1 and who in under.inner_text() and attr(watched, '[data-under-way="lifted"] .card', "data-card") == top
    t.feed(Withdraw(by=who, card=top))  # put back: nothing under way
    caught_up(watched, t)
    assert "lifted" not in t.scoreboard and watched.locator("[data-under-way]").count() == 0

    def halves(s: Any) -> list[str]:
        state = t.session.state
        if s["phase"] != "play" or s["must_discard"]:
            return []
        return [c for c in state.hands[state.turn] if t.game.judge(state, Half(by=s["turn"], card=c)).ok]

    if not halves(t.scoreboard):
        t.play_until(lambda s: bool(halves(s)))
    first = halves(t.scoreboard)[0]
    t.feed(Half(by=t.scoreboard["turn"], card=first))
    assert t.scoreboard.get("laid") == [first]
    caught_up(watched, t)
    laid = watched.locator('[data-under-way="laid"] .card').evaluate_all("cs => cs.map(c => c.dataset.card)")
    assert laid == [first]
    not_reloaded(watched)
