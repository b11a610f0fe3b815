"""Screenshots of entry by tapping, on a phone 412 px wide: each game's move builder mid-move.

Run from the repository root:  .venv/bin/python docs/screenshots/entry.py  [game-id ... | referee]

For each game a seeded simulator game is played to a point where a move is being built (through a
real Session and server, as make.py does); a player's page is opened and a few of its buttons are
tapped (their ``data-tap``, as tests/browser/test_tap_play.py taps them) so that the builder shows a
step: cards as faces, The Mountain's pyramid, an Escape Master deal half tapped in, an Everest plan.
Output, beside this file: ``entry-<game-id>.png``, and ``entry-referee.png`` (the console with its
"who" row).
"""

from __future__ import annotations

import json
import logging
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from make import CHROMIUM, OUT, PHONE, SCENES, Scene, moves_for, served  # noqa: E402

from companion.entry.builder import Builder  # noqa: E402
from web.links import player_link  # noqa: E402

log = logging.getLogger("screenshots.entry")

READY = '[data-builder][data-ready="1"]'


@dataclass(frozen=True)
class Entry:
    """Where to stop the seeded game, whose page to open, and what to tap there."""

    stop: Any
    """(scoreboard, n) -> bool, as make.Scene.stop."""
    verb: str | None
    """The verb to tap (None: it is chosen already, or the taps below start the move)."""
    taps: tuple[str, ...] = ()
    """``data-tap`` values to tap in order after the verb ("first": the first legal value; "any": the
    first value, legal or not; "nth:N": the Nth value; "legal-act": the cards of a legal move of the verb, then "Done")."""
    until: str | None = None
    """Tap the first legal value until this step (``.step[data-field=...]``) shows."""
    who: int = 0
    """Index of the player whose page is shot (when the verb is legal for nobody else first)."""


ENTRIES: dict[str, Entry] = {
    "escape-master": Entry(lambda s, n: s["phase"] == "round_over", "deal", ("any", "any", "any", "any")),
    "horrible-mountain-2": Entry(lambda s, n: n >= 14 and s["phase"] == "play", "swap", ("first",)),
    "the-mountain": Entry(None, "act", ("legal-act",)),  # stops where an act with targets is legal
    "escape-house": Entry(lambda s, n: n >= 6 and s["phase"] == "action", "play", ("first",)),
    "everest": Entry(lambda s, n: s["phase"] == "plan" and s["round"] >= 2, None, ("nth:9", "nth:30")),
}


def _act(game: Any, state: Any, who: str) -> dict[str, Any] | None:
    legal = Builder(game, state, (who,), who).legal(who)
    return next((m for m in legal if m["do"] == "act" and m.get("targets")), None)


def moves_to_act(game_id: str, scene: Scene) -> tuple[Any, list[Any]]:
    """The Mountain: the moves up to the first state where an act removing pyramid cards is legal."""

    from companion.games import get_game

    from companion.games import get_spec

    playout = get_spec(game_id)
    header, moves = playout.playout(scene.seed, max_moves=scene.max_moves)
    game = get_game(game_id)
    state = game.new_state(header)
    for n, move in enumerate(moves):
        if n >= 10 and _act(game, state, header.players[0]) is not None:
            return header, moves[:n]
        _, state = game.play(state, move)
    return header, moves


def tap(page: Any, selector: str) -> None:
    page.locator(selector).first.click()
    page.wait_for_selector(READY, timeout=15_000)


def tap_first_legal(page: Any) -> bool:
    found = page.locator('.step [data-tap^="value:"]:not(.off)')
    if not found.count():
        return False
    found.first.click()
    page.wait_for_selector(READY, timeout=15_000)
    return True


