"""Issue 26, hole 3, over real HTTP: one player link asking for offers as fast as it can.

An Escape House table whose discard pile holds 21 cards or more, where ben may draw from it: the
offers of that draw were the dearest of all (3,000 draws judged for each). The attack asks ben's
link for offers in a tight loop, each with another draft so that no answer can come from the cache,
while another address reads the public board. Now the link's offers stop at the burst with 429 and a
Retry-After that is true (asking again that much later is answered), the board is answered all along,
and another player's link is not held back. The offer cache answers a repeated offer with what a
fresh build gives, until a new row.
"""

from __future__ import annotations

import json
import threading
import time
import urllib.parse
from collections.abc import Iterator
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest

from companion.core import Header, Move, Observation, ObservationKind
from companion.entry.builder import Draft, offer
from companion.games import get_spec
from companion.games.escape_house.entry import may_draw_discard
from companion.log.store import GameLog
from companion.referee.session import Session
from tests.conftest import StepClock
from tests.serving import Served, serve
from tests.web.client import Browser, Client
from web import limits as L
from web.links import player_link
from web.offers import OfferCache, OfferKey

SPEC = get_spec("escape-house")
GAME = SPEC.game


def a_big_pile() -> tuple[Header, list[Move], str]:
    """The first playout state with 21 cards or more on the discard pile and a player who may draw."""
    for seed in range(100):
        header, moves = SPEC.playout(seed)
        state = GAME.new_state(header)
        for n, move in enumerate(moves, start=1):
            _, state = GAME.play(state, move)
            drawers = [p for p in header.players if p in state.alive and may_draw_discard(state, p)]
            if len(state.discard) >= 21 and drawers:
                return header, moves[:n], drawers[0]
    raise AssertionError("no playout reaches a 21-card discard pile")


class House:
    def __init__(self, served: Served, header: Header, drawer: str) -> None:
        self.served, self.header, self.drawer = served, header, drawer
        self.session = served.session

    def link(self, player: str) -> str:
        return "/api" + player_link(self.served.web.app, player)

    def offer_path(self, player: str, draft: dict[str, Any]) -> str:
        return self.link(player) + "/offer?draft=" + urllib.parse.quote(json.dumps(draft))

    def pile(self) -> list[str]:
        return sorted(self.session.state.discard)


@pytest.fixture
def house(tmp_path: Path) -> Iterator[House]:
    header, moves, drawer = a_big_pile()
    session = Session(GAME, GameLog(tmp_path / "house.sqlite"), header, clock=StepClock())
    session.process_many([Observation("test", 100.0 + n, ObservationKind.MOVE, GAME.codec.to_json(m)) for n, m in enumerate(moves)])
    assert len(session.state.discard) >= 21
    running = serve(session)
    try:
        yield House(running, header, drawer)
    finally:
        running.web.close()
        session.stop()


def draw_drafts(pile: list[str]) -> Iterator[dict[str, Any]]:
    """Drafts of the draw from the discard pile, each different: the cache cannot answer any twice."""
    for first, second in combinations(pile, 2):
        yield {"verb": "draw_discard", "fields": {"seen": [first, second]}}


def test_one_link_flooding_offers_gets_429_with_a_true_retry_after_and_the_board_stays_answered(house: House) -> None:
    ben = house.drawer
    anna = next(p for p in house.header.players if p != ben)
    phone = Browser(house.served.port)
    drafts = draw_drafts(house.pile())
    rows = house.session.log.last_seq

    board: list[int] = []
    stop = threading.Event()

    def read_the_board() -> None:  # someone else at the table, on another address
        watcher = Client(house.served.port, "127.0.0.9")
        while not stop.is_set():
            board.append(watcher.request("GET", "/api/board")[0])
            time.sleep(0.05)

    watching = threading.Thread(target=read_the_board)
    watching.start()
    started = time.monotonic()
    try:
        answers = [phone.get(house.offer_path(ben, next(drafts))) for _ in range(int(L.OFFER_LINK_RATE.burst) + 25)]
    finally:
        took = time.monotonic() - started
        stop.set()
        watching.join()
    statuses = [a.status for a in answers]
    burst = int(L.OFFER_LINK_RATE.burst)
    assert statuses[:burst] == [200] * burst, statuses  # a quick tapper's burst is answered in full
    refused = [a for a in answers if a.status == 429]
    # Past the burst, at most what the bucket refilled meanwhile is answered (a loaded machine asks slower).
    assert statuses.count(200) <= burst + L.OFFER_LINK_RATE.per_s * took + 1, (statuses, took)
    assert len(refused) >= 5 and statuses[-5:] == [429] * 5, statuses
    last = answers[-1]
    assert last.headers["Content-Type"].startswith("text/plain") and "offers" in last.text and len(last.body) < 120
    assert board and set(board) == {200}, board  # the public board was answered all along

    # Another player's link is not held back by ben's flood.
    assert phone.get(house.offer_path(anna, {})).status == 200

    # Retry-After is true: asking again that many seconds later is answered (and no sooner than 1 s).
    wait = int(last.headers["Retry-After"])
    assert wait >= 1
    time.sleep(wait)
    again = phone.get(house.offer_path(ben, next(drafts)))
    assert again.status == 200, (again.status, again.text)
    health = phone.get("/healthz").json()
    assert isinstance(health, dict) and health["refused"]["offers"] == len(refused)
    assert house.session.log.last_seq == rows  # offers change nothing


