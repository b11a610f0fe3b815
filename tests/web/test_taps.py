"""Entry by tapping over real HTTP: the builder's offers, crafted drafts, and take back.

An Escape Master table (four players, everyone plays at once) is served by the real waitress
server; players use their own links, the referee logs in with the PIN.
"""

from __future__ import annotations

import json
import urllib.parse
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.core import Header, Move, Observation, ObservationKind
from companion.entry.builder import Builder, Draft, offer
from companion.core.errors import NotationError
from companion.games import game_ids, get_game, specs
from companion.games.escape_master.playout import random_playout
from companion.log.store import GameLog
from companion.referee.session import Session
from tests.conftest import StepClock
from tests.serving import Served, serve
from tests.web.client import Answer, Browser
from web.links import links

PIN = "123456"
GAME = get_game("escape-master")


class Table:
    def __init__(self, served: Served, header: Header, moves: list[Move]) -> None:
        self.served, self.header, self.moves = served, header, moves
        self.session = served.session
        self.links = links(served.web.app)

    def api(self, player: str, token_of: str | None = None) -> str:
        return f"/api/p/{player}/{self.links.token(token_of or player)}"

    def phone(self) -> Browser:
        return Browser(self.served.port)

    def referee(self) -> Browser:
        b = Browser(self.served.port)
        assert b.login(PIN).status == 303
        return b

    def hand(self, player: str) -> list[str]:
        return list(GAME.view(self.session.state, player)["hand"])

    def feed(self, move: Move) -> None:
        self.session.process(Observation("test", 100.0, ObservationKind.MOVE, GAME.codec.to_json(move)))


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    header, moves = random_playout(3, max_moves=12)
    session = Session(GAME, GameLog(tmp_path / "taps.sqlite"), header, clock=StepClock())
    running = serve(session)
    t = Table(running, header, moves)
    t.feed(moves[0])  # Start!: the round is under way
    try:
        yield t
    finally:
        running.web.close()
        session.stop()


def draft_query(draft: Any, raw: bool = False) -> str:
    return "?draft=" + urllib.parse.quote(draft if raw else json.dumps(draft))


# -- offers ---------------------------------------------------------------------------------------


def test_offers_answer_with_the_engines_verbs(table: Table) -> None:
    phone, referee = table.phone(), table.referee()
    every_verb = set(GAME.codec.by_verb)
    for player in table.header.players:
        answer = phone.get(table.api(player) + "/offer")
        assert answer.status == 200 and answer.headers["Cache-Control"] == "no-store"
        body = answer.json()
        assert isinstance(body, dict) and body["by"] == player and body["seq"] == table.session.log.last_seq
        legal = {m["do"] for m in Builder(GAME, table.session.state, table.header.players, player).legal(player)}
        assert {v["verb"] for v in body["verbs"]} == every_verb
        assert {v["verb"] for v in body["verbs"] if v["legal"]} == legal and legal
        ref = referee.get(f"/api/referee/offer?by={player}").json()
        # the referee sees every hand: a Draw! call a player's page offers may be refused here
        seen_all = {m["do"] for m in Builder(GAME, table.session.state, table.header.players, None).legal(player)}
        assert isinstance(ref, dict) and {v["verb"] for v in ref["verbs"] if v["legal"]} == seen_all
        assert seen_all <= legal and legal - seen_all <= {"call_draw"}
    table_offer = referee.get("/api/referee/offer").json()  # by nobody: the table's own moves
    assert isinstance(table_offer, dict) and table_offer["by"] is None
    assert referee.get("/api/referee/offer?by=mallory").status == 400
    assert phone.get("/api/referee/offer").status == 401
    assert table.session.log.last_seq == 2, "an offer changes nothing"


def test_a_players_offer_needs_their_own_token(table: Table) -> None:
    phone = table.phone()
    anna, ben = table.header.players[:2]
    assert phone.get(table.api(anna, token_of=ben) + "/offer").status == 404
    assert phone.get(f"/api/p/{anna}/{'0' * 24}/offer").status == 404
    assert phone.get(table.api(anna, token_of=ben) + "/take-back").status == 404


