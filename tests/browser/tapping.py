"""Playing an acceptance file by taps in headless Chromium: the table clock that reads the file's
times, the copies a tap took, the tapper that walks the builder as a person does, and the whole
game (:func:`play_file`). tests/browser/test_tap_play.py and test_no_dead_end.py play with it."""

from __future__ import annotations

import json
import re
import statistics
from collections import defaultdict
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from companion.core import Move
from companion.entry.builder import move_form
from companion.games import get_game
from companion.log.notation import read_notation
from companion.log.store import GameLog
from companion.referee.session import Session, SystemClock
from tests.entry_driver import Alike, plain
from tests.serving import Served, serve
from web.links import player_link

WAIT_MS = 15_000
PIN = "123456"


class FileClock(SystemClock):
    """The table clock reads the file's "t" for the move being tapped in: a person taps, the table's
    clock stamps it, and where the file says when a play happened (who was first to a pile, a call's
    window) the tap happens then."""

    table_time: float | None = None

    def wall(self) -> float:
        return self.table_time if self.table_time is not None else super().wall()


class Copies:
    """Which copy the session holds for each copy the file names (issue 22): a page names a card, not a
    copy, so the copy a tap takes may be another than the file's. Copies are alike to the rules, so the
    session's game is the file's with copies swapped: the file's moves are tapped, and its verdicts
    compared, through the swap."""

    def __init__(self, alike: Alike) -> None:
        self.alike = alike
        self.to_session: dict[str, str] = {}
        self.to_file: dict[str, str] = {}
        self.at: list[dict[str, str]] = []
        """The swap in force at each move of the file."""

    def rename(self, value: Any) -> Any:
        """A move's JSON with each copy the file names as the session holds it."""
        if isinstance(value, str):
            return self.to_session.get(value, value)
        if isinstance(value, list):
            return [self.rename(v) for v in value]
        if isinstance(value, dict):
            return {k: self.rename(v) for k, v in value.items()}
        return value

    def learn(self, meant: Any, recorded: Any) -> None:
        """A legal move recorded naming another copy than the one meant: the two are swapped from now on."""
        if isinstance(meant, str) and isinstance(recorded, str):
            if meant != recorded and recorded in self.alike.twins(meant):
                file_meant, file_recorded = self.to_file.get(meant, meant), self.to_file.get(recorded, recorded)
                self.to_session[file_meant], self.to_session[file_recorded] = recorded, meant
                self.to_file[recorded], self.to_file[meant] = file_meant, file_recorded
        elif isinstance(meant, list) and isinstance(recorded, list):
            for a, b in zip(meant, recorded):
                self.learn(a, b)
        elif isinstance(meant, dict) and isinstance(recorded, dict):
            for key in meant.keys() & recorded.keys():
                self.learn(meant[key], recorded[key])

    def words(self, text: str, n: int) -> str:
        """A sentence of the file's n-th verdict with its copies named as the session held them then."""
        names = self.at[n]
        return re.sub(r"[\w-]+", lambda m: names.get(m.group(0), m.group(0)), text)


LEADS_ON = """() => {
  // Why the builder offers no way on to a legal move, or "" when it does (issue 22, no dead ends): a
  // one-tap move, else in a step a value the rules allow or a None/Done that makes a legal move, else
  // a verb with a legal move.
  const b = document.querySelector('[data-builder][data-ready="1"]');
  if (!b) return "the builder is not drawn";
  const on = (sel) => [...b.querySelectorAll(sel)].some((x) => !x.classList.contains("off") && x.getClientRects().length > 0);
  if (on('[data-tap^="quick:"]')) return "";
  // A verb the builder marks as having no legal move it knows of (Escape Master's whole deal, proposed
  // a card at a time as dealt) is entered at the person's own word: its steps vouch for nothing.
  if (b.querySelector('[data-tap^="verb:"].on.off')) return "";
  const step = b.querySelector(".step");
  // A value made of parts (an Everest planned coin, parts.js) leads on through a legal part.
  if (step && (on('.step [data-tap^="value:"]') || on('.step [data-tap^="part:"]') || on('.step [data-tap="finish"].go, .step [data-tap="skip"].go'))) return "";
  // A step with no way on says why, and a legal verb beside it is the way on (a verb the builder chose
  // when it was the only legal one stays chosen after the board moves on).
  const shown = [...b.querySelectorAll(".step [data-tap]")].some((x) => x.getClientRects().length > 0);
  if (step && !step.querySelector("[data-dead-end]") && !shown) {
    return "a step that neither offers a value nor says why: " + step.innerText;
  }
  return on('[data-tap^="verb:"]:not(.on)') || !step && on('[data-tap^="verb:"]') ? "" : "nothing leads on: " + b.innerText;
}"""

