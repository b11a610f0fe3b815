"""A seeded game served for real, and what the browser tests read off its pages.

Each game's page tests (tests/browser/test_<game>_pages.py) deal a seeded simulator game (the game's
SPEC.playout), feed real moves through the session's one path in, and read the page: the numbers must
match the session's board, and change without a reload when more moves arrive.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.core import JsonObject, Move, Observation, ObservationKind
from companion.games import get_spec
from companion.log.store import GameLog
from companion.referee.session import Session
from tests.games.scenes import scene
from tests.serving import Served, serve
from web.links import player_link

WAIT_MS = 10_000


class LiveTable:
    """A seeded game served for real: its moves go in one at a time through ``Session.process``."""

    def __init__(self, path: Path, game_id: str, seed: int, **playout: Any) -> None:
        spec = get_spec(game_id)
        self.game = spec.game
        self.header, self.moves = spec.playout(seed, **{"max_moves": 3000, **playout})
        self.log = GameLog(path / f"{game_id}.sqlite")
        self.session = Session(self.game, self.log, self.header)
        self.served: Served = serve(self.session)
        self.played = 0

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.served.port}"

    @property
    def board(self) -> JsonObject:
        return self.session.board()

    @property
    def scoreboard(self) -> JsonObject:
        board: JsonObject = self.session.board()["scoreboard"]
        return board

    def feed(self, move: Move) -> None:
        payload = self.game.codec.to_json(move)
        self.session.process(Observation("test", 1000.0 + self.played, ObservationKind.MOVE, payload))

    def play(self, n: int = 1) -> None:
        for move in self.moves[self.played : self.played + n]:
            self.feed(move)
            self.played += 1

    def play_until(self, done: Callable[[JsonObject], bool]) -> None:
        """Play the simulator's moves until ``done(scoreboard)`` holds (at least one move)."""
        while True:
            assert self.played < len(self.moves), "the playout ended before the state the test wants"
            self.play()
            if done(self.scoreboard):
                return

    def link(self, player: str) -> str:
        return f"{self.base}{player_link(self.served.web.app, player)}"

    def close(self) -> None:
        self.served.web.close()
        self.session.stop()
        self.log.close()


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Callable[..., LiveTable]]:
    tables: list[LiveTable] = []

    def make(game_id: str, seed: int, **playout: Any) -> LiveTable:
        tables.append(LiveTable(tmp_path, game_id, seed, **playout))
        return tables[-1]

    yield make
    for t in tables:
        t.close()


@pytest.fixture
def watched(page: Any) -> Iterator[Any]:
    """The phone page, also failing on any Content-Security-Policy violation (an inline style, say)."""
    violations: list[str] = []
    page.on("console", lambda msg: violations.append(msg.text) if "Content Security Policy" in msg.text else None)
    yield page
    assert violations == [], violations


def open_board(page: Any, t: LiveTable, path: str = "/") -> None:
    page.goto(t.base + path)
    page.wait_for_selector("#live.on", timeout=WAIT_MS)
    caught_up(page, t)
    page.evaluate("window.__marker = 'same page'")


def caught_up(page: Any, t: LiveTable) -> None:
    seen(page, "boardSeq", t.session.log.last_seq)


def seen(page: Any, key: str, seq: int) -> None:
    """Wait until the page has rendered the board (or view) of row ``seq``.

    The predicate is a function, not an expression: the pages' CSP forbids eval, which Playwright
    would use to poll a bare expression.
    """
    page.wait_for_function("([key, seq]) => document.body.dataset[key] === seq", arg=[key, str(seq)], timeout=WAIT_MS)


def not_reloaded(page: Any) -> None:
    assert page.evaluate("window.__marker") == "same page"


def fits_a_phone(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"the page is {width}px wide: something overflows sideways"


def attr(page: Any, selector: str, name: str) -> str:
    value = page.get_attribute(selector, name, timeout=WAIT_MS)
    assert value is not None, f"{selector} has no {name}"
    return str(value)


def shows_the_own_hand(page: Any, t: LiveTable) -> None:
    """A player still in the game opens their own page: it shows their hand (as the game's scene reads
    it from their view, tests/games/scenes.py), in order, as cards."""
    hands = scene(get_spec(t.game.id)).hands
    assert hands is not None, f"{t.game.id} declares no hands"
    player = next(p for p in t.header.players if p in t.scoreboard.get("alive", t.header.players))
    page.goto(t.link(player))
    seen(page, "viewSeq", t.session.log.last_seq)
    hand = hands.of(t.game.view(t.session.state, player))
    shown = page.locator(f'[data-hand="{player}"] [data-card]').evaluate_all("cs => cs.map(c => c.dataset.card)")
    assert shown == hand and hand
    fits_a_phone(page)


def on_the_big_screen(t: LiveTable, chromium: Any, check: Callable[[Any], None]) -> None:
    """The big screen of ``t`` with a reader down, on a 1920x1080 TV: large text, the fault at the top,
    nothing sideways, no error; then ``check(page)``, the game's own."""
    t.session.report_health("array:1", {"status": "down", "detail": "unplugged"})
    context = chromium.new_context(viewport={"width": 1920, "height": 1080}, device_scale_factor=1)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if "Content Security Policy" in msg.text else None)
    try:
        open_board(page, t, "/big")
        assert page.locator("body.big").count() == 1 and page.locator(".qr img").is_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= 1920
        body = page.evaluate("parseFloat(getComputedStyle(document.querySelector('.panel, .player-row')).fontSize)")
        assert body >= 20, "text on the TV must be large"
        banner = page.locator('#health-banner .banner[data-component="array:1"]')
        assert banner.is_visible() and banner.bounding_box()["y"] < 200, "a reader fault shows at the top"
        check(page)
        assert errors == []
    finally:
        context.close()