CRAFTED = {
    "malformed JSON": ("{", True, 400),
    "not an object": ("[1, 2]", True, 400),
    "a string": ('"play"', True, 400),
    "verb not a string": ({"verb": 5}, False, 400),
    "unknown verb": ({"verb": "fly"}, False, 400),
    "unknown field": ({"verb": "play", "fields": {"wings": 2}}, False, 400),
    "fields not an object": ({"verb": "play", "fields": ["card"]}, False, 400),
    "closed not a list": ({"verb": "play", "closed": "cards"}, False, 400),
    "focus not a card": ({"focus": {"card": 1}}, False, 400),
    "one value where a list goes": ({"verb": "discard_special", "fields": {"cards": "x"}}, False, 400),
    "a list where one value goes (finished)": ({"verb": "play", "fields": {"card": ["x"], "cards": None, "pile": "new"}}, False, 400),
    "a mapping with non-list values": ({"verb": "deal", "fields": {"hands": {"anna": "x"}}}, False, 400),
    "neither card nor cards": ({"verb": "play", "fields": {"card": None, "cards": None, "pile": "new"}}, False, 400),
    "a 5 KB draft": ({"verb": "play", "fields": {"card": "x" * 5000}}, False, 413),
    "deep nesting": ('{"verb": "play", "fields": {"card": ' + "[" * 600 + "]" * 600 + "}}", True, 400),
}


@pytest.mark.parametrize("case", sorted(CRAFTED))
def test_crafted_drafts_get_one_clear_4xx(table: Table, case: str) -> None:
    draft, raw, status = CRAFTED[case]
    phone, referee = table.phone(), table.referee()
    anna = table.header.players[0]
    for b, path in ((phone, table.api(anna) + "/offer"), (referee, f"/api/referee/offer?by={anna}&")):
        query = draft_query(draft, raw)
        answer = b.get(path + (query if "?" not in path else query[1:]))
        assert answer.status == status, (case, answer.status, answer.text)
        assert answer.headers["Content-Type"].startswith("text/plain") and answer.text.strip().count("\n") == 0
        assert "Traceback" not in answer.text
    assert table.session.log.last_seq == 2


def test_a_card_that_has_left_the_hand_is_refused_by_the_engine(table: Table) -> None:
    """A move built on a card, sent after that card was played: the engine's ordinary 409 refusal."""
    phone = table.phone()
    csrf = phone.csrf()
    anna = table.header.players[0]
    play = _legal_play(table, anna)
    card = card_of(play)
    draft = {"verb": "play", "fields": {"card": card, "cards": None, "pile": play["pile"]}}
    built = phone.get(table.api(anna) + "/offer" + draft_query(draft)).json()
    assert isinstance(built, dict) and built["move"] == play and built["legal"] is True
    assert phone.post_json(table.api(anna) + "/move", {"move": play}, csrf).status == 200
    assert card not in table.hand(anna)
    stale = phone.get(table.api(anna) + "/offer" + draft_query(draft)).json()
    assert isinstance(stale, dict) and stale["move"] == play and stale["legal"] is False  # written down; not legal now
    before, board = table.session.log.last_seq, table.session.board()
    again = phone.post_json(table.api(anna) + "/move", {"move": built["move"]}, csrf)
    assert again.status == 409, again.text
    body = again.json()
    assert isinstance(body, dict) and body["row"]["verdict"]["ok"] is False and body["row"]["verdict"]["why"]
    assert table.session.log.last_seq == before + 1 and table.session.board()["scoreboard"] == board["scoreboard"]


# -- take back ------------------------------------------------------------------------------------


def _legal_play(table: Table, player: str) -> dict[str, Any]:
    """A legal one-card play the builder proposes to ``player`` now."""
    legal = Builder(GAME, table.session.state, table.header.players, player).legal(player)
    return next(GAME.codec.to_json(GAME.codec.from_json(m)) for m in legal if m["do"] == "play" and "card" in m)


def test_a_player_takes_back_their_own_last_entry_until_another_is_judged(table: Table) -> None:
    anna, ben = table.header.players[:2]
    a, b = table.phone(), table.phone()
    ca, cb = a.csrf(), b.csrf()
    move = _legal_play(table, anna)
    assert a.post_json(table.api(anna) + "/move", {"move": move}, ca).status == 200
    seq = table.session.log.last_seq
    preview = a.get(table.api(anna) + "/take-back").json()
    assert isinstance(preview, dict) and preview["seq"] == seq and preview["move"]["do"] == "play" and preview["why"] is None
    theirs = b.get(table.api(ben) + "/take-back").json()
    assert isinstance(theirs, dict) and theirs["seq"] is None and "another entry" in theirs["why"]
    refused = b.post_json(table.api(ben) + "/take-back", {"seq": seq}, cb)  # not someone else's
    assert refused.status == 422 and table.session.log.last_seq == seq + 1
    # a refused take back is no move judged: anna's entry is still the last, and still hers to take back
    mine = a.get(table.api(anna) + "/take-back").json()
    assert isinstance(mine, dict) and mine["seq"] == seq
    # once another entry has been judged (even a refused one), it is not
    other = b.post_json(table.api(ben) + "/move", {"move": {"do": "withdraw", "card": table.hand(ben)[0]}}, cb)
    assert other.status == 409
    late = a.post_json(table.api(anna) + "/take-back", {"seq": seq}, ca)
    assert late.status == 422 and "another entry" in late.text
    stale = a.get(table.api(anna) + "/take-back").json()
    assert isinstance(stale, dict) and stale["seq"] is None and "another entry" in stale["why"]
    # the referee always can: the preview names the row, the undo takes it back
    ref = table.referee()
    last = table.session.applied()[-1]
    preview = ref.get("/api/referee/take-back").json()
    assert isinstance(preview, dict) and preview["seq"] == last.seq and preview["move"] == GAME.public_move(last.move)
    assert ref.post_json("/api/referee/undo", {"seq": last.seq}, ref.csrf()).status == 200
    assert table.session.applied()[-1].seq < last.seq