IN_VIEW = """() => {
  const node = document.getElementById("answer");
  const r = node.getBoundingClientRect();
  return { text: node.textContent, top: r.top, bottom: r.bottom, height: r.height, view: window.innerHeight };
}"""


class Tapper:
    """Taps one move in on one page, the way tests/entry_driver.py walks the builder. With ``guard``,
    before each tap of a legal move the builder must offer a way on (no dead end), and once the move
    is sent its answer must be in view."""

    def __init__(self, page: Any, referee: bool, guard: bool = False) -> None:
        self.page = page
        self.referee = referee
        self.guard = guard
        self.taps = 0
        self.part_taps = 0
        """Of :attr:`taps`, those on a value's parts before the value's own tap (an Everest planned coin's
        coin and side, web/static/parts.js): drawn on the page, they ask no offer."""
        self.alike: Alike | None = None
        """Copies of a card are one button (issue 22): a value is found whichever copy it names."""

    def same(self, a: Any, b: Any) -> bool:
        return self.alike.same(a, b) if self.alike is not None else plain(a) == plain(b)

    def ready(self, seq: int | None = None) -> None:
        """The builder has drawn its offer (for the log as it stands at row ``seq``, if given): what
        is read from the page now is what a tap will hit."""
        selector = '[data-builder][data-ready="1"]' + (f'[data-seq="{seq}"]' if seq is not None else "")
        self.page.wait_for_selector(selector, timeout=WAIT_MS)

    def click(self, selector: str) -> None:
        self.page.locator(selector).first.click()
        self.taps += 1
        self.ready()

    def values(self, prefix: str, scope: str = "") -> list[Any]:
        return [json.loads(tap[len(prefix) :]) for tap in self.taps_offered(prefix, scope)]

    def taps_offered(self, prefix: str, scope: str = "") -> list[str]:
        found: list[str] = self.page.eval_on_selector_all(f'{scope} [data-tap^="{prefix}"]'.strip(), "els => els.map(e => e.dataset.tap)")
        return found

    def tap_value(self, prefix: str, wanted: Any, scope: str = "") -> Any:
        """Tap the button that carries ``wanted``, found by what it says it is, never by its place in
        the row: a live update may redraw the row between reading it and tapping."""
        offered = self.taps_offered(prefix, scope)
        # The very copy where a button carries it (a Key played in the library is not the one played in
        # the hall), else the button standing for its copies.
        tap = next((t for t in offered if plain(json.loads(t[len(prefix) :])) == plain(wanted)), None) or next(
            t for t in offered if self.same(json.loads(t[len(prefix) :]), wanted))
        self.page.locator(f"{scope} [data-tap={json.dumps(tap)}]".strip()).first.click()
        return json.loads(tap[len(prefix) :])

    def enter(self, move: Move, session: Session) -> int:
        """Tap ``move`` in; returns the taps. Quick buttons carry notation; steps name fields as the move class does."""
        target = plain({k: v for k, v in session.game.codec.to_json(move).items() if k != "t"})
        form = plain(move_form(move))
        before = session.log.last_seq
        self.alike = Alike(session.game, session.state)
        self.page.bring_to_front()  # a page in a background tab is throttled, as on a phone
        self.ready(before)
        self.taps = 0
        self.part_taps = 0
        if self.referee:
            who = move.by or ""
            button = self.page.locator(f'[data-tap="by:{who}"]')
            if "on" not in (button.get_attribute("class") or ""):
                self.click(f'[data-tap="by:{who}"]')
        # A move the rules refuse is entered on purpose with every value shown from the start: the
        # builder leaves no step as it stands for the person then (companion/entry/only.py).
        if not session.game.judge(session.state, move).ok and self.page.locator('[data-tap="every-verb"]').count():
            self.click('[data-tap="every-verb"]')
        so_far: dict[str, list[Any]] = {}
        guarded = self.guard and session.game.judge(session.state, move).ok
        while self.taps < 200:
            if guarded:
                assert (why := self._leads_on()) == "", f"entering {target} at row {before}: {why}"
            if any(self.same(offered, target) for offered in self.values("quick:")):
                self.tap_value("quick:", target)
                self.taps += 1
                return self._sent(session, before)
            verb_on = self.page.locator(f'[data-tap="verb:{move.verb}"].on').count()
            if not verb_on:
                self.click(f'[data-tap="verb:{move.verb}"]')
                if session.log.last_seq > before:  # a verb with no fields is sent at once
                    return self._sent(session, before)
                continue
            step = self.page.locator(".step[data-field]")
            assert step.count(), f"no step offered for {target}"
            name = step.get_attribute("data-field")
            want = form.get(name)
            key = step.get_attribute("data-key")
            many = step.get_attribute("data-many") == "1"
            if isinstance(want, dict) and key is not None:  # a mapping of players to cards (a deal)
                self._per_player(name, key, want, so_far)
            elif want is None:
                self.click('.step [data-tap="skip"]')
            elif many and want == [] and self.page.locator('.step [data-tap="skip"]').count():
                self.click('.step [data-tap="skip"]')  # an optional list left empty
            elif many and len(so_far.setdefault(name, [])) == len(want):
                self.click('.step [data-tap="finish"]')
            else:
                tapped = so_far.setdefault(name, [])
                wanted = want[len(tapped)] if many else want
                if not self._parts(wanted) or not self._offered(wanted):
                    self._show_every(f"{name}: {wanted!r}")
                    continue
                tapped.append(self.tap_value("value:", wanted, ".step"))
                self.taps += 1
            if session.log.last_seq > before:
                return self._sent(session, before)
            self.ready()
            if session.log.last_seq > before:
                return self._sent(session, before)
        raise AssertionError(f"more than 200 taps for {target}")

    def _leads_on(self) -> str:
        """:data:`LEADS_ON` of the builder as drawn: a live update may be redrawing it just now (a busy
        machine showed one between a tap's answer and this check), so it is read once drawn again."""
        why = ""
        for _ in range(3):
            self.ready()
            why = self.page.evaluate(LEADS_ON)
            if why != "the builder is not drawn":
                break
        return str(why)

    def _parts(self, wanted: Any) -> bool:
        """A value made of parts (an Everest planned coin, web/static/parts.js): tap each part but the
        last, whose buttons are the whole values; False if a part of ``wanted`` is not offered."""
        parts = self.page.locator(".step [data-parts]")
        while parts.count() and not self.page.locator('.step [data-tap^="value:"]').count():
            key = parts.get_attribute("data-part")
            button = self.page.locator(f'.step [data-tap={json.dumps(f"part:{key}:{wanted[key]}")}]')
            if not button.count():
                return False
            button.first.click()  # drawn on the page: no offer is asked until the whole value's tap
            self.taps += 1
            self.part_taps += 1
        return True

    def _per_player(self, name: str, key: str, want: dict[str, list[Any]], so_far: dict[str, list[Any]]) -> None:
        if key == "":
            missing = [p for p in want if f"{name}/{p}" not in so_far]
            if not missing:
                self.click('.step [data-tap="finish"]')
                return
            so_far[f"{name}/{missing[0]}"] = []
            self.click(f".step [data-tap='value:{json.dumps(missing[0])}']")
            return
        tapped = so_far[f"{name}/{key}"]
        if len(tapped) == len(want[key]):
            self.click('.step [data-tap="finish"]')
            return
        wanted = want[key][len(tapped)]
        if not self._offered(wanted):
            self._show_every(f"{name}/{key}: {wanted!r}")
            return
        tapped.append(self.tap_value("value:", wanted, ".step"))
        self.taps += 1
        self.ready()

    def _offered(self, wanted: Any) -> bool:
        """The step offers ``wanted`` (or a copy alike) as a value button."""
        return any(self.same(v, wanted) for v in self.values("value:", ".step"))

    def _show_every(self, what: str) -> None:
        """A value the step does not offer is found through "Show every value", which must be there."""
        assert self.page.locator('.step [data-tap="every"]').count(), f"{what} not offered"
        self.click('.step [data-tap="every"]')

    def _sent(self, session: Session, before: int) -> int:
        for _ in range(WAIT_MS // 20):
            if session.log.last_seq > before:
                break
            self.page.wait_for_timeout(20)
        assert session.log.last_seq == before + 1, "the move was not sent exactly once"
        self.ready(before + 1)
        if self.guard:
            self.page.wait_for_selector("#answer:not(.pending):not(:empty)", timeout=WAIT_MS)
            box = self.page.evaluate(IN_VIEW)
            assert box["height"] > 0 and box["top"] >= 0 and box["bottom"] <= box["view"], f"the answer to row {before + 1} is out of view: {box}"
        return self.taps


def play_file(path: Path, chromium: Any, tmp_path: Path, guard: bool = False) -> None:
    """Play the acceptance file ``path`` by taps only on each player's 412 px page and the referee's
    console, and check it ends as ``companion replay`` of the file does; with ``guard``, each step
    of a legal move is checked for a way on and each answer for being in view (:class:`Tapper`)."""
    with path.open(encoding="utf-8") as handle:
        notation = read_notation(handle)
    game = get_game(notation.header.game)
    clock = FileClock()
    session = Session(game, GameLog(tmp_path / "tap.sqlite"), notation.header, clock=clock)
    served: Served = serve(session, threads=16)  # a stream per open page, and room for every tap
    # A whole game at machine speed, several moves a second through one link: not a person's pace,
    # which the per-link rate limit is for (tests/web/test_security_limits.py tests it).
    served.web.app.config["RATE_LIMITS_OFF"] = True
    base = f"http://127.0.0.1:{served.port}"
    context = chromium.new_context(viewport={"width": 412, "height": 915})  # the referee's
    contexts = [context]
    errors: list[str] = []
    typed: list[str] = []
    stammered: list[str] = []  # "anna: anna:" on the console's prompts
    try:
        pages: dict[str | None, Any] = {}
        for player in notation.header.players:
            # Each player's own phone: its own connections (a browser opens at most six to one host,
            # and every open page holds one for its live stream) and its own cookies.
            phone = chromium.new_context(viewport={"width": 412, "height": 915})
            contexts.append(phone)
            page = phone.new_page()
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(f"{base}{player_link(served.web.app, player)}")
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
        builder_taps: list[int] = []  # each move's taps but those on a value's parts
        strangers = 0
        copies = Copies(Alike(game, session.state))
        for _, filed in notation.moves:
            copies.at.append(dict(copies.to_session))
            move = game.codec.from_json(copies.rename(game.codec.to_json(filed))).replace(t=filed.t)
            clock.table_time = move.t
            if move.by is not None and move.by not in notation.header.players:
                # A name not at the table has no page and is not among the console's players: such an
                # attempt (in a file, to test the rules) can only be posted, as a program would.
                answer = referee.request.post(base + "/api/referee/move", data={"move": game.codec.to_json(move)},
                                              headers={"X-CSRF-Token": referee.locator('meta[name="csrf"]').get_attribute("content")})
                assert answer.status == 409, answer.text()
                strangers += 1
                continue
            tapper = Tapper(pages[move.by] if move.by in pages else referee, referee=move.by not in pages, guard=guard)
            counted[move.verb].append(tapper.enter(move, session))
            # a value tapped by its parts (parts.js) costs at most two taps more than its one tile did
            records = sum(isinstance(v, dict) for vs in move_form(move).values() if isinstance(vs, list) for v in vs)
            assert tapper.part_taps <= 2 * records, (move, tapper.part_taps)
            builder_taps.append(counted[move.verb][-1] - tapper.part_taps)
            recorded = session.log.row(session.log.last_seq)
            if recorded is not None and recorded.move is not None and recorded.verdict is not None and recorded.verdict["ok"]:
                copies.learn(game.codec.to_json(move), recorded.move)
            said = referee.inner_text("#prompts")
            if doubled := re.search(r"\b([\w-]+): \1:", said):
                stammered.append(doubled[0])
        for page in pages.values():
            if page.evaluate("() => window.__keys"):
                typed.append(page.url)
        # The finished game's scoreboard offers it to BG Stats: the link carries the play the API gives.
        board = context.new_page()
        board.goto(base + "/")
        href = board.locator("#outcome a.bgstats").get_attribute("href", timeout=WAIT_MS)
        saved = json.loads(parse_qs(urlsplit(href or "").query)["data"][0])
        assert saved == json.loads(board.request.get(base + "/api/bgstats").text())["play"]
    finally:
        for each in contexts:
            each.close()
        served.web.close()
        session.stop()
    assert errors == [], errors
    assert typed == [], f"keys were pressed on {typed}"
    assert stammered == [], stammered
    # The same verdicts and final scoreboard as `companion replay` of the file (its .expected).
    expected = [json.loads(line) for line in path.with_suffix(".expected").read_text(encoding="utf-8").splitlines()]
    judged = [r.verdict for r in session.log.rows(after=1) if r.verdict is not None]
    timed = [move.t is not None for _, move in notation.moves]
    got = [{"n": n, "ok": True} if v["ok"] else {"n": n, "ok": False, "rules": v["rules"], "why": v["why"]}
           for n, v in enumerate(judged, start=1)]
    # A tapped move is stamped with the time of its tap, not the file's "t": a sentence quoting the
    # table times of near-simultaneous plays (who was first to a pile) then quotes other times.
    for n, clocked in enumerate(timed):
        if clocked and not expected[n]["ok"]:
            got[n].pop("why", None)
            expected[n].pop("why", None)
    for n, want in enumerate(expected[:-1]):
        if "why" in want:
            want["why"] = copies.words(want["why"], n)
    differ = [(g, e) for g, e in zip(got, expected[:-1]) if g != e]
    assert got == expected[:-1], differ[:3] or (len(got), len(expected) - 1)
    # A page names a card, not a copy of it (issue 22): the copies a tap took may be others than the file's.
    alike = Alike(game, session.state)
    assert alike.key(game.scoreboard(session.state)) == alike.key(expected[-1]["scoreboard"])
    taps = [t for ts in counted.values() for t in ts]
    assert strangers == sum(1 for _, m in notation.moves if m.by is not None and m.by not in notation.header.players)
    print(f"\n{path.parent.parent.name}/{path.stem}: median {statistics.median(taps)} taps ({strangers} posted by a stranger);",
          {v: (statistics.median(ts), max(ts)) for v, ts in counted.items()})
    # Issue 22 MEDIUM 9: a planned coin is tapped as its coin, its side and its way (three taps where
    # one of 48 tiles was one). Those part taps are bounded as each move is tapped (above); the median
    # of 3 holds for the builder's own taps, a value's last part counted as its one tap.
    assert statistics.median(builder_taps) <= 3
