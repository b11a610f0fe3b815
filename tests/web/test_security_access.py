"""Issue 15, items 6-8, over real HTTP and on the real files: PIN guessing, Host names, links, logout,
framing, file modes, and the journal."""

from __future__ import annotations

import io
import json
import logging
import re
import stat
from collections.abc import Iterator
from contextlib import redirect_stdout
from pathlib import Path

import pytest

from companion.app.config import WebConfig, parse_config, weak_pin
from companion.core.errors import ConfigError
from companion.log.store import GameLog
from companion.app.service import new_pin, print_welcome, start_web, table_secret
from companion.referee.session import Session
from tests.conftest import TOY_HEADER, StepClock
from tests.serving import Served
from tests.toy_game import GAME as TOY
from tests.web.client import Browser, Client
from web.auth import GLOBAL_FAILURES, player_token
from web.links import player_link

PIN = "123456"


@pytest.fixture
def table(tmp_path: Path) -> Iterator[tuple[Path, Session]]:
    game_log = GameLog(tmp_path / "game.sqlite")
    session = Session(TOY, game_log, TOY_HEADER, clock=StepClock())
    session.start()
    yield tmp_path, session
    session.stop()
    game_log.close()


def _serve(session: Session, **web: object) -> Served:
    config = WebConfig(host="127.0.0.1", port=0, threads=8, **web)  # type: ignore[arg-type]
    return Served(session, start_web(session, config, pin=PIN, secret=b"s" * 32))


# -- item 6: PIN guessing ----------------------------------------------------------------------


def test_many_addresses_share_one_pin_budget_that_survives_a_restart(table: tuple[Path, Session]) -> None:
    """The issue: 1,000 guesses from 200 addresses in 3.7 s; a restart reset the counts."""
    folder, session = table
    served = _serve(session)
    try:
        answers = [Client(served.port, f"127.0.0.{10 + i}").login("00000000") for i in range(GLOBAL_FAILURES + 10)]
        assert answers[:GLOBAL_FAILURES] == [403] * GLOBAL_FAILURES  # one guess each, each answered
        assert set(answers[GLOBAL_FAILURES:]) == {429}  # then the budget is spent for every address
        assert Client(served.port, "127.0.0.200").login(PIN) == 429  # even the right PIN waits
        assert Client(served.port, "127.0.0.1").login(PIN) == 303  # the Pi's own console still may
    finally:
        served.web.close()
    counts = folder / "game.pins.json"
    assert stat.S_IMODE(counts.stat().st_mode) == 0o600
    restarted = _serve(session)
    try:
        assert Client(restarted.port, "127.0.0.201").login(PIN) == 429  # the restart reset nothing
    finally:
        restarted.web.close()


def test_one_address_is_locked_out_after_a_few_wrong_pins(table: tuple[Path, Session]) -> None:
    _folder, session = table
    served = _serve(session)
    try:
        guesser = Client(served.port, "127.0.0.9")
        assert [guesser.login("00000000") for _ in range(6)][-1] == 429
    finally:
        served.web.close()


def test_weak_configured_pins_are_refused_with_one_message(tmp_path: Path) -> None:
    for pin in ("1", "123456", "11111111", "12345678", "87654321", "abababab"):
        assert weak_pin(pin) is not None, pin
        raw = {"game": {"id": "everest", "players": ["anna", "ben"]}, "web": {"pin": pin}}
        with pytest.raises(ConfigError, match=r"^web\.pin: the PIN "):
            parse_config(raw, tmp_path / "table.toml")
    assert weak_pin("40718293") is None
    assert all(len(p) == 8 and p.isdigit() and weak_pin(p) is None for p in (new_pin() for _ in range(50)))


# -- item 7: Host names (DNS rebinding) --------------------------------------------------------------


def test_only_the_tables_own_host_names_are_served(table: tuple[Path, Session]) -> None:
    _folder, session = table
    served = _serve(session, hosts=("table.example",))
    served.web.app.config["PUBLIC_URL"] = "http://192.168.4.1:8000/"  # the address the service printed
    try:
        port = served.port
        for good in (f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}", "table.example:8000", "192.168.4.1:8000"):
            assert Client(port, host=good).request("GET", "/api/board")[0] == 200, good
        for evil in ("evil.example", f"evil.example:{port}", "127.0.0.1.evil.example", "[::2]"):
            status, _, body = Client(port, host=evil).request("GET", "/api/board")
            assert status == 421 and b"scoreboard" not in body, evil
        # The rebinding page guessing PINs through a phone: refused before the PIN is even read.
        rebound = Client(port, "127.0.0.77", host="evil.example")
        assert rebound.login("00000000") == 421
        assert served.web.app.extensions["pin_guard"].locked_for("127.0.0.77") == 0
    finally:
        served.web.close()