def test_one_address_is_held_to_its_offer_bucket_over_several_links(house: House) -> None:
    """Several links from one phone (or a guessed one reused) share the address's offer bucket."""
    phone = Client(house.served.port, "127.0.0.5")
    drafts = draw_drafts(house.pile())
    statuses = []
    refusals = set()
    started = time.monotonic()
    for n in range(int(L.OFFER_ADDRESS_RATE.burst) + 20):
        player = house.header.players[n % len(house.header.players)]
        status, _, body = phone.request("GET", house.offer_path(player, next(drafts)))
        statuses.append(status)
        if status == 429:
            refusals.add(body.decode())
    took = time.monotonic() - started
    assert refusals == {"too many offers asked from this address; slow down\n"}
    assert statuses[: int(L.OFFER_LINK_RATE.burst)] == [200] * int(L.OFFER_LINK_RATE.burst)
    # No link reached its own burst: the address's bucket refused them (one burst, and what refilled meanwhile).
    assert 429 in statuses and statuses.count(200) <= L.OFFER_ADDRESS_RATE.burst + L.OFFER_ADDRESS_RATE.per_s * took + 1
    assert Client(house.served.port, "127.0.0.6").request("GET", house.offer_path(house.drawer, {}))[0] == 200


def test_an_offer_from_the_cache_is_the_fresh_build_until_a_new_row(house: House) -> None:
    ben = house.drawer
    phone = Browser(house.served.port)
    draft = {"verb": "draw_discard", "fields": {"seen": house.pile()[:1]}}

    def fresh() -> object:
        state, seq = house.session.snapshot()
        built = offer(GAME, state, house.header.players, ben, Draft.from_json(draft, ben))
        return {**built, "seq": seq}

    def counts() -> dict[str, int]:
        health = phone.get("/healthz").json()
        assert isinstance(health, dict)
        return dict(health["offers"])

    before = counts()
    first = phone.get(house.offer_path(ben, draft))
    second = phone.get(house.offer_path(ben, draft))
    assert first.status == second.status == 200 and first.body == second.body
    assert first.json() == fresh()
    after = counts()
    assert after["built"] == before["built"] + 1 and after["hits"] == before["hits"] + 1
    # The referee sees another table than ben's page: another key, another build.
    referee = Browser(house.served.port)
    assert referee.login("123456").status == 303
    seen_all = referee.get(f"/api/referee/offer?by={ben}&draft=" + urllib.parse.quote(json.dumps(draft)))
    assert seen_all.status == 200 and counts()["built"] == after["built"] + 1

    # A new row: ben takes a card from the pile. The same draft is built again, on the new state.
    pile = house.pile()
    took = house.session.process(Observation("test", 500.0, ObservationKind.MOVE,
                                             {"by": ben, "do": "draw_discard", "seen": pile[-3:], "keep": pile[-1]}))
    assert took.verdict == {"ok": True}
    third = phone.get(house.offer_path(ben, draft))
    body = third.json()
    assert isinstance(body, dict) and body["seq"] == took.seq and body == fresh() and third.body != first.body
    assert counts()["kept"] == 1  # the answers of the earlier rows are dropped at once


def test_the_cache_is_bounded_and_forgets_earlier_rows() -> None:
    cache = OfferCache(entries=3, size=100)
    keys = [OfferKey("g", 5, None, f"d{n}") for n in range(5)]
    for key in keys:
        cache.put(key, b"x" * 10)
    assert len(cache) == 3 and cache.get(keys[0]) is None and cache.get(keys[4]) == b"x" * 10
    cache.put(OfferKey("g", 5, "anna", "big"), b"y" * 95)  # bytes: the older ones make room
    assert len(cache) == 1 and cache.counts()["bytes"] == 95
    cache.put(OfferKey("g", 6, None, "d0"), b"z")
    assert cache.get(OfferKey("g", 5, "anna", "big")) is None and len(cache) == 1
    cache.put(OfferKey("g", 5, None, "late"), b"w")  # built on a row already passed: not kept
    assert cache.get(OfferKey("g", 5, None, "late")) is None
    cache.put(OfferKey("next-game", 1, None, "d0"), b"v")  # a new game: the last game's answers go
    assert len(cache) == 1 and cache.get(OfferKey("g", 6, None, "d0")) is None
