"""The referee console and player views over real HTTP: PIN, rate limit, CSRF, tokens, URL map."""

from __future__ import annotations

import pytest

from tests.web.client import Browser, player_links
from tests.serving import Served

PIN = "123456"


def test_wrong_pins_are_refused_then_rate_limited(served: Served) -> None:
    b = Browser(served.port)
    for _ in range(5):
        assert b.login("000000").status == 403
    locked = b.login(PIN)  # even the right PIN waits out the lock-out
    assert locked.status == 429 and "try again in" in locked.text
    assert b.get("/api/referee/view").status == 401


def test_the_pin_opens_the_console_and_moves_go_through_the_session(served: Served) -> None:
    b = Browser(served.port)
    bounced = b.request("GET", "/referee", None, {"Accept": "text/html"})  # a browser is sent to the PIN form, and back after it
    assert bounced.status == 303 and bounced.headers["Location"].endswith("/referee/login?next=/referee")
    assert b.get("/api/referee/view").status == 401  # an API client gets the JSON answer
    ok = b.login(PIN)
    assert ok.status == 303
    console = b.get("/referee")
    assert console.status == 200 and "Enter a move" in console.text
    csrf = b.csrf()
    legal = b.post_json("/api/referee/move", {"move": {"by": "anna", "do": "take", "n": 2}}, csrf)
    assert legal.status == 200
    illegal = b.post_json("/api/referee/move", {"move": {"by": "anna", "do": "take", "n": 1}}, csrf)
    assert illegal.status == 409
    body = illegal.json()
    assert isinstance(body, dict) and body["row"]["verdict"]["rules"] == ["TOY-TURN"]
    malformed = b.post_json("/api/referee/move", {"move": {"by": "ben", "do": "take", "n": "lots"}}, csrf)
    assert malformed.status == 422
    assert b.post_json("/api/referee/move", ["not", "an", "object"], csrf).status == 400
    undo = b.post_json("/api/referee/undo", {}, csrf)
    assert undo.status == 200
    assert served.session.board()["scoreboard"]["left"] == 7
    kinds = [r.kind for r in served.session.log.rows()]
    assert kinds == ["header", "move", "move", "move", "undo"]  # every entry is a log row


def test_state_changes_need_the_csrf_token_and_this_origin(served: Served) -> None:
    b = Browser(served.port)
    b.login(PIN)
    move = {"move": {"by": "anna", "do": "take", "n": 1}}
    assert b.post_json("/api/referee/move", move).status == 403
    assert b.post_json("/api/referee/move", move, "forged").status == 403
    evil = b.post_json("/api/referee/move", move, b.csrf(), {"Origin": "http://evil.example"})
    assert evil.status == 403 and "cross-site" in evil.text
    assert served.session.log.last_seq == 1


def test_player_links_show_only_that_players_view(served: Served) -> None:
    b = Browser(served.port)
    b.login(PIN)
    links = player_links(b.get("/referee").text)
    assert set(links) == {"anna", "ben"}
    phone = Browser(served.port)
    page = phone.get(links["anna"])
    assert page.status == 200
    csrf = phone.csrf()
    assert phone.post_json(links["anna"].replace("/p/", "/api/p/") + "/move", {"move": {"do": "peek", "card": "QS"}}, csrf).status == 200
    view = phone.get(links["anna"].replace("/p/", "/api/p/") + "/view").json()
    assert isinstance(view, dict) and view["view"]["secrets"] == ["QS"]
    ben_view = phone.get(links["ben"].replace("/p/", "/api/p/") + "/view").json()
    assert isinstance(ben_view, dict) and ben_view["view"]["secrets"] == []
    spoof = phone.post_json(links["anna"].replace("/p/", "/api/p/") + "/move", {"move": {"by": "ben", "do": "take", "n": 1}}, csrf)
    assert spoof.status == 403
    assert phone.get("/p/anna/" + "0" * 24).status == 404
    assert phone.get("/api/p/mallory/" + "0" * 24 + "/view").status == 404
    assert "QS" not in phone.get("/api/board").text


def _is_private(rule: str) -> bool:
    return rule.startswith(("/referee", "/api/referee", "/p/", "/api/p/")) and rule != "/referee/login"


def test_every_state_changing_or_private_endpoint_is_guarded(served: Served) -> None:
    """Walk the URL map: nothing private or state-changing answers a stranger."""
    app = served.web.app
    stranger = Browser(served.port)
    checked = 0
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        path = rule.rule
        for arg in rule.arguments:
            path = path.replace(f"<{arg}>", "anna" if arg == "player" else "1").replace(f"<int:{arg}>", "1")
        methods = set(rule.methods or ()) - {"HEAD", "OPTIONS"}
        for method in methods:
            if method == "GET" and not _is_private(rule.rule):
                continue
            if rule.rule == "/referee/login" and method == "POST":
                continue  # the door itself: tested above (CSRF, PIN, rate limit)
            answer = stranger.request(method, path, b"{}", {"Content-Type": "application/json"})
            assert answer.status in (401, 403, 404), f"{method} {rule.rule} answered {answer.status}"
            checked += 1
    assert checked >= 8
    assert served.session.log.last_seq == 1


@pytest.mark.parametrize("path", ["/", "/big", "/log", "/qr.svg", "/api/board", "/api/log/1", "/healthz", "/referee/login"])
def test_public_pages_answer(served: Served, path: str) -> None:
    answer = Browser(served.port).get(path)
    assert answer.status == 200, path


def test_qr_code_encodes_this_address(served: Served) -> None:
    answer = Browser(served.port).get("/qr.svg")
    assert answer.headers["Content-Type"].startswith("image/svg+xml")
    assert b"<svg" in answer.body


def test_dispute_detail_has_states_rules_and_competing_plays(served: Served) -> None:
    from tests.conftest import move

    served.session.process(move({"by": "anna", "do": "take", "n": 2}, t=50.000))
    served.session.process(move({"by": "anna", "do": "take", "n": 1}, t=50.004))
    detail = Browser(served.port).get("/api/log/3").json()
    assert isinstance(detail, dict)
    assert detail["before"] == {"left": 5, "turn": "ben"} and detail["after"] == detail["before"]
    assert detail["rules"][0]["id"] == "TOY-TURN" and detail["rules"][0]["passage"] == "Players take turns."
    assert [c["seq"] for c in detail["competing"]] == [2]
    assert "before_full" not in detail
    assert Browser(served.port).get("/api/log/99").status == 404


def test_the_login_page_does_not_say_offline(served: Served) -> None:
    """Issue 22 (LOW): the PIN page has no live stream, so it shows no live badge stuck on "offline"."""
    status, _, body = served.get("/referee/login")
    page = body.decode()
    assert status == 200 and 'name="pin"' in page
    assert 'id="live"' not in page and "offline" not in page
    status, _, body = served.get("/")
    assert status == 200 and 'id="live"' in body.decode()  # pages that stream still have it
