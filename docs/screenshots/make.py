"""Screenshots of every game's scoreboard, mid-game, as a phone (412 px wide) and a TV sees it.

Run from the repository root:  .venv/bin/python docs/screenshots/make.py  [game-id ...]

For each game it deals a seeded simulator game (``random_playout`` of the game's package), plays its
first moves through a real Session and the real web server on a free loopback port, and shoots the
page with Playwright and Debian's Chromium (/usr/bin/chromium, or $CHROMIUM). Output, beside this file:
``<game-id>.png`` (phone), ``big-<game-id>.png`` (/big at 1920x1080, for the games in BIG) and
``player-<game-id>.png`` (a player's own page, for the games in PLAYER).
"""

from __future__ import annotations

import logging
import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from companion.app.config import WebConfig  # noqa: E402
from companion.core import Observation, ObservationKind  # noqa: E402
from companion.games import get_game  # noqa: E402
from companion.log.store import GameLog  # noqa: E402
from companion.app.service import WebServer, start_web  # noqa: E402
from companion.referee.session import Session  # noqa: E402
from web.links import player_link  # noqa: E402

log = logging.getLogger("screenshots")

OUT = Path(__file__).resolve().parent
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
PHONE = {"width": 412, "height": 915}
TV = {"width": 1920, "height": 1080}


@dataclass(frozen=True)
class Scene:
    """A seeded game stopped where its scoreboard has something to show."""

    package: str
    seed: int
    stop: Callable[[dict[str, Any], int], bool]
    """Stop before playing on once this is true of the scoreboard after move n."""
    max_moves: int = 2000
    kwargs: tuple[tuple[str, Any], ...] = ()
    health: tuple[tuple[str, str, str], ...] = ()
    """(component, status, detail) reports to show the readers' panel."""


SCENES: dict[str, Scene] = {
    "escape-master": Scene(
        "escape_master", 0, lambda s, n: s["round"] >= 3 and s["phase"] == "playing" and len(s["piles"]) >= 3 and s["draw_pile"] < 55,
        kwargs=(("options", {}),),
        health=(("array", "ok", ""), ("array:1", "ok", ""), ("array:2", "ok", ""), ("array:3", "silent", "no heartbeat for 12 s")),
    ),
    "escape-house": Scene("escape_house", 2, lambda s, n: s["clocks"] >= 2 and s["phase"] == "action" and bool(s["played"])),
    "everest": Scene(
        "everest", 3, lambda s, n: s["round"] >= 3 and s["phase"] == "resolve" and s["step"] == 2,
        health=(("camera", "ok", "calibrated"),),
    ),
    "horrible-mountain-2": Scene("horrible_mountain_2", 1, lambda s, n: n >= 14 and s["phase"] == "play"),
    "the-mountain": Scene("the_mountain", 2, lambda s, n: n >= 16 and s["phase"] in ("draw", "actions")),
}
BIG = ("escape-master", "everest", "escape-house")
PLAYER: dict[str, Callable[[dict[str, Any]], bool]] = {
    # the player page just as the round's planning opens, so the form shows
    "everest": lambda s: s["phase"] == "plan" and s["round"] >= 2,
    "escape-master": lambda s: s["phase"] == "playing",
    "horrible-mountain-2": lambda s: s["phase"] == "play",
}


def moves_for(game_id: str, scene: Scene, stop: Callable[[dict[str, Any], int], bool]) -> tuple[Any, list[Any]]:
    """The header and the moves up to (and including) the first one after which ``stop`` holds."""
    from companion.games import get_spec

    playout = get_spec(game_id)
    header, moves = playout.playout(scene.seed, max_moves=scene.max_moves, **dict(scene.kwargs))
    game = get_game(game_id)
    state = game.new_state(header)
    for n, move in enumerate(moves, start=1):
        verdict, after = game.play(state, move)
        if verdict.ok:
            state = after
        if stop(game.scoreboard(state), n):
            return header, moves[:n]
    log.warning("%s: the stop condition never held; using the whole playout", game_id)
    return header, moves


@contextmanager
def served(game_id: str, header: Any, moves: list[Any], health: tuple[tuple[str, str, str], ...]) -> Iterator[tuple[Session, WebServer]]:
    game = get_game(game_id)
    with tempfile.TemporaryDirectory(prefix="tc-shots-") as tmp:
        game_log = GameLog(Path(tmp) / "game.sqlite")
        session = Session(game, game_log, header)
        for i, move in enumerate(moves):
            session.process(Observation("screenshots", 1000.0 + i, ObservationKind.MOVE, game.codec.to_json(move)))
        now = time.time()
        for component, status, detail in health:
            session.report_health(component, {"status": status, "detail": detail, "since": now - 120})
        web = start_web(session, WebConfig(host="127.0.0.1", port=0, threads=8), pin="123456", secret=b"screenshots")
        try:
            yield session, web
        finally:
            web.close()
            session.stop()
            game_log.close()


def shoot(browser: Any, url: str, path: Path, viewport: dict[str, int], full_page: bool, ready: str) -> None:
    context = browser.new_context(viewport=viewport, device_scale_factor=1)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url)
    page.wait_for_selector("#live.on", timeout=15_000)
    page.wait_for_selector(ready, timeout=15_000)
    page.wait_for_timeout(300)  # let the latest moves list fill from the log
    page.screenshot(path=str(path), full_page=full_page)
    context.close()
    if errors:
        raise RuntimeError(f"{url}: JavaScript errors: {errors}")
    log.info("wrote %s", path.relative_to(ROOT))


def main(argv: list[str]) -> int:
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    from playwright.sync_api import sync_playwright

    wanted = argv or list(SCENES)
    unknown = [g for g in wanted if g not in SCENES]
    if unknown:
        log.error("unknown game id(s): %s (choose from %s)", ", ".join(unknown), ", ".join(SCENES))
        return 2
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--headless=new", "--no-sandbox", "--disable-gpu"])
        try:
            for game_id in wanted:
                scene = SCENES[game_id]
                header, moves = moves_for(game_id, scene, scene.stop)
                with served(game_id, header, moves, scene.health) as (_session, web):
                    base = f"http://127.0.0.1:{web.server.effective_port}"
                    shoot(browser, base + "/", OUT / f"{game_id}.png", PHONE, True, "#board > *")
                    if game_id in BIG:
                        shoot(browser, base + "/big", OUT / f"big-{game_id}.png", TV, False, "#board > *")
                if game_id in PLAYER:
                    want = PLAYER[game_id]
                    header, moves = moves_for(game_id, scene, lambda s, n, want=want: want(s))  # type: ignore[misc]
                    with served(game_id, header, moves, ()) as (session, web):
                        who = session.header.players[0]
                        url = f"http://127.0.0.1:{web.server.effective_port}{player_link(web.app, who)}"
                        shoot(browser, url, OUT / f"player-{game_id}.png", PHONE, True, "#mine > *")
        finally:
            browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
