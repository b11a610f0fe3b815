"""Issue 22, the outside HTTP client's findings: the builder records what the player did, over real HTTP.

Each test plays a real game up to the position the client met, serves it with the real waitress
server, and taps the way a page does: it asks ``/offer`` with a draft, taps only what the offer shows
(a value, "Done", "show every value"), and sends the move the offer finishes, never one of its own.
"""

from __future__ import annotations

import json
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from companion.core import Move, Observation, ObservationKind
from companion.games import get_game, get_spec
from companion.games.escape_house.cards import DECK_KINDS, Kind, alike
from companion.games.everest.moves import EndRound
from companion.games.everest.rounds import coins_to_set_aside
from tests.serving import Served, served_game
from tests.web.client import Browser, Client
from web.limits import LINK_RATE, Buckets, limits
from web.links import player_link

PIN = "123456"


@contextmanager
def game_at(tmp_path: Path, game_id: str, seed: int, stop: Any) -> Iterator[tuple[Served, list[Move], int]]:
    """A seeded playout of ``game_id``, served after its moves before the first one ``stop(state, move)``
    picks: the server, the moves, and the index of the picked one."""
    game = get_game(game_id)
    header, moves = get_spec(game_id).playout(seed, 400, 0)
    state = game.new_state(header)
    at = None
    for n, move in enumerate(moves):
        if stop(state, move):
            at = n
            break
        _, state = game.play(state, move)
    assert at is not None, "the playout never reaches the position"
    with served_game(tmp_path / f"{game_id}.sqlite", game, header) as served:
        for move in moves[:at]:
            row = served.session.process(Observation("test", 100.0, ObservationKind.MOVE, game.codec.to_json(move)))
            assert row.verdict is not None and row.verdict["ok"], row
        assert served.session.state == state
        yield served, moves, at


def offer(b: Browser, path: str, draft: dict[str, Any]) -> dict[str, Any]:
    answer = b.get(path + ("&" if "?" in path else "?") + "draft=" + urllib.parse.quote(json.dumps(draft)))
    assert answer.status == 200, answer.text
    body = answer.json()
    assert isinstance(body, dict)
    return body


def values(step: dict[str, Any]) -> list[Any]:
    return [c["value"] for c in step["choices"]]


def referee(served: Served) -> Browser:
    b = Browser(served.port)
    assert b.login(PIN).status == 303
    return b


def sent(served: Served, b: Browser, path: str, move: dict[str, Any]) -> dict[str, Any]:
    """POST the move the offer finished; the row the log wrote for it (judged, legal or not)."""
    answer = b.post_json(path, {"move": move}, b.csrf())
    assert answer.status in (200, 409), answer.text
    row = served.session.log.row(served.session.log.last_seq)
    assert row is not None and row.move is not None
    return {k: v for k, v in row.move.items() if k != "t"}


# -- Everest: each yeti sets aside its own coins ---------------------------------------------------


def _two_hurt(state: Any, move: Move) -> bool:
    """An end of round where two yetis must set a coin aside and both still hold the blank."""
    hurt = [s for s in range(len(state.players)) if coins_to_set_aside(state, s, False) > 0]
    return move.verb == "end_round" and len(hurt) >= 2 and all("blank" not in state.aside_known[s] for s in hurt)


