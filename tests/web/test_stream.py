"""The live stream through the real app: a real server, a real HTTP client reading events."""

from __future__ import annotations

import json

from companion.core import ObservationKind
from tests.conftest import move
from tests.serving import Served, SSEReader


def test_a_new_stream_starts_with_the_board_and_follows_moves(served: Served) -> None:
    reader = SSEReader(served.port)
    try:
        board = json.loads(reader.next_named("board")["data"])
        assert board["scoreboard"] == {"left": 7, "turn": "anna"}
        served.session.submit(move({"by": "anna", "do": "take", "n": 2})).result(5)
        row = reader.next_named("row")
        assert row["id"] == "2"
        assert json.loads(row["data"])["verdict"] == {"ok": True}
        board = json.loads(reader.next_named("board")["data"])
        assert board["scoreboard"] == {"left": 5, "turn": "ben"}
    finally:
        reader.close()


def test_a_dropped_stream_resumes_from_last_event_id_without_missing_a_move(served: Served) -> None:
    reader = SSEReader(served.port)
    reader.next_named("board")
    served.session.submit(move({"by": "anna", "do": "take", "n": 1})).result(5)
    last_id = reader.next_named("row")["id"]
    reader.close()  # the phone walks out of wifi range ...
    for payload in ({"by": "ben", "do": "take", "n": 1}, {"by": "ben", "do": "take", "n": 1}, {"by": "anna", "do": "take", "n": 1}):
        served.session.submit(move(payload)).result(5)
    again = SSEReader(served.port, headers={"Last-Event-ID": last_id})  # ... and comes back
    try:
        seen = [again.next_named("row") for _ in range(3)]
        assert [e["id"] for e in seen] == ["3", "4", "5"]
        verdicts = [json.loads(e["data"])["verdict"]["ok"] for e in seen]
        assert verdicts == [True, False, True]
        board = json.loads(again.next_named("board")["data"])
        assert board["scoreboard"]["left"] == 4
    finally:
        again.close()


def test_a_bad_last_event_id_is_refused(served: Served) -> None:
    status, _, body = served.get("/events", {"Last-Event-ID": "'; drop table rows"})
    assert status == 400 and b"row number" in body


def test_hidden_fields_never_reach_the_stream(served: Served) -> None:
    reader = SSEReader(served.port)
    try:
        reader.next_named("board")
        served.session.submit(move({"by": "anna", "do": "peek", "card": "QS"})).result(5)
        row = reader.next_named("row")
        assert "QS" not in row["data"]
        assert json.loads(row["data"])["move"]["do"] == "peek"
    finally:
        reader.close()


def test_pages_and_log_api(served: Served) -> None:
    served.session.process(move({"by": "anna", "do": "take", "n": 5}))
    served.session.process(move({"by": "anna", "do": "take", "n": 1}))
    status, headers, body = served.get("/")
    assert status == 200 and b"Take-away" in body
    assert "default-src 'self'" in headers["Content-Security-Policy"]
    assert b"<script src=\"/static/scoreboard.js\">" in body
    log = served.get_json("/api/log")
    assert isinstance(log, dict)
    kinds = [r["kind"] for r in log["rows"]]
    assert kinds == ["header", "move", "move"]
    illegal = served.get_json("/api/log?illegal=1")
    assert isinstance(illegal, dict)
    assert [r["verdict"]["rules"] for r in illegal["rows"]] == [["TOY-MOST"]]
    rules = served.get_json("/api/rules")
    assert isinstance(rules, dict) and {r["id"] for r in rules["rules"]} == {"TOY-TURN", "TOY-MOST", "TOY-LEFT"}
    assert served.get("/api/log?after=abc")[0] == 400
    assert served.get("/api/log?player=mallory")[0] == 400
    status, _, body = served.get("/static/games.js")
    assert status == 200 and b"TC.games" in body
    # The game's panel comes from its own package, and the page loads it by the registry, not by a list.
    status, _, body = served.get("/panels/toy/panel.js")
    assert status == 200 and b'TC.games.register("toy"' in body
    status, _, page = served.get("/")
    assert b'src="/panels/toy/panel.js"' in page and b'href="/panels/toy/panel.css"' in page
    # Nothing else of a game's package is reachable: only panel.js and panel.css, of a known game.
    for path in ("/panels/toy/__init__.py", "/panels/toy/GAME.md", "/panels/toy/..%2f__init__.py", "/panels/nope/panel.js"):
        assert served.get(path)[0] == 404, path


def test_notes_reach_the_stream(served: Served) -> None:
    reader = SSEReader(served.port)
    try:
        reader.next_named("board")
        served.session.report_health("array", {"status": "down"})
        row = json.loads(reader.next_named("row")["data"])
        assert row["kind"] == ObservationKind.NOTE.value and row["note"]["status"] == "down"
    finally:
        reader.close()
