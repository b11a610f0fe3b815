"""Issue 15, item 1: a player's own link never learns where a card they do not hold is.

Over real HTTP against the real app: for every registered game (the toy game too), a game is played some way in (by the referee),
then hypothesis posts generated moves through every player's link, each carrying cards drawn from
the deck. For every answer:

- the verdict (and the public log row, and the dispute view of that row) names no card outside the
  actor's own view, the public board, the public log and the move the actor sent;
- two refusals of the same move on two cards hidden from the actor read the same once the card's
  name is masked: a refusal never tells a hand from the draw pile or one hand from another.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.core import Move, Observation, ObservationKind
from companion.games import game_ids, get_spec
from companion.log.store import GameLog
from companion.referee.session import Session
from tests.leakcheck import card_fields, card_universe, leaks, masked, strings, swap_cards
from tests.serving import Served, serve
from tests.web.client import Browser
from web.links import player_link

class Table:
    """One game, served, with its playout moves to draw templates from and a browser per player."""

    def __init__(self, served: Served, moves: list[Move]) -> None:
        self.served = served
        self.session = served.session
        self.game = served.session.game
        self.moves = moves
        self.players = served.session.header.players
        app = served.web.app
        app.config["RATE_LIMITS_OFF"] = True  # this test is about wording, not about floods
        self.links = {p: f"/api{player_link(app, p)}" for p in self.players}
        self.browsers = {p: Browser(served.port) for p in self.players}
        self.csrf = {p: b.csrf() for p, b in self.browsers.items()}

    def public_log(self) -> list[Any]:
        answer = self.browsers[self.players[0]].get("/api/log?limit=500&after=0")
        rows = answer.json()
        assert isinstance(rows, dict)
        return list(rows["rows"])

    def known_to(self, actor: str, universe: set[str]) -> set[str]:
        """What ``actor`` has seen: their view, the board, the public log, and every card the public
        log names in words. A refusal may cite a card that was face up when it was made ("half
        exposed by the JD at 6-3") and has been put away since: that was public when it was said,
        and every row was checked for leaks when it was written (the row of each post, below)."""
        view = self.browsers[actor].get(self.links[actor] + "/view").json()
        log = self.public_log()
        return set(strings([view, self.session.board(), log])) | set(leaks(json.dumps(log), universe))

    def post(self, actor: str, move: Move) -> tuple[int, dict[str, Any]]:
        payload = self.game.codec.to_json(move)
        answer = self.browsers[actor].post_json(self.links[actor] + "/move", {"move": payload}, self.csrf[actor])
        if not answer.headers.get("Content-Type", "").startswith("application/json"):
            return answer.status, {"text": answer.text}  # a plain refusal (403: not your move, 413, 429)
        body = answer.json()
        assert isinstance(body, dict), answer.text
        return answer.status, body


@pytest.fixture(scope="module", params=game_ids())
def table(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Table]:
    game_id = request.param
    spec = get_spec(game_id)
    header, moves = spec.playout(7, max_moves=120)
    game = spec.game
    path: Path = tmp_path_factory.mktemp(game_id) / "game.sqlite"
    game_log = GameLog(path)
    session = Session(game, game_log, header)
    # Some way into the game, as the referee, up to a moment when the next move is a player's with a
    # card: hands are dealt and cards are being played. The templates are the moves around then.
    universe = card_universe(game.deck(), game.view(game.new_state(header), None), header.players)
    cut = max(
        (i for i, m in enumerate(moves[: len(moves) // 2]) if m.by is not None and card_fields(m, universe)), default=0
    )
    for i, move in enumerate(moves[:cut]):
        session.process(Observation("web:referee", float(i), ObservationKind.MOVE, game.codec.to_json(move)))
    served = serve(session)
    yield Table(served, moves[cut : cut + 40] + moves[:: max(1, len(moves) // 20)])
    served.web.close()
    session.stop()
    game_log.close()


def _reply_texts(body: dict[str, Any]) -> str:
    row = body.get("row") or {}
    return json.dumps([row.get("verdict"), row.get("error"), row.get("alert"), body.get("text")])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_no_answer_locates_a_card_the_actor_does_not_hold(table: Table, data: st.DataObject) -> None:
    game, session = table.game, table.session
    actor = data.draw(st.sampled_from(table.players), label="actor")
    template = data.draw(st.sampled_from(table.moves), label="template")
    rng = random.Random(data.draw(st.integers(0, 2**32), label="seed"))
    template = template.replace(by=actor) if template.by is not None else template
    full = game.view(session.state, None)
    universe = card_universe(game.deck(), full, table.players)
    known = table.known_to(actor, universe)
    hidden = universe - known
    on_hidden = len(hidden) >= 2 and bool(card_fields(template, universe))
    pool = sorted(hidden) if on_hidden else sorted(universe)
    answers = []
    for _ in range(2):
        try:
            attempt = swap_cards(template, pool, rng)
        except ValueError:  # a card of the wrong kind for this field: the codec refuses it, no verdict
            return
        sent = set(strings(game.codec.to_json(attempt), keys=False))
        seq_before = session.log.last_seq
        status, body = table.post(actor, attempt)
        text = _reply_texts(body)
        assert not leaks(text, hidden - sent), (actor, attempt, text)
        if session.log.last_seq > seq_before:  # the same row as everyone sees it, and its dispute view
            seq = session.log.last_seq
            dispute = table.browsers[actor].get(f"/api/log/{seq}").text
            assert not leaks(dispute, hidden - sent - set(strings(json.loads(dispute).get("after")))), dispute
        verdict = (body.get("row") or {}).get("verdict") or {}
        if status == 409 and verdict and not verdict.get("ok"):
            # A refusal names a card as a person does (a copy as the card: "Escape + discard"): every such
            # name is masked alike in both answers.
            spoken = {game.card_name(session.state, c) for c in universe} - universe
            answers.append((verdict.get("rules"), masked(verdict.get("why", "") + "|" + verdict.get("fix", ""), sent | spoken)))
        else:
            return  # a legal move changed the state: the two answers no longer compare
        full = game.view(session.state, None)
        universe = card_universe(game.deck(), full, table.players)
        hidden = universe - table.known_to(actor, universe)
    if on_hidden and len(answers) == 2:
        assert answers[0] == answers[1], (actor, template, answers)
