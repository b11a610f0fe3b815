"""A table's evening, in headless Chromium, with no file edited by hand: the service starts from
the config `companion init --no-hardware` wrote; the referee's console starts every registered game
that can be set up by taps (it has a setup form), one after another (the game, the players, the
setup, all by taps); cards are dealt by each player tapping their own on their own page; a few moves
are played by taps; a game is abandoned for the next; and every game ends in a log of its own that
`companion log verify` accepts. What each game's turn holds (its players, its deal, its checks) is
its scene's ``evening`` (tests/games/scenes.py).
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from companion.games import specs
from tests.games.scenes import Evening, scene
from tests.test_serve import _start, _until

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WAIT_MS = 15_000
KEYS = "addEventListener('keydown', () => { sessionStorage.keys = String(Number(sessionStorage.keys || 0) + 1); }, true);"
"""Counts every key pressed on a page, across its reloads (the PIN login fills its field without keys)."""
PRESSED = "() => Number(sessionStorage.keys || 0)"


def _board(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(url + "api/board", timeout=10) as resp:
        found: dict[str, Any] = json.loads(resp.read())
        return found


@pytest.fixture
def table(tmp_path: Path) -> Iterator[tuple[Path, str, str]]:
    config = tmp_path / "table.toml"
    subprocess.run(
        [sys.executable, "-m", "companion", "init", str(config), "--game", "everest", "--no-hardware",
         "--host", "127.0.0.1", "--port", "0"],
        check=True, capture_output=True,
    )
    proc, url, pin = _start(config)
    try:
        yield config, url, pin
    finally:
        proc.terminate()
        proc.wait(20)


def _ready(page: Any, selector: str = "[data-builder]") -> None:
    page.wait_for_selector(f'{selector}[data-ready="1"]', timeout=WAIT_MS)


def _tap(page: Any, selector: str, ready: str = "#new-game") -> None:
    page.locator(selector).first.click()
    _ready(page, ready)


def _start_game(console: Any, url: str, game: str, players: list[str]) -> None:
    """New game → the game → the players (tapped from those already at the table) → setup → start."""
    console.bring_to_front()
    _ready(console, "#new-game")
    if console.locator('[data-tap="new-game"]').count():
        _tap(console, '[data-tap="new-game"]')
    _tap(console, f'[data-tap="game:{game}"]')
    chosen = console.locator("#new-game .step-title").nth(1)
    for name in players:  # tap the names in seat order; a name new to this table is typed once, on the console
        if not console.locator(f'[data-tap="player:{name}"]').count():
            console.fill("input.name-input", name)
            _tap(console, '[data-tap="add-player"]')
        elif not console.locator(f'[data-tap="player:{name}"].on').count():
            _tap(console, f'[data-tap="player:{name}"]')
    assert chosen.inner_text().endswith(": " + ", ".join(players)), chosen.inner_text()
    while console.locator("[data-setup]").count():  # the setup's taps: the first value offered each time
        if console.locator('[data-setup] [data-tap^="setup:"]').count():
            _tap(console, '[data-setup] [data-tap^="setup:"]')
        else:
            _tap(console, '[data-tap="setup-done"]')
    try:
        with console.expect_navigation():
            console.locator('[data-tap="start-game"]').click()
    except Exception as exc:  # say what the console answered
        raise AssertionError(console.locator("#new-game").inner_text()) from exc
    _until(lambda: _board(url)["game"] == game, f"the board to show {game}")


def _links(console: Any) -> dict[str, str]:
    console.bring_to_front()
    console.reload()
    return {m.group(1): m.group(2) for m in re.finditer(r"<strong>([^<]+)</strong> <a href=\"([^\"]+)\"", console.content())}


def _phones(chromium: Any, console: Any, url: str, errors: list[str]) -> dict[str, Any]:
    """Each player's own phone (its own browser), opened on the link the console shows."""
    phones = {}
    for player, link in _links(console).items():
        phone_context = chromium.new_context(viewport={"width": 412, "height": 915})
        phone_context.add_init_script(KEYS)
        phone = phone_context.new_page()
        phone.on("pageerror", lambda exc: errors.append(str(exc)))
        phone.goto(url.rstrip("/") + link)
        phones[player] = phone
    return phones