def build(page: Any, entry: Entry, legal_move: dict[str, Any] | None = None) -> None:
    page.wait_for_selector(READY, timeout=15_000)
    if entry.verb is not None and not page.locator(f'[data-tap="verb:{entry.verb}"].on').count():
        tap(page, f'[data-tap="verb:{entry.verb}"]')
    for step in entry.taps:
        if step == "first":
            tap_first_legal(page)
        elif step.startswith("nth:"):
            page.locator('.step [data-tap^="value:"]').nth(int(step[4:])).click()
            page.wait_for_selector(READY, timeout=15_000)
        elif step == "any":
            tap(page, '.step [data-tap^="value:"]')
        elif step == "legal-act":
            assert entry.verb is not None and legal_move is not None
            for card in legal_move["cards"]:
                tap(page, f".step [data-tap='value:{json.dumps(card)}']")
            if page.locator('.step[data-field="cards"]').count():
                tap(page, '.step [data-tap="finish"]')
        else:
            tap(page, f"[data-tap='{step}']")
    for _ in range(12):
        if entry.until is None or page.locator(f'.step[data-field="{entry.until}"]').count():
            break
        if not tap_first_legal(page):
            tap(page, '.step [data-tap="finish"]')


def shoot(page: Any, path: Path) -> None:
    # the builder's top just below the sticky top bar (on the console: its "who" row)
    page.evaluate("""() => {
      const bar = document.querySelector('header');
      const top = document.querySelector('[data-builder]').getBoundingClientRect().top + window.scrollY;
      window.scrollTo(0, Math.max(0, top - (bar ? bar.getBoundingClientRect().height : 0) - 8));
    }""")
    page.wait_for_timeout(200)
    page.screenshot(path=str(path))
    log.info("wrote %s", path.name)


def game_entry(browser: Any, game_id: str) -> None:
    scene: Scene = SCENES[game_id]
    entry = ENTRIES[game_id]
    header, moves = moves_for(game_id, scene, entry.stop) if entry.stop is not None else moves_to_act(game_id, scene)
    with served(game_id, header, moves, ()) as (session, web):
        players = session.header.players
        who = players[entry.who]
        if game_id == "escape-master":  # the dealer deals
            who = session.state.table.players[session.state.dealer]
        elif entry.verb is not None:  # whoever may make the move now
            who = next((p for p in players if any(m["do"] == entry.verb for m in Builder(session.game, session.state, players, p).legal(p))), who)
        url = f"http://127.0.0.1:{web.server.effective_port}{player_link(web.app, who)}"
        context = browser.new_context(viewport=PHONE, device_scale_factor=1)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(url)
        page.wait_for_selector("#live.on", timeout=15_000)
        build(page, entry, _act(session.game, session.state, who) if game_id == "the-mountain" else None)
        shoot(page, OUT / f"entry-{game_id}.png")
        context.close()
        if errors:
            raise RuntimeError(f"{game_id}: JavaScript errors: {errors}")


def referee_entry(browser: Any) -> None:
    game_id = "escape-master"
    scene = SCENES[game_id]
    header, moves = moves_for(game_id, scene, lambda s, n: n >= 40 and s["phase"] == "playing")
    with served(game_id, header, moves, ()) as (session, web):
        base = f"http://127.0.0.1:{web.server.effective_port}"
        context = browser.new_context(viewport=PHONE, device_scale_factor=1)
        page = context.new_page()
        page.goto(base + "/referee/login")
        page.fill("input[name=pin]", "123456")
        page.click("button[type=submit]")
        page.wait_for_url(base + "/referee")
        page.wait_for_selector(READY, timeout=15_000)
        who = session.header.players[1]
        tap(page, f'[data-tap="by:{who}"]')
        tap(page, '[data-tap="verb:play"]')
        shoot(page, OUT / "entry-referee.png")
        context.close()


def main(argv: list[str]) -> int:
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    from playwright.sync_api import sync_playwright

    wanted = argv or [*ENTRIES, "referee"]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--headless=new", "--no-sandbox", "--disable-gpu"])
        try:
            for name in wanted:
                if name == "referee":
                    referee_entry(browser)
                else:
                    game_entry(browser, name)
        finally:
            browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