# -- item 8 ----------------------------------------------------------------------------------


def test_player_links_of_another_link_book_open_nothing(tmp_path: Path) -> None:
    """A link belongs to the link book kept beside its log (issue 22; following a player from game to
    game at one table is tests/web/test_links.py): two logs sharing a secret do not share links."""
    secret = table_secret(tmp_path / "table.secret")
    links = []
    for name in ("first.sqlite", "second.sqlite"):  # same secret, same players: two logs, two books
        game_log = GameLog(tmp_path / name)
        session = Session(TOY, game_log, TOY_HEADER, clock=StepClock(1_800_000_000.0 + len(links) * 3600))
        session.start()
        served = Served(session, start_web(session, WebConfig(host="127.0.0.1", port=0, threads=8), PIN, secret))
        try:
            links.append(f"/api{player_link(served.web.app, 'anna')}/view")
            assert Browser(served.port).get(links[-1]).status == 200
            if len(links) == 2:
                assert links[0] != links[1]
                assert Browser(served.port).get(links[0]).status == 404  # last game's link
        finally:
            served.web.close()
            session.stop()
            game_log.close()


def test_logout_revokes_the_session_on_the_server(served: Served) -> None:
    referee = Client(served.port)
    assert referee.login(PIN) == 303
    stolen = referee.cookie
    assert referee.request("GET", "/api/referee/view")[0] == 200
    csrf = json.loads(referee.request("GET", "/api/whoami")[2])["csrf"]
    assert referee.request("POST", "/referee/logout", f"csrf={csrf}".encode(),
                           {"Content-Type": "application/x-www-form-urlencoded"})[0] == 303
    thief = Client(served.port)
    thief.cookie = stolen  # a copy of the cookie from before the logout
    assert thief.request("GET", "/api/referee/view")[0] == 401


def test_no_page_can_be_framed(served: Served) -> None:
    for path in ("/", "/referee/login", "/api/board"):
        headers = Browser(served.port).get(path).headers
        assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
        assert headers["X-Frame-Options"] == "DENY"


def test_secrets_are_owner_only_files(tmp_path: Path) -> None:
    fresh = tmp_path / "new.secret"
    table_secret(fresh)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o600
    old = tmp_path / "old.secret"
    old.write_bytes(b"k" * 32)
    old.chmod(0o644)  # as an older version left it
    assert table_secret(old) == b"k" * 32
    assert stat.S_IMODE(old.stat().st_mode) == 0o600


def test_the_pin_and_links_stay_out_of_the_journal(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """systemd sends standard output to the journal: there, only the path of a 0600 file is printed."""
    caplog.set_level(logging.DEBUG)
    out = io.StringIO()
    access = tmp_path / "game.access"
    token = player_token(b"s" * 32, "toy:abc", "anna")
    with redirect_stdout(out):
        print_welcome("http://127.0.0.1:8000/", None, "40718293", {"anna": f"p/anna/{token}"}, access, terminal=False)
    printed = out.getvalue()
    assert "40718293" not in printed and token not in printed and str(access) in printed
    assert "40718293" in access.read_text() and token in access.read_text()
    assert stat.S_IMODE(access.stat().st_mode) == 0o600
    assert "40718293" not in caplog.text and token not in caplog.text
    tty = io.StringIO()
    with redirect_stdout(tty):
        print_welcome("http://127.0.0.1:8000/", None, "40718293", {"anna": f"p/anna/{token}"}, None, terminal=True)
    assert re.search(r"referee PIN: 40718293", tty.getvalue())


def test_a_wrong_pin_or_token_is_not_written_to_the_log(served: Served, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    Client(served.port).login("99887766")
    Browser(served.port).get("/api/p/anna/" + "f" * 24 + "/view")
    assert "99887766" not in caplog.text and "f" * 24 not in caplog.text and PIN not in caplog.text