def _play_something(page: Any, url: str, taps: int = 16) -> bool:
    """Tap the first thing the engine proposes (a one-tap move, else the first legal value) until a
    move is sent; False if the page offers nothing to this player now."""
    page.bring_to_front()
    _ready(page)
    before = _board(url)["seq"]
    for _ in range(taps):
        if page.locator('[data-tap^="quick:"]').count():
            _tap(page, '[data-tap^="quick:"]', "[data-builder]")
        elif page.locator('.step [data-tap^="value:"]:not(.off)').count():
            _tap(page, '.step [data-tap^="value:"]:not(.off)', "[data-builder]")
        elif page.locator('.step [data-tap^="part:"]:not(.off)').count():  # a value by its parts (an Everest coin)
            _tap(page, '.step [data-tap^="part:"]:not(.off)', "[data-builder]")
        elif page.locator('.step [data-tap="finish"].go').count():
            _tap(page, '.step [data-tap="finish"].go', "[data-builder]")
        elif page.locator('[data-tap^="verb:"]:not(.off):not(.on)').count():  # several legal verbs: the first listed
            _tap(page, '[data-tap^="verb:"]:not(.off):not(.on)', "[data-builder]")
        else:
            return False
        if _board(url)["seq"] > before:
            return True
    return False


def _tap_cards_in(phones: dict[str, Any], url: str, dealt: dict[str, list[str]], twins: Callable[[str], Sequence[str]]) -> None:
    """Each player taps the cards dealt to them on their own page, one move each. Identical copies are
    one button, naming whichever copy the builder picks (issue 22): a card is tapped as its copies' button."""
    for player, cards in dealt.items():
        phone = phones[player]
        phone.bring_to_front()
        for card in cards:
            before = _board(url)["seq"]
            _ready(phone)
            _tap(phone, ", ".join(f".step [data-tap='value:{json.dumps(c)}']" for c in twins(card) or (card,)), "[data-builder]")
            _until(lambda: _board(url)["seq"] > before, f"{player}'s {card}")


def _tap_prompt(phone: Any, url: str, player: str) -> None:
    """The prompt the board lists for ``player`` is the whole move: one tap."""
    prompt = next(p for p in _board(url)["prompts"] if p["who"] == player)
    phone.bring_to_front()
    before = _board(url)["seq"]
    phone.locator(f'[data-tap="prompt:{prompt["verb"]}"]').click()
    _until(lambda: _board(url)["seq"] > before, f"{player}'s {prompt['verb']}")


def _game_turn(chromium: Any, console: Any, url: str, game_id: str, evening: Evening, errors: list[str]) -> None:
    _start_game(console, url, game_id, list(evening.players))
    board = _board(url)
    assert board["game"] == game_id and board["players"] == list(evening.players)
    evening.started(board)
    spec = specs()[game_id]
    dealt = {p: list(cards) for p, cards in evening.dealt(spec.game, board).items()}
    example = spec.game.new_state(spec.example(random.Random(1)).header)  # which cards are copies of which
    if not (dealt or evening.prompted or evening.plays):
        return  # nothing is tapped on a player's page
    phones = _phones(chromium, console, url, errors)
    _tap_cards_in(phones, url, dealt, lambda card: spec.game.copies(example, card))
    evening.ready(_board(url))
    for player in evening.prompted:
        _tap_prompt(phones[player], url, player)
    for player in evening.plays:
        assert _play_something(phones[player], url), f"{player} could not play: {phones[player].locator('[data-builder]').inner_text()}"
    evening.ended(_board(url))
    for phone in phones.values():
        assert phone.evaluate(PRESSED) == 0
        phone.context.close()


def test_an_evening_of_games_from_the_console(chromium: Any, table: tuple[Path, str, str]) -> None:
    config, url, pin = table
    folder = config.parent
    context = chromium.new_context(viewport={"width": 412, "height": 915})
    context.add_init_script(KEYS)
    errors: list[str] = []
    games = [game_id for game_id, spec in specs().items() if spec.game.setup_form() is not None]  # set up by taps
    try:
        console = context.new_page()
        console.on("pageerror", lambda exc: errors.append(str(exc)))
        console.goto(url + "referee/login")
        console.fill("input[name=pin]", pin)  # logging in is not entering a move
        console.click("button[type=submit]")
        console.wait_for_url(url + "referee")
        for game_id in games:  # each abandoned for the next
            spec = specs()[game_id]
            _game_turn(chromium, console, url, game_id, scene(spec).evening_for(spec.game), errors)
            assert console.evaluate(PRESSED) == 0, f"a key was pressed on the console during {game_id}"
    finally:
        context.close()
    assert errors == []
    logs = sorted(p for p in folder.iterdir() if p.suffix == ".sqlite" or p.name.endswith(".db"))
    assert len(logs) == len(games) + 1, logs  # the first game, from the config, and one per game started
    for game_log in logs:
        verified = subprocess.run([sys.executable, "-m", "companion", "log", "verify", str(game_log)], capture_output=True, text=True)
        assert verified.returncode == 0, verified.stderr
