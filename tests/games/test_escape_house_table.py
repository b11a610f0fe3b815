"""The tap pad (interpret), what people see (scoreboard, views), prompts, and the notation."""

from __future__ import annotations

import json
from typing import Any

import pytest

from companion.core import Observation, ObservationKind, Unexplained, Zone
from companion.core.errors import NotationError
from companion.core.zones import HAND_PAD
from companion.games.escape_house import GAME
from companion.games.escape_house.moves import Clear, Penalty, Reveal
from companion.games.escape_house.state import State
from companion.games.escape_house.table import TAP_PAD
from tests.games.test_escape_house_support import A, B, C, HANDS, loose, mv, new, play, resolved, to_action

TAP = Zone("tap", TAP_PAD)


def tap(card: str | None, event: str = "arrive", zone: Zone = TAP, t: float = 12.5) -> Observation:
    payload: dict[str, Any] = {**zone.payload(), "event": event, "uid": "04a1b2c3", "card": card}
    return Observation("nfc:tap", t, ObservationKind.TAG, payload)


def awaiting_penalty() -> State:
    return play(resolved(to_action(loose())), mv(None, "end_round"))


# -- interpret ---------------------------------------------------------------------------------------


def test_a_penalty_card_tapped_when_one_is_due_is_the_penalty_draw() -> None:
    move = GAME.interpret(awaiting_penalty(), tap("lights-out"))
    assert move == Penalty(card="lights-out", t=12.5)


def test_a_penalty_card_tapped_when_none_is_due_is_a_penalty_draw_the_rules_refuse() -> None:
    state = new()
    got = GAME.interpret(state, tap("clock-1"))
    assert got == Penalty(card="clock-1", t=12.5)
    verdict = GAME.judge(state, got)
    assert not verdict.ok and verdict.rules == ("EH-PENALTY",) and "no penalty card is due" in verdict.why


def test_a_played_card_tapped_is_its_reveal() -> None:
    state = play(to_action(loose()), mv(A, "play", card="key-1", target=B))
    move = GAME.interpret(state, tap("key-1"))
    assert move == Reveal(by=A, card="key-1", t=12.5)
    assert isinstance(move, Reveal) and GAME.judge(state, move).ok  # must_play is off here
    state = play(state, move)
    assert GAME.interpret(state, tap("key-1")) is None  # tapped again


def test_a_card_no_one_played_is_unexplained() -> None:
    state = play(to_action(loose()), mv(A, "play", card="key-1", target=B))
    got = GAME.interpret(state, tap("key-2"))
    assert isinstance(got, Unexplained) and got.zone == "tap" and "no one played it" in got.what and got.fix


def test_unknown_and_unenrolled_tags_are_unexplained_naming_the_zone() -> None:
    state = new()
    got = GAME.interpret(state, tap(None))
    assert isinstance(got, Unexplained) and got.zone == "tap" and "enrol" in got.fix
    got = GAME.interpret(state, tap("QS"))
    assert isinstance(got, Unexplained) and '"QS"' in got.what
    pad = Zone("hand-anna", HAND_PAD, player=A)
    got = GAME.interpret(state, tap("key-1", zone=pad))
    assert isinstance(got, Unexplained) and got.zone == "hand-anna"


def test_a_card_lifted_off_and_the_camera_need_no_move() -> None:
    state = awaiting_penalty()
    assert GAME.interpret(state, tap("lights-out", event="depart")) is None
    seen = Observation("camera", 1.0, ObservationKind.VISION, {**TAP.payload(), "state": {"occupied": True}})
    assert GAME.interpret(state, seen) is None


def test_a_person_enters_the_rest_as_notation() -> None:
    obs = Observation("web:referee", 3.0, ObservationKind.MOVE, {"by": A, "do": "move", "room": "library"})
    move = GAME.interpret(new(), obs)
    assert move == mv(A, "move", room="library").replace(t=3.0)


# -- what people see -----------------------------------------------------------------------------------


def test_the_scoreboard_has_the_notation_keys_and_never_a_hand() -> None:
    state = play(to_action(loose()), mv(A, "play", card="key-1", target=B))
    board = GAME.scoreboard(state)
    assert {"clocks", "main_left", "round", "phase", "alive", "sacrificed"} <= set(board)
    assert (board["clocks"], board["main_left"], board["round"], board["phase"]) == (0, 7, 1, "action")
    assert board["alive"] == list(state.players) and board["sacrificed"] == []
    assert board["main_puzzle"] == {"id": "front-door", "name": "Front Door", "kind": "main"}
    assert board["rooms"]["main"] == list(state.players)
    text = json.dumps(board)
    for hand in HANDS.values():
        for card in hand:
            assert f'"{card}"' not in text, card  # key-1 is face down: not shown yet
    assert board["played"] == [{"by": A, "room": "main"}]
    state = play(state, mv(None, "reveal", card="key-1"))
    assert GAME.scoreboard(state)["played"][0]["card"]["id"] == "key-1"


