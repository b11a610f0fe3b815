"""Everest's height map, plan entry, die rolls and big screen in headless Chromium, against a real
served Session (tests/browser/live.py)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.live import WAIT_MS, LiveTable, attr, caught_up, fits_a_phone, not_reloaded, on_the_big_screen, open_board, seen
from tests.browser.live import table, watched  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser


def everest_shows(page: Any, t: LiveTable) -> None:
    s = t.scoreboard
    for p in t.header.players:
        pos = s["positions"][p]
        marker = page.locator(f'svg.everest-map g.yeti[data-player="{p}"]')
        if pos is None:
            assert marker.count() == 0
            assert p in attr(page, "[data-off-board]", "data-off-board").split(",")
        else:
            assert (marker.get_attribute("data-x"), marker.get_attribute("data-y")) == (str(pos[0]), str(pos[1]))
            # the marker is drawn inside the square it names
            box, cell = marker.bounding_box(), page.locator(f'rect.cell[data-x="{pos[0]}"][data-y="{pos[1]}"]').bounding_box()
            centre = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            assert cell["x"] <= centre[0] <= cell["x"] + cell["width"] and cell["y"] <= centre[1] <= cell["y"] + cell["height"]
        assert attr(page, f'.player-row[data-player="{p}"] [data-damage]', "data-damage") == str(s["damage"][p])
        assert attr(page, f'.player-row[data-player="{p}"] [data-coins]', "data-coins") == str(s["coins"][p])


def test_everest_draws_the_height_map_and_moves_the_yetis_live(table: Any, watched: Any) -> None:
    t = table("everest", 3)
    t.play_until(lambda s: s["round"] == 2 and s["phase"] == "plan")
    open_board(watched, t)
    # the map: 8x6 squares, y=6 drawn at the top, the notches off the board, the peak the highest
    cells = watched.locator("svg.everest-map rect.cell")
    assert cells.count() == 48
    assert watched.locator('rect.cell[data-height="notch"]').count() == 4
    heights = t.scoreboard["heights"]
    for x, y in ((1, 1), (4, 3), (2, 5), (8, 6)):
        assert attr(watched, f'rect.cell[data-x="{x}"][data-y="{y}"]', "data-height") == str(heights[y - 1][x - 1])
    top = watched.locator('rect.cell[data-x="1"][data-y="6"]').bounding_box()
    bottom = watched.locator('rect.cell[data-x="1"][data-y="1"]').bounding_box()
    assert top["y"] < bottom["y"]
    lo = watched.locator('rect.cell[data-x="1"][data-y="1"]').evaluate("r => getComputedStyle(r).fill")
    hi = watched.locator('rect.cell[data-x="4"][data-y="3"]').evaluate("r => getComputedStyle(r).fill")
    assert lo != hi, "heights must be shaded differently"
    everest_shows(watched, t)
    before = t.scoreboard["positions"]
    t.play_until(lambda s: s["positions"] != before)
    caught_up(watched, t)
    everest_shows(watched, t)
    not_reloaded(watched)
    fits_a_phone(watched)


def test_everest_plan_entered_on_a_phone_locks_in_and_reaches_the_session(table: Any, watched: Any) -> None:
    t = table("everest", 3)
    watched.goto(t.link("red"))
    watched.wait_for_selector('[data-plan-state="open"]', timeout=WAIT_MS)
    watched.wait_for_selector('[data-builder][data-ready="1"]', timeout=WAIT_MS)
    assert "Plan 3 coins below" in watched.inner_text('[data-plan-state="open"]')
    seq = t.session.log.last_seq

    def tap(coin: str, face: str, way: str, says: str) -> None:  # a planned coin: its coin, its side up, its way on the rose
        step = watched.locator('.step[data-field="coins"]')
        assert step.locator('[data-tap^="value:"]').count() == 0, "a plan is not a list of 48 tiles"
        coins = step.locator('[data-tap^="part:coin:"]')
        assert coins.all_inner_texts() == ["blank", "ace", "2", "3", "4", "5"]  # words, never data
        step.locator(f'[data-tap="part:coin:{coin}"]').click()
        assert step.locator('[data-tap^="part:face:"]').all_inner_texts() == ["value side: move (a blank roars)", "suit side: snowball"]
        step.locator(f'[data-tap="part:face:{face}"]').click()
        rose = step.locator('[data-rose="dir"]')
        assert rose.locator('[data-tap^="value:"]').count() == 4
        assert rose.locator(".rose-middle").inner_text() == says  # what the coin does, whichever way it points
        where = {d: rose.locator(f'[data-part="dir:{d}"]').bounding_box() for d in "NESW"}
        middle = rose.locator(".rose-middle").bounding_box()
        # laid out as the map draws the board: north (y up) above, east to the right
        assert where["N"]["y"] < middle["y"] < where["S"]["y"] and where["W"]["x"] < middle["x"] < where["E"]["x"]
        rose.locator(f'[data-part="dir:{way}"]').click()
        watched.wait_for_selector('[data-builder][data-ready="1"]', timeout=WAIT_MS)

    # a part tapped can be cleared, and "Start again" lets go of it
    step = watched.locator('.step[data-field="coins"]')
    step.locator('[data-tap="part:coin:3"]').click()
    step.locator('[data-tap="part-clear:coin"]').click()
    assert step.locator('[data-tap^="part-clear:"]').count() == 0 and step.locator('[data-tap^="part:coin:"]').count() == 6
    step.locator('[data-tap="part:coin:4"]').click()
    watched.locator('[data-builder] [data-tap="reset"]').click()
    watched.wait_for_selector('[data-builder][data-ready="1"]', timeout=WAIT_MS)
    assert watched.locator('.step[data-field="coins"] [data-tap^="part-clear:"]').count() == 0

    # the plan verb is chosen already (the one legal verb with fields): three taps per coin, first to last
    tap("2", "value", "N", "move 2")
    assert "move 2 ↑ N" in watched.inner_text('.step[data-field="coins"] .step-title')
    tap("blank", "value", "E", "roar")
    assert t.session.log.last_seq == seq  # nothing is sent until the plan is whole
    tap("ace", "suit", "W", "snowball (ace)")
    if watched.locator('.step [data-tap="finish"]').count():  # a list closes itself at its most
        watched.locator('.step [data-tap="finish"]').first.click()
    watched.wait_for_selector(".locked", timeout=WAIT_MS)
    locked = watched.inner_text(".locked")
    assert "Plan locked in" in locked and "Waiting for the others: blue, green, yellow" in locked
    assert "move 2 ↑ N" in locked and "roar → E" in locked and "snowball ← W" in locked

    row = t.session.log.row(t.session.log.last_seq)
    assert row is not None and row.verdict is not None and row.verdict["ok"]
    assert {k: v for k, v in row.move.items() if k != "t"} == {"by": "red", "do": "plan", "coins": [
        {"coin": "2", "face": "value", "dir": "N"},
        {"coin": "blank", "face": "value", "dir": "E"},
        {"coin": "ace", "face": "suit", "dir": "W"},
    ]}
    assert t.scoreboard["planned"] == ["red"] and t.scoreboard["plans"] == {}  # still secret

    # the others plan (the simulator's first-round plans): all revealed together
    for move in t.moves[:4]:
        if move.by != "red":
            t.feed(move)
    watched.wait_for_selector('[data-plan-state="revealed"]', timeout=WAIT_MS)
    watched.wait_for_selector('.plans tr[data-player="red"]', timeout=WAIT_MS)
    assert "snowball ← W" in watched.inner_text('.plans tr[data-player="red"]')
    fits_a_phone(watched)


def test_everest_player_page_while_plans_are_carried_out_says_so_in_words(table: Any, watched: Any) -> None:
    t = table("everest", 3)
    # plans revealed and no roll asked of red: the plan part says where red stands, nothing else
    t.play_until(lambda s: s["phase"] != "plan" and not (s["waiting"] and "red" in s["waiting"]["players"]))
    watched.goto(t.link("red"))
    seen(watched, "viewSeq", t.session.log.last_seq)
    watched.wait_for_selector('[data-plan-state="revealed"]', timeout=WAIT_MS)
    said = watched.inner_text(".plan-entry")
    assert said.startswith("Plans are revealed"), said
    assert "null" not in watched.inner_text("#mine") + said


def test_everest_die_roll_asked_of_a_player_is_one_tap_on_their_page(table: Any, watched: Any) -> None:
    t = table("everest", 3)
    t.play_until(lambda s: bool(s["waiting"]) and s["waiting"]["verb"] == "roll")
    roll = t.game.codec.to_json(t.moves[t.played])  # what the simulator rolled next
    assert roll["do"] == "roll" and roll["by"] in t.scoreboard["waiting"]["players"]
    watched.goto(t.link(roll["by"]))
    watched.wait_for_selector(".roll-box", timeout=WAIT_MS)
    assert t.scoreboard["waiting"]["why"] in watched.inner_text(".roll-box")
    watched.wait_for_selector('[data-builder][data-ready="1"]', timeout=WAIT_MS)
    seq = t.session.log.last_seq
    die = watched.locator('[data-tap^="quick:"]', has_text=f'roll · {roll["value"]} ·')
    assert die.count() == 1, watched.inner_text("[data-builder]")
    die.first.click()  # the die as it landed: one tap
    watched.wait_for_selector("#answer.legal", timeout=WAIT_MS)
    row = t.session.log.row(seq + 1)
    assert row is not None and row.move is not None and row.verdict is not None and row.verdict["ok"]
    assert (row.move["by"], row.move["do"], row.move["value"]) == (roll["by"], "roll", roll["value"])


def test_big_screen_is_readable_across_the_table(table: Any, chromium: Any) -> None:
    t = table("everest", 3)
    t.play_until(lambda s: s["round"] >= 3 and s["phase"] == "round_end")

    def the_whole_map_fits(page: Any) -> None:
        box = page.locator("svg.everest-map").bounding_box()
        assert box["y"] + box["height"] <= 1080, "the whole map fits on the screen"
        assert box["height"] >= 500

    on_the_big_screen(t, chromium, the_whole_map_fits)
