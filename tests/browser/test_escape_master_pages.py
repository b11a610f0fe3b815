"""Escape Master's scoreboard panel, player page and big screen in headless Chromium, against a real
served Session (tests/browser/live.py)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.live import WAIT_MS, LiveTable, attr, caught_up, fits_a_phone, not_reloaded, on_the_big_screen, open_board, seen
from tests.browser.live import table, watched  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser


def em_shows(page: Any, t: LiveTable) -> None:
    s = t.scoreboard
    for p in t.header.players:
        assert attr(page, f'.player-row[data-player="{p}"] .faults', "data-faults") == str(s["faults"][p])
        assert attr(page, f'.player-row[data-player="{p}"] .round-faults', "data-round-faults") == str(s["round_faults"][p])
    for pile in s["piles"]:
        assert attr(page, f'li.pile[data-pile="{pile["pile"]}"] .card', "data-card") == pile["top"]
    for r in s["rounds"]:
        cells = page.locator(f'tr[data-round="{r["round"]}"] td').all_inner_texts()
        assert cells[1:-1] == [str(r["faults"].get(p, "–")) for p in t.header.players]
    assert f"Breaking Point {s['breaking_point']}" in page.inner_text("#board")


def test_escape_master_fault_totals_piles_and_history_follow_the_game(table: Any, watched: Any) -> None:
    t = table("escape-master", 0, options={})
    t.play_until(lambda s: s["round"] == 2 and s["phase"] == "playing" and len(s["piles"]) >= 2)
    open_board(watched, t)
    em_shows(watched, t)
    assert watched.locator("tr[data-round]").count() == 1
    before = t.scoreboard["faults"]
    t.play_until(lambda s: s["faults"] != before)  # the end of round 2: faults counted
    caught_up(watched, t)
    em_shows(watched, t)
    assert watched.locator("tr[data-round]").count() == 2
    # sorted by faults: the leader (fewest) first
    shown = watched.locator(".player-row").evaluate_all("rows => rows.map(r => r.dataset.player)")
    faults = t.scoreboard["faults"]
    assert [faults[p] for p in shown] == sorted(faults.values())
    not_reloaded(watched)
    fits_a_phone(watched)


def test_escape_master_player_sees_their_own_hand_as_cards_and_it_changes_live(table: Any, watched: Any) -> None:
    t = table("escape-master", 0, options={})
    t.play_until(lambda s: s["phase"] == "playing")
    watched.goto(t.link("anna"))
    watched.wait_for_selector("#live.on", timeout=WAIT_MS)

    def shows_hand() -> None:
        # Wait for the hand itself: /view reads the state and the board one after the other, so a
        # view fetched while moves arrive may carry the newer seq with the older hand; the refresh
        # that the next board event triggers puts it right.
        want = sorted(t.game.view(t.session.state, "anna")["hand"])
        watched.wait_for_function(
            "(want) => JSON.stringify([...document.querySelectorAll('.hand[data-hand=\"anna\"] .card')]"
            ".map(c => c.dataset.card).sort()) === JSON.stringify(want)", arg=want, timeout=WAIT_MS)
        seen(watched, "viewSeq", t.session.log.last_seq)

    shows_hand()
    watched.evaluate("window.__marker = 'same page'")
    before = t.game.view(t.session.state, "anna")["hand"]
    while t.game.view(t.session.state, "anna")["hand"] == before:
        t.play()
    shows_hand()
    not_reloaded(watched)
    fits_a_phone(watched)


def test_big_screen_is_readable_across_the_table(table: Any, chromium: Any) -> None:
    t = table("escape-master", 0, options={})
    t.play_until(lambda s: s["round"] == 2 and s["phase"] == "playing" and len(s["piles"]) >= 2)

    def faults_are_big(page: Any) -> None:
        size = page.locator(".player-row .faults").first.evaluate("n => parseFloat(getComputedStyle(n).fontSize)")
        assert size >= 70

    on_the_big_screen(t, chromium, faults_are_big)
