"""Whole games played by taps only, in headless Chromium, through the real pages and service.

Each acceptance file (tests/games/data) is entered move by move: a move with a player goes in on
that player's own page, a move by nobody on the referee's console. Only buttons are clicked (no
key is pressed in any field; the PIN login before the game is the one exception). The game must
end with the same verdicts and final scoreboard as ``companion replay`` of the same file, and the
taps per move are reported (``-s`` prints them; docs/web.md has the table).
"""

from __future__ import annotations

import json
import statistics
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from companion.core import JsonObject
from companion.games import get_game
from companion.log import GameLog
from companion.notation import read_notation
from companion.session import Session
from tests.serving import Served, serve
from tests.test_entry_files import FILES
from web.auth import player_token

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WAIT_MS = 15_000
PIN = "123456"


def _plain(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items() if v is not None}
    return value


class Tapper:
    """Taps one move in on one page, the way tests/entry_driver.py walks the builder."""

    def __init__(self, page: Any, referee: bool) -> None:
        self.page = page
        self.referee = referee
        self.taps = 0

    def ready(self) -> None:
        self.page.wait_for_selector('[data-builder][data-ready="1"]', timeout=WAIT_MS)

    def click(self, selector: str) -> None:
        self.page.locator(selector).first.click()
        self.taps += 1
        self.ready()

    def values(self, prefix: str, scope: str = "") -> list[Any]:
        found = self.page.eval_on_selector_all(
            f'{scope} [data-tap^="{prefix}"]'.strip(), f"els => els.map(e => e.dataset.tap.slice({len(prefix)}))"
        )
        return [json.loads(v) for v in found]

    def enter(self, target: JsonObject, session: Session) -> int:
        before = session.log.last_seq
        self.page.bring_to_front()  # a page in a background tab is throttled, as on a phone
        self.ready()
        self.taps = 0
        if self.referee:
            who = target.get("by") or ""
            button = self.page.locator(f'[data-tap="by:{who}"]')
            if "on" not in (button.get_attribute("class") or ""):
                self.click(f'[data-tap="by:{who}"]')
        so_far: dict[str, list[Any]] = {}
        while self.taps < 60:
            quick = self.values("quick:")
            for i, move in enumerate(quick):
                if _plain(move) == target:
                    self.page.locator('[data-tap^="quick:"]').nth(i).click()
                    self.taps += 1
                    return self._sent(session, before)
            verb_on = self.page.locator(f'[data-tap="verb:{target["do"]}"].on').count()
            if not verb_on:
                self.click(f'[data-tap="verb:{target["do"]}"]')
                if session.log.last_seq > before:  # a verb with no fields is sent at once
                    return self._sent(session, before)
                continue
            step = self.page.locator(".step[data-field]")
            assert step.count(), f"no step offered for {target}"
            name = step.get_attribute("data-field")
            want = target.get(name)
            tapped = so_far.setdefault(name, [])
            if want is None:
                self.click('.step [data-tap="skip"]')
            elif isinstance(want, list) and len(tapped) == len(want):
                self.click('.step [data-tap="finish"]')
            else:
                wanted = want[len(tapped)] if isinstance(want, list) else want
                values = self.values("value:", ".step")
                if not any(_plain(v) == _plain(wanted) for v in values):
                    assert self.page.locator('.step [data-tap="every"]').count(), f"{name}: {wanted!r} not offered"
                    self.click('.step [data-tap="every"]')
                    continue
                index = next(i for i, v in enumerate(values) if _plain(v) == _plain(wanted))
                tapped.append(wanted)
                self.page.locator('.step [data-tap^="value:"]').nth(index).click()
                self.taps += 1
            if session.log.last_seq > before:
                return self._sent(session, before)
            self.ready()
            if session.log.last_seq > before:
                return self._sent(session, before)
        raise AssertionError(f"more than 60 taps for {target}")

    def _sent(self, session: Session, before: int) -> int:
        for _ in range(300):
            if session.log.last_seq > before:
                break
            self.page.wait_for_timeout(20)
        assert session.log.last_seq == before + 1, "the move was not sent exactly once"
        self.ready()
        return self.taps


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_whole_game_by_taps(path: Path, chromium: Any, tmp_path: Path) -> None:
    with path.open(encoding="utf-8") as handle:
        notation = read_notation(handle)
    game = get_game(notation.header.game)
    session = Session(game, GameLog(tmp_path / "tap.sqlite"), notation.header)
    served: Served = serve(session)
    base = f"http://127.0.0.1:{served.port}"
    context = chromium.new_context(viewport={"width": 412, "height": 915})
    errors: list[str] = []
    typed: list[str] = []
    try:
        pages: dict[str | None, Any] = {}
        secret: bytes = served.web.app.config["TABLE_SECRET"]
        for player in notation.header.players:
            page = context.new_page()
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(f"{base}/p/{player}/{player_token(secret, game.id, player)}")
            pages[player] = page
        referee = context.new_page()
        referee.on("pageerror", lambda exc: errors.append(str(exc)))
        referee.goto(base + "/referee/login")
        referee.fill("input[name=pin]", PIN)  # logging in is not entering a move
        referee.click("button[type=submit]")
        referee.wait_for_url(base + "/referee")
        for page in [*pages.values(), referee]:
            page.evaluate("() => { window.__keys = 0; addEventListener('keydown', () => window.__keys++, true); }")
        pages[None] = referee
        counted: dict[str, list[int]] = defaultdict(list)
        for _, move in notation.moves:
            target = _plain({k: v for k, v in game.codec.to_json(move).items() if k != "t"})
            by = target.get("by")
            tapper = Tapper(pages[by] if by in pages else referee, referee=by not in pages or by is None)
            counted[move.verb].append(tapper.enter(target, session))
        for page in pages.values():
            if page.evaluate("() => window.__keys"):
                typed.append(page.url)
    finally:
        context.close()
        served.web.close()
        session.stop()
    assert errors == [], errors
    assert typed == [], f"keys were pressed on {typed}"
    # The same verdicts and final scoreboard as `companion replay` of the file (its .expected).
    expected = [json.loads(line) for line in path.with_suffix(".expected").read_text(encoding="utf-8").splitlines()]
    judged = [r.verdict for r in session.log.rows(after=1) if r.verdict is not None]
    got = [{"n": n, "ok": True} if v["ok"] else {"n": n, "ok": False, "rules": v["rules"], "why": v["why"]}
           for n, v in enumerate(judged, start=1)]
    assert got == expected[:-1]
    assert game.scoreboard(session.state) == expected[-1]["scoreboard"]
    taps = [t for ts in counted.values() for t in ts]
    print(f"\n{path.parent.name}/{path.stem}: median {statistics.median(taps)} taps;",
          {v: (statistics.median(ts), max(ts)) for v, ts in counted.items()})
    assert statistics.median(taps) <= 3
