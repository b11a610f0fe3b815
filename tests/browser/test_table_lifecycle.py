"""A table's evening, in headless Chromium, with no file edited by hand: the service starts from
the config `companion init --no-hardware` wrote; the referee's console starts games one after
another (the game, the players, the setup, all by taps); cards are dealt by each player tapping
their own on their own page; a few moves are played by taps; a game is abandoned for the next; and
every game ends in a log of its own that `companion log verify` accepts.
"""

from __future__ import annotations

import re
import subprocess
import sys
import urllib.request
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.games import get_game
from tests.games.test_escape_house_live import HANDS
from tests.test_serve import _start, _until

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WAIT_MS = 15_000
GAMES = ["escape-master", "everest", "horrible-mountain-2", "the-mountain", "escape-house"]
"""The games the evening starts from the console: all five."""
HOUSE_HANDS = HANDS
"""Escape House's deal, as each player taps it on their own page."""
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


def _play_something(page: Any, url: str, taps: int = 12) -> bool:
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
        elif page.locator('.step [data-tap="finish"].go').count():
            _tap(page, '.step [data-tap="finish"].go', "[data-builder]")
        elif page.locator('[data-tap^="verb:"]:not(.off):not(.on)').count():  # several legal verbs: the first listed
            _tap(page, '[data-tap^="verb:"]:not(.off):not(.on)', "[data-builder]")
        else:
            return False
        if _board(url)["seq"] > before:
            return True
    return False


def test_an_evening_of_games_from_the_console(chromium: Any, table: tuple[Path, str, str]) -> None:
    config, url, pin = table
    folder = config.parent
    context = chromium.new_context(viewport={"width": 412, "height": 915})
    context.add_init_script(KEYS)
    errors: list[str] = []
    try:
        console = context.new_page()
        console.on("pageerror", lambda exc: errors.append(str(exc)))
        console.goto(url + "referee/login")
        console.fill("input[name=pin]", pin)  # logging in is not entering a move
        console.click("button[type=submit]")
        console.wait_for_url(url + "referee")

        # Escape Master: the console starts it, each player taps their own ten cards, the dealer says Start!
        _start_game(console, url, "escape-master", ["anna", "ben", "cleo"])
        phones = _phones(chromium, console, url, errors)
        # The real deal is a shuffle at the table: each player taps the cards they were dealt.
        deck = [c for c in get_game("escape-master").deck() or () if not c.startswith(("start", "escape", "trap", "doom", "wisdom", "dead"))]
        random.Random(7).shuffle(deck)
        for n, (player, phone) in enumerate(phones.items()):
            phone.bring_to_front()
            for card in deck[n * 10 : n * 10 + 10]:
                before = _board(url)["seq"]
                _ready(phone)
                _tap(phone, f".step [data-tap='value:{json.dumps(card)}']", "[data-builder]")
                _until(lambda: _board(url)["seq"] > before, f"{player}'s {card}")
        rows = _board(url)["counters"]
        assert rows["illegal"] == 0, rows
        board = _board(url)
        assert [(p["who"], p["verb"]) for p in board["prompts"]] == [("anna", "start")], board["prompts"]
        anna = phones["anna"]
        anna.bring_to_front()
        before = _board(url)["seq"]
        anna.locator('[data-tap="prompt:start"]').click()  # the prompt is the whole move: one tap
        _until(lambda: _board(url)["seq"] > before, "Start!")
        assert _board(url)["scoreboard"]["phase"] == "playing"
        for phone in phones.values():
            assert phone.evaluate(PRESSED) == 0
            phone.context.close()

        # Abandoned for Everest with two players: plans tapped in on their own pages.
        _start_game(console, url, "everest", ["anna", "ben"])
        phones = _phones(chromium, console, url, errors)
        for player, phone in phones.items():
            assert _play_something(phone, url), f"{player} could not plan"
            phone.context.close()
        board = _board(url)
        assert board["game"] == "everest" and board["players"] == ["anna", "ben"]

        # Horrible Mountain 2: the console taps the Evil Master, the Table Cards slot by slot and the
        # colours; each player taps the three cards dealt to them; then the cubes are placed.
        _start_game(console, url, "horrible-mountain-2", ["anna", "ben"])
        table = _board(url)["scoreboard"]
        on_table = {slot["card"] for slot in table.get("table", []) if isinstance(slot, dict) and slot.get("card")}
        rest = [c for c in get_game("horrible-mountain-2").deck() or () if c not in on_table]
        phones = _phones(chromium, console, url, errors)
        for n, (player, phone) in enumerate(phones.items()):
            phone.bring_to_front()
            for card in rest[n * 3 : n * 3 + 3]:
                before = _board(url)["seq"]
                _ready(phone)
                _tap(phone, f".step [data-tap='value:{json.dumps(card)}']", "[data-builder]")
                _until(lambda: _board(url)["seq"] > before, f"{player}'s {card}")
        assert _board(url)["counters"]["illegal"] == 0
        assert [p["verb"] for p in _board(url)["prompts"]] == ["place"]
        for phone in phones.values():
            assert phone.evaluate(PRESSED) == 0
            phone.context.close()

        # The Mountain, solitaire: the pyramid and the health pile lie face up and are tapped in.
        _start_game(console, url, "the-mountain", ["anna"])
        board = _board(url)
        assert board["players"] == ["anna"] and board["scoreboard"]["health"] == 10
        assert console.evaluate(PRESSED) == 0

        # Escape House, six players (four new names typed once): the console taps the card set and
        # the face-up main puzzle; each player taps the four cards dealt to them; the room decks and
        # the face-down puzzles stay unknown until a card is drawn, cleared or turned up.
        _start_game(console, url, "escape-house", list(HOUSE_HANDS))
        board = _board(url)
        assert board["players"] == list(HOUSE_HANDS) and board["scoreboard"]["main_left"] == 7
        assert sorted(p["who"] for p in board["prompts"]) == sorted(HOUSE_HANDS)
        phones = _phones(chromium, console, url, errors)
        for player, phone in phones.items():
            phone.bring_to_front()
            for card in HOUSE_HANDS[player]:
                before = _board(url)["seq"]
                _ready(phone)
                _tap(phone, f".step [data-tap='value:{json.dumps(card)}']", "[data-builder]")
                _until(lambda: _board(url)["seq"] > before, f"{player}'s {card}")
        board = _board(url)
        assert board["counters"]["illegal"] == 0 and board["scoreboard"]["phase"] == "explore"
        assert board["scoreboard"]["hand_sizes"] == {p: 4 for p in HOUSE_HANDS}
        assert _play_something(phones["anna"], url), phones["anna"].locator("[data-builder]").inner_text()
        for phone in phones.values():
            assert phone.evaluate(PRESSED) == 0
            phone.context.close()
    finally:
        context.close()
    assert errors == []
    logs = sorted(p for p in folder.iterdir() if p.suffix == ".sqlite" or p.name.endswith(".db"))
    assert len(logs) == 6, logs  # the first Everest game, Escape Master, Everest, Horrible Mountain 2, The Mountain, Escape House
    for game_log in logs:
        verified = subprocess.run([sys.executable, "-m", "companion", "log", "verify", str(game_log)], capture_output=True, text=True)
        assert verified.returncode == 0, verified.stderr