def test_a_player_sees_their_own_hand_and_the_referee_everything() -> None:
    state = play(new(), mv(A, "move", room="library"))
    mine = GAME.view(state, A)
    assert [c["id"] for c in mine["you"]["hand"]] == HANDS[A]
    assert mine["you"]["room_puzzle"]["id"] == "locked-chest"
    assert "crowbar-1" not in json.dumps(mine)  # ben's card
    ref = GAME.view(state, None)
    assert ref["hands"][B] == HANDS[B] and ref["decks"]["library"][0] == "door-slam-1"
    json.dumps(ref)  # JSON-able


# -- prompts ------------------------------------------------------------------------------------------


def test_prompts_follow_the_round() -> None:
    state = new()
    assert [p.verb for p in GAME.prompts(state)] == ["end_explore"]
    state = to_action(state)
    asks = GAME.prompts(state)
    assert {p.verb for p in asks} == {"play"} and {p.who for p in asks} == set(state.alive)
    state = to_action(loose())
    assert [p.verb for p in GAME.prompts(state)] == ["resolve"]
    assert [p.verb for p in GAME.prompts(awaiting_penalty())] == ["penalty"]
    over = play(new({"trades_per_explore": None}), mv(B, "trade", to=A, card="crowbar-1"), mv(C, "trade", to=A, card="rope-1"))
    assert [(p.who, p.verb) for p in GAME.prompts(over)] == [(A, "stash")]


# -- notation -----------------------------------------------------------------------------------------

LINES: list[dict[str, Any]] = [
    {"by": A, "do": "move", "room": "library", "t": 1.5},
    {"by": A, "do": "draw", "room": "library", "card": "door-slam-1"},
    {"by": A, "do": "draw_discard", "seen": ["key-1", "rope-1", "lamp-1"], "keep": "rope-1"},
    {"by": A, "do": "trade", "to": B, "card": "key-1"},
    {"by": A, "do": "stash", "card": "key-1", "room": "library", "position": 2},
    {"do": "end_explore"},
    {"by": A, "do": "follow", "target": B},
    {"by": A, "do": "play", "card": "key-1", "target": B},
    {"by": A, "do": "reveal", "card": "key-1"},
    {"do": "resolve"},
    {"do": "clear", "puzzle": "front-door", "by": ["key-1", "key-2"]},
    {"do": "end_round"},
    {"do": "penalty", "card": "clock-1"},
    {"by": A, "do": "discard", "card": "key-1"},
]


@pytest.mark.parametrize("line", LINES, ids=[str(line["do"]) for line in LINES])
def test_every_verb_round_trips(line: dict[str, Any]) -> None:
    move = GAME.codec.from_json(line)
    assert GAME.codec.to_json(move) == line
    assert GAME.codec.from_json(GAME.codec.to_json(move)) == move


def test_clear_carries_its_cards_in_by() -> None:
    move = GAME.codec.from_json({"do": "clear", "puzzle": "front-door", "by": ["key-1"]})
    assert isinstance(move, Clear) and move.cards == ("key-1",) and move.by is None


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ({"do": "clear", "puzzle": "front-door", "by": "key-1"}, '"by" must be the list'),
        ({"do": "clear", "puzzle": "front-door", "cards": ["key-1"]}, 'in "by"'),
        ({"do": "clear", "puzzle": "front-door", "by": [1]}, 'field "by"[0] must be a string'),
        ({"do": "clear", "by": ["key-1"]}, 'missing the field "puzzle"'),
        ({"by": A, "do": "draw_discard", "seen": ["a", "b"], "keep": "c"}, "keep"),
        ({"by": A, "do": "draw_discard", "seen": ["a", "b", "c", "d"], "keep": "a"}, "seen"),
        ({"by": A, "do": "draw_discard", "seen": ["a", "a", "b"], "keep": "a"}, "twice"),
        ({"by": A, "do": "stash", "card": "a", "room": "main", "position": -1}, "position"),
        ({"by": A, "do": "play", "card": "a"}, 'missing the field "target"'),
        ({"by": A, "do": "sacrifice", "target": B}, "unknown verb"),
    ],
)
def test_malformed_moves_are_notation_errors(line: dict[str, Any], words: str) -> None:
    with pytest.raises(NotationError) as info:
        GAME.codec.from_json(line)
    assert words in str(info.value)