def test_a_coin_one_yeti_set_aside_is_still_offered_to_the_next(tmp_path: Path) -> None:
    game = get_game("everest")
    with game_at(tmp_path, "everest", 0, _two_hurt) as (served, _, _):
        state = served.session.state
        hurt = {p: coins_to_set_aside(state, s, False) for s, p in enumerate(state.players) if coins_to_set_aside(state, s, False) > 0}
        first, second = list(hurt)[:2]
        ref = referee(served)
        path = "/api/referee/offer"
        draft: dict[str, Any] = {"verb": "end_round", "fields": {"heal": []}, "closed": ["heal"]}
        built: dict[str, list[str]] = {}
        for player in (first, second):
            whose = offer(ref, path, draft)["next"]
            assert whose["per_player"] and whose["key"] is None and player in values(whose)
            built[player] = []
            draft["fields"]["set_aside"] = {**built}
            for _ in range(hurt[player]):
                step = offer(ref, path, draft)["next"]
                assert step["key"] == player
                # every coin of this yeti's own set not named for it yet: the blank another yeti set aside too
                taken = set(built[player])
                assert set(values(step)) == {c for c in ("ace", "2", "3", "4", "5", "blank") if c not in taken}
                coin = "blank" if "blank" not in taken else next(v for v in values(step) if v not in taken)
                built[player].append(coin)
                draft["fields"]["set_aside"] = {k: list(v) for k, v in built.items()}
            draft["closed"].append(f"set_aside/{player}")
        draft["closed"].append("set_aside")
        done = offer(ref, path, draft)
        assert done["move"] is not None and done["legal"] is True
        assert done["move"]["set_aside"] == built and all("blank" in v for v in built.values())
        assert sent(served, ref, "/api/referee/move", done["move"]) == {"do": "end_round", "heal": [], "set_aside": built}
        last = served.session.log.row(served.session.log.last_seq)
        assert last is not None and last.verdict is not None and last.verdict["ok"]
        entered = game.codec.from_json(done["move"])
        assert isinstance(entered, EndRound) and entered.set_aside == {k: tuple(v) for k, v in built.items()}


# -- Everest: an order of any length ----------------------------------------------------------------


def _order(state: Any, move: Move) -> bool:
    return move.verb == "order"


