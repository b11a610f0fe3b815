"""Copies of one card are one thing at the table (issue 22, HIGH 1), through a real Session and log:
a move a person enters naming a copy that is not where the move needs it, when an identical copy
is, is made with that copy; the engine's own check still tells copies apart (a reader's tag names
one)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from companion.core import Header, Observation, ObservationKind
from companion.games.escape_house import GAME as EH
from companion.games.escape_master import GAME as EM
from companion.log.store import GameLog
from companion.referee.session import Session
from tests.games import test_escape_house_support as house
from tests.games.test_escape_master_support import A, B, C, dealt, header, mv, ok


def _session(game: Any, head: Header, tmp_path: Any) -> Iterator[Session]:
    log = GameLog(tmp_path / "copies.sqlite")
    session = Session(game, log, head)
    try:
        yield session
    finally:
        log.close()


def _enter(session: Session, move: dict[str, Any], source: str = "web:test") -> Any:
    """An entry made on a page (a ``web:`` source): a person tapping."""
    return session.process(Observation(source, 1.0, ObservationKind.MOVE, move))


@pytest.fixture
def dealing(tmp_path: Any) -> Iterator[Session]:
    yield from _session(EM, header(None, players=[A, B, C]), tmp_path)


def test_a_start_card_dealt_already_stands_for_another_copy(dealing: Session) -> None:
    assert _enter(dealing, {"by": A, "do": "dealt", "card": "start-1"}).verdict["ok"]
    # A notation file (or a script) names the very copy, and is judged as named.
    exact = _enter(dealing, {"by": B, "do": "dealt", "card": "start-1"}, source="notation")
    assert not exact.verdict["ok"] and exact.move["card"] == "start-1"
    row = _enter(dealing, {"by": B, "do": "dealt", "card": "start-1"})  # ben taps "the first 7 START"
    assert row.verdict["ok"], row.verdict
    assert row.move["card"] == "start-2"  # the log says which copy the engine took
    hands = EM.view(dealing.state, None)["hands"]
    assert "start-1" in hands[A] and "start-2" in hands[B]
    # The engine's own check still tells the copies apart: a reader's tag names the very copy.
    assert not EM.check(dealing.state, mv(C, "dealt", card="start-1")).ok
    # A card no copy of which is left is refused as named.
    for n in range(3, 9):
        assert _enter(dealing, {"by": C, "do": "dealt", "card": f"start-{n}"}).verdict["ok"]
    refused = _enter(dealing, {"by": C, "do": "dealt", "card": "start-1"})
    assert not refused.verdict["ok"] and refused.move["card"] == "start-1"


def test_a_wisdom_card_drawn_names_any_copy_in_the_draw_pile(tmp_path: Any) -> None:
    # Anna holds wisdom-1; ben is stuck (nothing plays on the 7 of anna's start card) and draws.
    state = ok(dealt({A: ["start-1", "wisdom-1", "joe-2"], B: ["robot-2", "robot-K"], C: ["teen-4", "teen-10"]},
                     players=[A, B, C]), mv(None, "start", t=0.0), mv(A, "play", card="start-1", pile="new", t=1.0))
    assert not EM.check(state, mv(B, "draw", card="wisdom-1", t=2.0)).ok
    settled = EM.settle(state, mv(B, "draw", card="wisdom-1", t=2.0))
    assert EM.codec.to_json(settled)["card"] == "wisdom-2" and EM.check(state, settled).ok
    # Through the session, from the state the header deals.
    for session in _session(EM, header({A: ["start-1", "wisdom-1", "joe-2"], B: ["robot-2", "robot-K"],
                                        C: ["teen-4", "teen-10"]}, players=[A, B, C]), tmp_path):
        assert _enter(session, {"do": "start"}).verdict["ok"]
        assert _enter(session, {"by": A, "do": "play", "card": "start-1", "pile": "new"}).verdict["ok"]
        row = _enter(session, {"by": B, "do": "draw", "card": "wisdom-1"})
        assert row.verdict["ok"] and row.move["card"] == "wisdom-2"


def test_escape_houses_betray_names_the_players_own_copy() -> None:
    state = house.to_action(house.loose())
    mine = [c for c in state.hands[house.A] if c.startswith("betray-")]
    other = next(c for c in EH.copies(state, mine[0]) if c not in state.hands[house.A])
    entered = house.mv(house.A, "play", card=other, target=house.B)
    assert not EH.check(state, entered).ok  # as named: a copy anna does not hold
    settled = EH.settle(state, entered)
    assert EH.codec.to_json(settled)["card"] == mine[0] and EH.check(state, settled).ok