def card_of(move: dict[str, Any]) -> str:
    return str(move["card"])


def test_a_player_takes_back_own_entry(table: Table) -> None:
    anna = table.header.players[0]
    a = table.phone()
    csrf = a.csrf()
    move = _legal_play(table, anna)
    a.post_json(table.api(anna) + "/move", {"move": move}, csrf)
    seq = table.session.log.last_seq
    assert a.post_json(table.api(anna) + "/take-back", {}, csrf).status == 400  # the seq it was shown is required
    done = a.post_json(table.api(anna) + "/take-back", {"seq": seq}, csrf)
    assert done.status == 200 and card_of(move) in table.hand(anna)
    assert [r.kind for r in table.session.log.rows(after=seq)] == ["undo"]


def test_a_double_tapped_take_back_writes_one_row(table: Table) -> None:
    """Issue 22 (MEDIUM 8): "Yes, take it back" tapped twice, in a row or at once, takes back once and
    writes no second (empty) undo row; the repeat answers with the row that did it."""
    anna = table.header.players[0]
    a = table.phone()
    csrf = a.csrf()
    move = _legal_play(table, anna)
    assert a.post_json(table.api(anna) + "/move", {"move": move}, csrf).status == 200
    seq = table.session.log.last_seq
    first = a.post_json(table.api(anna) + "/take-back", {"seq": seq}, csrf)
    again = a.post_json(table.api(anna) + "/take-back", {"seq": seq}, csrf)
    assert first.status == 200 and again.status == 200, again.text
    done, repeat = first.json(), again.json()
    assert isinstance(done, dict) and isinstance(repeat, dict) and not done["repeat"] and repeat["repeat"]
    assert repeat["row"]["seq"] == done["row"]["seq"] == seq + 1
    assert [r.kind for r in table.session.log.rows(after=seq)] == ["undo"]
    # Two taps at once (two requests in flight): one row.
    assert a.post_json(table.api(anna) + "/move", {"move": _legal_play(table, anna)}, csrf).status == 200
    seq = table.session.log.last_seq
    with ThreadPoolExecutor(2) as pool:
        answers = list(pool.map(lambda _: a.post_json(table.api(anna) + "/take-back", {"seq": seq}, csrf), range(2)))
    assert [x.status for x in answers] == [200, 200]
    assert [r.kind for r in table.session.log.rows(after=seq)] == ["undo"]
    # The referee's console too.
    ref = table.referee()
    rcsrf = ref.csrf()
    table.feed(GAME.codec.from_json({**_legal_play(table, anna), "by": anna}))
    last = table.session.log.last_seq
    assert ref.post_json("/api/referee/undo", {"seq": last}, rcsrf).status == 200
    twice = ref.post_json("/api/referee/undo", {"seq": last}, rcsrf)
    assert twice.status == 200 and isinstance(twice.json(), dict) and twice.json()["repeat"]  # type: ignore[index]
    assert [r.kind for r in table.session.log.rows(after=last)] == ["undo"]