def _tap_order(served: Served, length: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """The chooser taps an order of ``length`` entries, "show every value" once none is left: the
    offer that finished it, and the row the log wrote."""
    state = served.session.state
    chooser = state.players[state.need.chooser]
    phone = Browser(served.port)
    path = f"/api{player_link(served.web.app, chooser)}"
    seen = [state.players[s] for s in state.need.seats]
    draft: dict[str, Any] = {"verb": "order", "fields": {}, "closed": []}
    tapped: list[str] = []
    while len(tapped) < length:
        step = offer(phone, path + "/offer", draft)
        assert step["move"] is None, f"the order was sent after {len(tapped)} taps"
        nxt = step["next"]
        assert nxt["field"] == "sequence" and nxt["so_far"] == tapped and nxt["can_finish"]
        want = seen[len(tapped) % len(seen)]
        if want not in values(nxt):
            assert nxt["hidden_choices"] > 0 and not draft.get("every")
            draft["every"] = True
            continue
        tapped.append(want)
        draft["fields"]["sequence"] = list(tapped)
    step = offer(phone, path + "/offer", draft)
    assert step["move"] is None and step["next"]["can_finish"], "nothing is sent until Done"
    draft["closed"] = ["sequence"]
    done = offer(phone, path + "/offer", draft)
    assert done["move"] == {"by": chooser, "do": "order", "sequence": tapped}
    return done, sent(served, phone, path + "/move", done["move"])


def test_a_five_entry_order_is_sent_with_its_five_entries(tmp_path: Path) -> None:
    with game_at(tmp_path, "everest", 0, _order) as (served, _, _):
        done, row = _tap_order(served, 5)
        assert done["legal"] is False and row["sequence"] == done["move"]["sequence"] and len(row["sequence"]) == 5
        last = served.session.log.row(served.session.log.last_seq)
        assert last is not None and last.verdict is not None and not last.verdict["ok"]


def test_a_one_entry_order_can_be_finished(tmp_path: Path) -> None:
    with game_at(tmp_path, "everest", 0, _order) as (served, _, _):
        done, row = _tap_order(served, 1)
        assert done["legal"] is False and len(row["sequence"]) == 1


def test_a_whole_order_waits_for_done_and_is_legal(tmp_path: Path) -> None:
    with game_at(tmp_path, "everest", 0, _order) as (served, _, _):
        seats = len(served.session.state.need.seats)
        done, row = _tap_order(served, seats)
        assert done["legal"] is True and len(row["sequence"]) == seats
        last = served.session.log.row(served.session.log.last_seq)
        assert last is not None and last.verdict is not None and last.verdict["ok"]


# -- Escape House: any card of the game, on purpose ------------------------------------------------


def _a_play(state: Any, move: Move) -> bool:
    return move.verb == "play"


def test_a_puzzle_or_penalty_card_is_played_on_purpose_through_every_value(tmp_path: Path) -> None:
    with game_at(tmp_path, "escape-house", 0, _a_play) as (served, moves, at):
        state = served.session.state
        player = moves[at].by
        assert player is not None
        phone = Browser(served.port)
        path = f"/api{player_link(served.web.app, player)}"
        draft: dict[str, Any] = {"verb": "play", "fields": {}}
        step = offer(phone, path + "/offer", draft)["next"]
        assert step["field"] == "card" and set(values(step)) <= set(state.hands[player])
        assert step["hidden_choices"] > 0
        draft["every"] = True
        every = offer(phone, path + "/offer", draft)["next"]
        kinds = {state.cards.kind_of(v) for v in values(every)}
        # Any card of the game, its identical copies one button counting them (issue 22, HIGH 1).
        twins = alike(state.cards)
        first = {card: twins.get(card, (card,))[0] for card in state.cards.cards}
        assert {first[v] for v in values(every)} == set(first.values()), "every value is any card of the game"
        assert sum(c.get("count", 1) for c in every["choices"]) == len(state.cards.cards)
        assert {Kind.MAIN, Kind.SIDE, Kind.PENALTY, Kind.CLOCK} <= kinds and DECK_KINDS <= kinds
        for kind in (Kind.SIDE, Kind.PENALTY):
            card = next(v for v in values(every) if state.cards.kind_of(v) is kind)
            draft["fields"] = {"card": card}
            target = offer(phone, path + "/offer", draft)["next"]
            assert target["field"] == "target"
            draft["fields"]["target"] = values(target)[0]
            done = offer(phone, path + "/offer", draft)
            assert done["move"] is not None and done["move"]["card"] == card and done["legal"] is False
            answer = phone.post_json(path + "/move", {"move": done["move"]}, phone.csrf())
            assert answer.status == 409, answer.text  # judged and refused: a row, not a 400
            row = served.session.log.row(served.session.log.last_seq)
            assert row is not None and row.move is not None and row.move["card"] == card
            assert row.verdict is not None and not row.verdict["ok"]


# -- Retry-After is the truth -----------------------------------------------------------------------


class Clock:
    """The player link bucket's clock, moved by the test: "waiting" is exact, whatever the machine's load."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.mark.parametrize("late", [0.0, 0.9995, 0.5])
def test_a_client_that_waits_exactly_retry_after_gets_through(served: Served, late: float) -> None:
    """A phone on the Wi-Fi (not the Pi's loopback) spends its player link's burst, then keeps
    entering moves, waiting exactly the ``Retry-After`` of each refusal: every such retry is answered,
    also when a refusal came just before a token was due (``late``: how far into the next second)."""
    clock = Clock()
    limits(served.web.app).link = Buckets(LINK_RATE, clock)
    phone = Client(served.port, "127.0.0.9")
    _, _, body = phone.request("GET", "/api/whoami")
    csrf = json.loads(body)["csrf"]
    path = f"/api{player_link(served.web.app, 'anna')}/move"

    def move() -> tuple[int, dict[str, str]]:
        status, headers, _ = phone.request(
            "POST", path, json.dumps({"move": {"do": "peek", "card": "QS"}}).encode(),
            {"Content-Type": "application/json", "X-CSRF-Token": csrf},
        )
        return status, headers

    assert [move()[0] for _ in range(int(LINK_RATE.burst))] == [200] * int(LINK_RATE.burst)
    clock.now += late
    status, headers = move()
    assert status == 429
    for _ in range(5):
        wait = int(headers["Retry-After"])
        assert wait >= 1
        clock.now += wait
        status, _ = move()
        assert status == 200, "waited exactly Retry-After and was refused"
        status, headers = move()  # straight on: refused again, with a new Retry-After
        assert status == 429
    # A client that hammers on while refused stays refused: its early retries cost.
    for _ in range(30):
        status, headers = move()
    clock.now += 1.5
    assert move()[0] == 429
