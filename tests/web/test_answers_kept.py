"""Answers built once per moment (issue 22), over real HTTP: each player's view, the board, the offer a
page will ask for, and the session cookie. Kept answers are what a fresh build gives, go only to whom
they were built for, and a new row (or a health report) makes new ones."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.core import Observation, ObservationKind
from companion.entry.builder import Draft, offer
from companion.games import get_spec
from companion.log.store import GameLog
from companion.referee.session import Session
from tests.conftest import StepClock
from tests.serving import SSEReader, Served, serve
from tests.web.client import Browser
from web.links import player_link

SPEC = get_spec("escape-house")
GAME = SPEC.game


@pytest.fixture
def table(tmp_path: Path) -> Iterator[tuple[Served, list[Observation]]]:
    header, moves = SPEC.playout(5, max_moves=12, illegal_every=0)
    session = Session(GAME, GameLog(tmp_path / "kept.sqlite"), header, clock=StepClock())
    entries = [Observation("test", 100.0 + n, ObservationKind.MOVE, GAME.codec.to_json(m)) for n, m in enumerate(moves)]
    session.process_many(entries[:4])
    running = serve(session)
    try:
        yield running, entries[4:]
    finally:
        running.web.close()
        session.stop()


def view_of(served: Served, player: str) -> tuple[bytes, dict[str, object]]:
    status, _, body = served.get("/api" + player_link(served.web.app, player) + "/view")
    assert status == 200
    found = json.loads(body)
    assert isinstance(found, dict)
    return body, found


def test_each_player_gets_their_own_view_built_at_the_row_in_force(table: tuple[Served, list[Observation]]) -> None:
    served, later = table
    session = served.session
    players = session.header.players
    for _ in range(2):  # the second round is answered from what the first one built
        for player in players:
            _, found = view_of(served, player)
            assert found == {"player": player, "view": GAME.view(session.state, player), "board": session.board()}
    assert len({view_of(served, p)[0] for p in players}) == len(players)  # nobody is sent another's view
    before, _ = view_of(served, players[0])
    row = session.process(later[0])
    after, found = view_of(served, players[0])
    assert after != before and found["board"] == session.board() and session.board()["seq"] == row.seq
    assert found["view"] == GAME.view(session.state, players[0])


def test_a_health_report_is_on_the_next_board_without_a_row(table: tuple[Served, list[Observation]]) -> None:
    served, _ = table
    first = served.get_json("/api/board")
    assert isinstance(first, dict) and "camera" not in first["health"]
    served.session.report_health("camera", {"status": "ok", "frames": 1})
    served.session.report_health("camera", {"status": "ok", "frames": 2})  # no new row: the same status
    board = served.get_json("/api/board")
    assert isinstance(board, dict) and board["health"]["camera"]["frames"] == 2 and board == served.session.board()
    _, found = view_of(served, served.session.header.players[0])
    assert found["board"] == board


def test_an_open_page_finds_its_next_offer_built_when_the_row_lands(table: tuple[Served, list[Observation]]) -> None:
    served, later = table
    session = served.session
    player = session.header.players[0]
    path = "/api" + player_link(served.web.app, player) + "/offer"

    def counts() -> dict[str, int]:
        found = served.get_json("/healthz")
        assert isinstance(found, dict)
        return dict(found["offers"])

    stream = SSEReader(served.port)  # a page is open
    try:
        assert served.get(path)[0] == 200  # the page asks for its builder's first offer
        before = counts()
        row = session.process(later[0])
        deadline = time.monotonic() + 10
        while counts()["warmed"] == before["warmed"] and time.monotonic() < deadline:
            time.sleep(0.02)
        warmed = counts()
        assert warmed["warmed"] == before["warmed"] + 1
        status, _, body = served.get(path)
        assert status == 200 and counts()["built"] == warmed["built"]  # answered, not built again
        state, seq = session.snapshot()
        assert seq == row.seq
        assert json.loads(body) == {**offer(GAME, state, session.header.players, player, Draft(by=player)), "seq": seq}
    finally:
        stream.close()


def test_a_cookie_changed_after_it_was_verified_is_not_taken(table: tuple[Served, list[Observation]]) -> None:
    served, _ = table
    referee = Browser(served.port)
    assert referee.login("123456").status == 303
    assert referee.get("/api/referee/view").status == 200
    assert referee.get("/api/referee/view").status == 200  # the cookie verified once is known
    cookie = next(c for c in referee.jar if c.name == "session")
    genuine = cookie.value
    assert genuine is not None
    cookie.value = genuine[:-2] + ("AA" if genuine[-2:] != "AA" else "BB")
    assert referee.get("/api/referee/view").status == 401
    cookie.value = genuine
    assert referee.get("/api/referee/view").status == 200
    served.web.app.config["PERMANENT_SESSION_LIFETIME"] = -1  # seconds: every signature is too old now
    assert referee.get("/api/referee/view").status == 401