def test_after_a_refused_entry_take_back_says_so_and_a_stale_seq_changes_nothing(table: Table) -> None:
    anna = table.header.players[0]
    ref = table.referee()
    csrf = ref.csrf()
    applied = table.session.log.last_seq  # Start!, the one move in force
    bad = ref.post_json("/api/referee/move", {"move": {"by": anna, "do": "discard", "card": "no-such-card-1"}}, csrf)
    assert bad.status in (409, 422)
    bad = ref.post_json("/api/referee/move", {"move": {"by": anna, "do": "withdraw", "card": table.hand(anna)[0]}}, csrf)
    assert bad.status == 409
    refused = table.session.log.last_seq
    preview = ref.get("/api/referee/take-back").json()
    assert isinstance(preview, dict) and preview["refused"]["seq"] == refused and preview["seq"] == applied
    mine = table.phone().get(table.api(anna) + "/take-back").json()
    assert isinstance(mine, dict) and mine["seq"] is None and "refused" in mine["why"] and mine["refused"]["seq"] == refused
    state, board = table.session.state, table.session.board()
    stale = ref.post_json("/api/referee/undo", {"seq": refused}, csrf)
    assert stale.status == 422 and f"row {refused}" in stale.text and "no longer the last move in force" in stale.text
    assert table.session.state == state and table.session.board()["scoreboard"] == board["scoreboard"]
    assert table.session.log.last_seq == refused + 1  # the refusal is a row; nothing else changed


def test_nothing_changes_state_without_a_log_row(table: Table) -> None:
    """Every answer that changed the state came with a new row (offers and previews add none)."""
    anna, ben = table.header.players[:2]
    a, ref = table.phone(), table.referee()
    calls: list[Callable[[], Answer]] = [
        lambda: a.get(table.api(anna) + "/offer"),
        lambda: a.get(table.api(anna) + "/take-back"),
        lambda: ref.get(f"/api/referee/offer?by={ben}"),
        lambda: ref.get("/api/referee/take-back"),
        lambda: a.post_json(table.api(anna) + "/move", {"move": _legal_play(table, anna)}, a.csrf()),
        lambda: a.post_json(table.api(anna) + "/take-back", {"seq": table.session.log.last_seq}, a.csrf()),
        lambda: ref.post_json("/api/referee/undo", {"seq": table.session.log.last_seq}, ref.csrf()),
        lambda: ref.post_json("/api/referee/undo", {"seq": 1}, ref.csrf()),
    ]
    for call in calls:
        seq, state = table.session.log.last_seq, table.session.state
        answer: Answer = call()
        assert answer.status < 500
        if table.session.state != state:
            assert table.session.log.last_seq == seq + 1
    kinds = [r.kind for r in table.session.log.rows(after=2)]
    assert kinds == ["move", "undo", "undo", "undo"]


# -- random drafts ----------------------------------------------------------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 30) | st.sampled_from(["play", "new", "anna", "teen-5", "x", "hands", "card"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(["verb", "fields", "closed", "focus", "every", "card", "cards", "pile", "hands", "anna"]), inner, max_size=4),
    max_leaves=12,
)
DRAFTS = st.fixed_dictionaries(
    {},
    optional={
        "verb": st.sampled_from(sorted(GAME.codec.by_verb)) | JSON,
        "fields": st.dictionaries(st.sampled_from(["card", "cards", "pile", "hands", "target", "give", "take", "discard", "x"]), JSON, max_size=3) | JSON,
        "closed": st.lists(st.sampled_from(["cards", "hands", "hands/anna", "discard", "x"]), max_size=3) | JSON,
        "focus": JSON,
        "every": st.booleans(),
    },
) | JSON


_REFEREES: dict[int, Browser] = {}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(draft=DRAFTS)
def test_random_drafts_over_http_give_200_or_4xx(table: Table, draft: Any) -> None:
    anna = table.header.players[0]
    referee = _REFEREES.get(table.served.port) or _REFEREES.setdefault(table.served.port, table.referee())
    for b, path in ((table.phone(), table.api(anna) + "/offer"), (referee, f"/api/referee/offer?by={anna}&")):
        query = draft_query(draft)
        answer = b.get(path + (query if "?" not in path else query[1:]))
        assert answer.status == 200 or 400 <= answer.status < 500, (draft, answer.status, answer.text)


@pytest.mark.parametrize("game_id", game_ids())
@settings(max_examples=80, deadline=None)
@given(draft=DRAFTS)
def test_random_drafts_give_an_offer_or_a_notation_error(game_id: str, draft: Any) -> None:
    """Every registered game's builder, at the start of a seeded game, answers any draft with an offer
    or a notation error."""
    game = get_game(game_id)
    header = PLAYOUT_HEADERS[game_id]
    state = game.new_state(header)
    for viewer in (header.players[0], None):
        try:
            offer(game, state, header.players, viewer, Draft.from_json(draft, header.players[0]))
        except NotationError:
            pass


PLAYOUT_HEADERS: dict[str, Header] = {game_id: spec.playout(1, max_moves=1)[0] for game_id, spec in specs().items()}
