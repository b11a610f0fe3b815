"""The real pages in headless Chromium: live updates without a reload, the PIN, the log."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import move
from tests.serving import Served

pytestmark = pytest.mark.browser


def test_scoreboard_changes_live_without_a_reload(served: Served, page: Any) -> None:
    page.goto(f"http://127.0.0.1:{served.port}/")
    page.wait_for_selector("#live.on", timeout=10_000)
    page.wait_for_selector("text=left", timeout=10_000)
    page.evaluate("window.__marker = 'same page'")
    served.session.process(move({"by": "anna", "do": "take", "n": 3}))
    page.wait_for_function("() => document.body.dataset.boardSeq === '2'", timeout=10_000)
    assert "4" in page.inner_text("#board")
    assert page.evaluate("window.__marker") == "same page"  # no reload happened
    served.session.process(move({"by": "anna", "do": "take", "n": 1}))
    page.wait_for_selector("#recent li.illegal", timeout=10_000)
    assert "TOY-TURN" in page.inner_text("#recent")


def test_the_console_refuses_without_the_pin_and_works_with_it(served: Served, page: Any) -> None:
    base = f"http://127.0.0.1:{served.port}"
    page.goto(base + "/referee")  # a browser without the PIN lands on the PIN form
    assert page.url == base + "/referee/login?next=/referee"
    page.fill("input[name=pin]", "999999")
    page.click("button[type=submit]")
    page.wait_for_selector("text=wrong PIN")
    page.fill("input[name=pin]", "123456")
    page.click("button[type=submit]")
    page.wait_for_selector("text=Enter a move")
    # By taps: who acts, then a one-tap move the engine proposes.
    page.click('[data-tap="by:anna"]')
    page.wait_for_selector('[data-builder][data-ready="1"] [data-tap^="quick:"]')
    page.click('[data-tap^="quick:"]:has-text("2")')
    page.wait_for_selector("#answer.legal")
    assert served.session.board()["scoreboard"]["left"] == 5
    # Take back says what it will undo, and does it only when confirmed.
    page.click('[data-tap="take-back"]')
    page.wait_for_selector(".confirm >> text=Take back row 2")
    page.click('[data-tap="take-back-confirm"]')
    page.wait_for_function("() => document.getElementById('answer').textContent.includes('Recorded')")
    assert served.session.board()["scoreboard"]["left"] == 7
    # The raw notation box is still there, folded away, for what taps cannot say.
    assert page.locator("details.advanced #fields").count() == 1


def test_log_page_lists_verdicts_and_shows_the_rule(served: Served, page: Any) -> None:
    served.session.process(move({"by": "anna", "do": "take", "n": 9}))
    page.goto(f"http://127.0.0.1:{served.port}/log")
    page.wait_for_selector("li.illegal")
    page.click("button.rule")
    page.wait_for_selector("dialog#rule[open]")
    assert "Take one, two or three." in page.inner_text("#rule-passage")
    served.session.process(move({"by": "anna", "do": "take", "n": 1}))
    page.wait_for_selector("li[data-seq='3']")


def test_a_disputed_row_shows_both_timestamps_and_the_states(served: Served, page: Any) -> None:
    served.session.process(move({"by": "anna", "do": "take", "n": 2}, t=1_800_000_050.000))
    served.session.process(move({"by": "anna", "do": "take", "n": 1}, t=1_800_000_050.004))
    page.goto(f"http://127.0.0.1:{served.port}/log")
    page.wait_for_selector("li[data-seq='3']")
    page.click("li[data-seq='3'] .time")
    page.wait_for_selector("dialog#dispute[open]")
    text = page.inner_text("#dispute-body")
    assert "08:00:50.000" in text and "08:00:50.004" in text  # both plays, to the millisecond
    assert "Players take turns." in text, text
    assert "illegal" in text


def test_a_move_reads_in_words_not_data(served: Served, page: Any) -> None:
    """Issue 22 (LOW): the latest moves, the log and the take-back preview spell a move's lists and
    records as words ("cards 6H, 6S"), never as JSON (``cards ["6H","6S"]``)."""
    served.session.process(move({"by": "anna", "do": "take", "n": 1}))
    page.goto(f"http://127.0.0.1:{served.port}/log")
    page.wait_for_selector("li[data-seq='2']")
    text = page.evaluate("""() => [
        TC.moveText({do: "discard", by: "anna", cards: ["6H", "6S"]}),
        TC.moveText({do: "end_round", heal: [], set_aside: {dev: ["5", "blank"]}}),
        TC.moveText({do: "out", by: "ben", discard: null}),
    ]""")
    assert text == ["discard · cards 6H, 6S", "end_round · heal none · set_aside dev 5, blank", "out · discard none"]
    assert "[" not in page.inner_text("li[data-seq='2']") and "{" not in page.inner_text("li[data-seq='2']")
