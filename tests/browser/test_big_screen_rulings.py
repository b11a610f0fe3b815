"""The big screen flashes the zone or the player a ruling names (issue 25), in headless Chromium
against a real served Session (tests/browser/live.py): a refused play flashes its pile red, with a
banner saying where and why; a refusal that names only a player flashes that player's row; an
undo takes the banner down. And the console's quiet mode for the Pi's sound."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from companion.app.config import load_config
from companion.app.table_service import TableService
from companion.core import Observation, ObservationKind
from tests.browser.live import WAIT_MS, LiveTable, open_board
from tests.browser.live import table  # noqa: F401 (fixture)

pytestmark = pytest.mark.browser


def refused_play(t: LiveTable) -> tuple[dict[str, Any], int]:
    """A play some player could make from their hand that the pile refuses for what lies on it."""
    state = t.session.state
    for pile in t.scoreboard["piles"]:
        for player in t.header.players:
            for card in t.game.view(state, player)["hand"]:
                payload = {"by": player, "do": "play", "card": card, "pile": pile["pile"]}
                verdict = t.game.judge(state, t.game.codec.from_json(payload))
                if not verdict.ok and set(verdict.rules) & {"EM-PILE", "EM-START-CARD", "EM-WISDOM"}:
                    return payload, int(pile["pile"])
    raise AssertionError("no play the piles refuse")


def test_a_refused_play_flashes_its_pile_and_a_refusal_by_a_player_their_row(table: Any, chromium: Any) -> None:
    t = table("escape-master", 0, options={})
    t.play_until(lambda s: s["phase"] == "playing" and len(s["piles"]) >= 1)
    page = chromium.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if "Content Security Policy" in msg.text else None)
    try:
        open_board(page, t, "/big")
        assert page.locator("#ruling").is_hidden()
        payload, pile = refused_play(t)
        t.session.process(Observation("test", 5000.0, ObservationKind.MOVE, payload))
        page.wait_for_selector(f'li.pile[data-pile="{pile}"].flash-illegal', timeout=WAIT_MS)
        banner = page.locator("#ruling")
        assert banner.is_visible() and banner.inner_text().startswith(f"Pile {pile}: ")
        assert "cannot go on" in banner.inner_text()
        assert page.locator(".flash-illegal").count() == 2  # the pile, and the banner

        # A refusal that names no zone: the player's row.
        who = t.header.players[1]
        t.session.process(Observation("test", 5001.0, ObservationKind.MOVE, {"by": who, "do": "start"}))
        page.wait_for_selector(f'.player-row[data-player="{who}"].flash-illegal', timeout=WAIT_MS)
        assert page.locator(f'li.pile[data-pile="{pile}"].flash-illegal').count() == 0  # the last ruling only
        assert banner.inner_text().startswith(f"{who}: ")

        # Taken back: the screen no longer shows a ruling that is not the table's.
        t.session.process(Observation("test", 5002.0, ObservationKind.UNDO, {}))
        page.wait_for_selector("#ruling", state="hidden", timeout=WAIT_MS)
        assert page.locator("#board .flash-illegal").count() == 0
        assert errors == []
    finally:
        page.context.close()


CONSOLE_TABLE = """
[game]
id = "escape-master"
players = ["anna", "ben"]
[game.setup]
dealer = "anna"
[log]
path = "game.sqlite"
[web]
host = "127.0.0.1"
port = 0
[tags]
registry = "tags.json"
[feedback]
tones = true
speech = true
audio_device = "null"
"""


@pytest.mark.skipif(shutil.which("aplay") is None, reason="aplay is missing: make audio installs Debian's alsa-utils")
def test_the_console_turns_the_pis_sound_quiet_and_back(chromium: Any, tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text(CONSOLE_TABLE, encoding="utf-8")
    service = TableService(load_config(path), pin="24681357").start()
    assert service.web is not None
    base = f"http://127.0.0.1:{service.web.server.effective_port}/"
    page = chromium.new_context(viewport={"width": 412, "height": 915}).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(base + "referee/login")
        page.fill("input[name=pin]", "24681357")
        page.click("button[type=submit]")
        page.wait_for_url(base + "referee")
        button = page.locator("#quiet")
        assert button.get_attribute("aria-pressed") == "false"
        button.click()
        page.wait_for_selector('#quiet[aria-pressed="true"]', timeout=WAIT_MS)
        assert service.audio.announcer.quiet
        button.click()
        page.wait_for_selector('#quiet[aria-pressed="false"]', timeout=WAIT_MS)
        assert not service.audio.announcer.quiet
        assert errors == []
    finally:
        page.context.close()
        service.stop()
