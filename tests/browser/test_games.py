"""Each game's scoreboard panel and player view in headless Chromium, against a real served Session.

Every test deals a seeded simulator game (the game's ``random_playout``), feeds real moves through
the session's one path in, and reads the page: the numbers must match the session's board, and
change without a reload when more moves arrive.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.core import JsonObject, Move, Observation, ObservationKind
from companion.games import get_game
from companion.log.store import GameLog
from companion.referee.session import Session
from tests.serving import Served, serve
from web.auth import player_token

pytestmark = pytest.mark.browser

PACKAGES = {
    "escape-master": "escape_master",
    "escape-house": "escape_house",
    "everest": "everest",
    "horrible-mountain-2": "horrible_mountain_2",
    "the-mountain": "the_mountain",
}
WAIT_MS = 10_000


class LiveTable:
    """A seeded game served for real: its moves go in one at a time through ``Session.process``."""

    def __init__(self, path: Path, game_id: str, seed: int, **playout: Any) -> None:
        self.game = get_game(game_id)
        module = importlib.import_module(f"companion.games.{PACKAGES[game_id]}.playout")
        self.header, self.moves = module.random_playout(seed, **{"max_moves": 3000, **playout})
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
        secret: bytes = self.served.web.app.config["TABLE_SECRET"]
        return f"{self.base}/p/{player}/{player_token(secret, self.served.web.app.config['GAME_KEY'], player)}"

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


# -- Escape Master ---------------------------------------------------------------------------------


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


# -- Escape House ----------------------------------------------------------------------------------


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


# -- Everest ---------------------------------------------------------------------------------------


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

    def tap(label: str) -> None:  # a planned coin's tile, by the words on it
        watched.locator('.step [data-tap^="value:"]', has_text=label).first.click()
        watched.wait_for_selector('[data-builder][data-ready="1"]', timeout=WAIT_MS)

    # the plan verb is chosen already (the one legal verb with fields): one tap per coin, first to last
    tap("move 2 ↑ N")
    tap("roar → E")
    assert t.session.log.last_seq == seq  # nothing is sent until the plan is whole
    tap("snowball (ace) ← W")
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


# -- Horrible Mountain 2 ----------------------------------------------------------------------------


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


# -- The Mountain ----------------------------------------------------------------------------------


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


@pytest.mark.parametrize("game_id, seed, until", [
    ("escape-house", 2, lambda s: s["round"] >= 2 and s["phase"] == "explore"),
    ("the-mountain", 2, lambda s: s["phase"] == "actions"),
])
def test_player_page_shows_the_own_hand(table: Any, watched: Any, game_id: str, seed: int, until: Any) -> None:
    t = table(game_id, seed)
    t.play_until(until)
    player = next(p for p in t.header.players if p in t.scoreboard.get("alive", t.header.players))
    watched.goto(t.link(player))
    seen(watched, "viewSeq", t.session.log.last_seq)
    view = t.game.view(t.session.state, player)
    hand = [c["id"] for c in view["you"]["hand"]] if game_id == "escape-house" else view["hand"]
    shown = watched.locator(f'[data-hand="{player}"] [data-card]').evaluate_all("cs => cs.map(c => c.dataset.card)")
    assert shown == hand and hand
    fits_a_phone(watched)


# -- readers, camera, big screen ------------------------------------------------------------------


def test_a_faulty_reader_is_a_banner_and_clears_when_it_recovers(served: Served, watched: Any) -> None:
    watched.goto(f"http://127.0.0.1:{served.port}/")
    watched.wait_for_selector("#live.on", timeout=WAIT_MS)
    assert watched.locator("#health-banner .banner").count() == 0
    served.session.report_health("array:2", {"status": "down", "detail": "the array says it does not answer"})
    banner = watched.locator('#health-banner .banner[data-component="array:2"]')
    banner.wait_for(timeout=WAIT_MS)
    assert "Reader array:2 is DOWN" in banner.inner_text() and "bad" in (banner.get_attribute("class") or "")
    served.session.report_health("camera", {"status": "reconnecting", "detail": "lost the camera"})
    camera = watched.locator('#health-banner .banner[data-component="camera"]')
    camera.wait_for(timeout=WAIT_MS)
    assert "Camera is reconnecting" in camera.inner_text() and "warn" in (camera.get_attribute("class") or "")
    served.session.report_health("array:2", {"status": "silent", "detail": "no heartbeat"})
    watched.wait_for_selector('#health-banner .banner[data-status="silent"]', timeout=WAIT_MS)
    served.session.report_health("array:2", {"status": "ok", "detail": ""})
    served.session.report_health("camera", {"status": "ok", "detail": ""})
    watched.wait_for_function("() => document.querySelectorAll('#health-banner .banner').length === 0", timeout=WAIT_MS)
    assert watched.locator('#health .reader.ok[data-component="array:2"]').count() == 1


def test_zones_the_camera_cannot_see_are_listed_on_the_scoreboard(served: Served, watched: Any) -> None:
    watched.goto(f"http://127.0.0.1:{served.port}/")
    watched.wait_for_selector("#live.on", timeout=WAIT_MS)
    assert watched.locator("#unseen").is_hidden()
    hand = {"zone": "pile-2", "reason": "something large over it (a hand?)"}
    served.session.report_health("camera", {"status": "ok", "detail": "", "unseen": [hand, {"zone": "slot-3", "reason": "glare"}]})
    watched.wait_for_selector("#unseen:not([hidden])", timeout=WAIT_MS)
    assert watched.locator("#unseen").inner_text() == "Camera cannot see: pile-2 (something large over it (a hand?)), slot-3 (glare)"
    assert watched.locator("#health-banner .banner").count() == 0  # the camera works: no fault banner
    served.session.report_health("camera", {"status": "ok", "detail": "", "unseen": []})
    watched.wait_for_selector("#unseen[hidden]", state="attached", timeout=WAIT_MS)


@pytest.mark.parametrize("game_id, seed, until", [
    ("escape-master", 0, lambda s: s["round"] == 2 and s["phase"] == "playing" and len(s["piles"]) >= 2),
    ("everest", 3, lambda s: s["round"] >= 3 and s["phase"] == "round_end"),
])
def test_big_screen_is_readable_across_the_table(table: Any, chromium: Any, game_id: str, seed: int, until: Any) -> None:
    t = table(game_id, seed, options={}) if game_id == "escape-master" else table(game_id, seed)
    t.play_until(until)
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
        if game_id == "escape-master":
            size = page.locator(".player-row .faults").first.evaluate("n => parseFloat(getComputedStyle(n).fontSize)")
            assert size >= 70
        else:
            box = page.locator("svg.everest-map").bounding_box()
            assert box["y"] + box["height"] <= 1080, "the whole map fits on the screen"
            assert box["height"] >= 500
        assert errors == []
    finally:
        context.close()
