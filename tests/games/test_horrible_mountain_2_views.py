"""Scoreboard, player views, prompts, and the notation round trip."""

from __future__ import annotations

import json

import pytest

from companion.core import Move
from companion.core.errors import NotationError
from companion.games.horrible_mountain_2 import GAME
from companion.games.horrible_mountain_2.moves import (
    ClaimCube,
    Discard,
    Draw,
    Examine,
    Place,
    SearchDiscard,
    Swap,
    SwapCubes,
    TakeDiscard,
    TakeTable,
)
from tests.games.test_horrible_mountain_2_support import ADAM, EVE, mv, placed, play, start


def test_the_public_scoreboard_shows_cube_points_and_never_a_hand() -> None:
    state = play(placed(), mv(EVE, "draw", card="3D"))
    board = GAME.scoreboard(state)
    assert set(board) >= {"scores", "exhausted", "turn"}
    assert board["turn"] == ADAM and board["exhausted"] == 0 and board["phase"] == "play"
    # Eve: red on the 3 + orange on the 5; Adam: yellow on the 2 + green on the 6.
    assert board["scores"][EVE] == {
        "total": None, "hand": None, "hand_name": None, "cubes": 8, "control_cubes": ["orange", "red"], "hand_size": 4
    }
    assert board["scores"][ADAM]["cubes"] == 8 and board["scores"][ADAM]["hand_size"] == 3
    assert board["table"][2] == {"slot": 3, "card": "4S", "cube": "blue"}
    assert board["cube_pile"] == ["blue"] and board["draw_pile"] == 8 and board["discard_top"] is None
    text = json.dumps(board)
    for card in state.hands[0] | state.hands[1]:
        assert card not in text


def test_a_players_view_shows_their_own_hand_and_projected_score_only() -> None:
    state = play(placed(), mv(EVE, "draw", card="2C"))
    mine = GAME.view(state, EVE)
    assert mine["hand"] == ["2H", "2C", "3H", "4H"] and mine["you"] == EVE
    assert mine["scores"][EVE] == {
        "total": 10, "hand": 2, "hand_name": "one pair", "cubes": 8, "control_cubes": ["orange", "red"], "hand_size": 4
    }
    assert mine["scores"][ADAM]["hand"] is None and "5H" not in json.dumps(mine)
    assert GAME.view(state, "zed") == GAME.scoreboard(state)


def test_the_referee_sees_everything_and_the_end_shows_the_hands() -> None:
    state = placed()
    full = GAME.view(state, None)
    json.dumps(full)
    assert full["hands"] == {EVE: ["2H", "3H", "4H"], ADAM: ["2D", "5H", "6H"]}
    assert len(full["draw_pile_cards"]) == 9 and full["options"]["once_per_game_actions"] is False
    assert full["scores"][ADAM]["hand_name"] == "none of the above"


def test_prompts_ask_for_the_placement_and_the_sixth_card_discard() -> None:
    (prompt,) = GAME.prompts(start())
    assert prompt.who == ADAM and prompt.verb == "place" and "2 and 6" in prompt.text
    assert GAME.prompts(placed()) == ()


ALL_MOVES: list[Move] = [
    Place(by=ADAM, slots=(5, 1)),
    Draw(by=EVE, card="3D", t=12.25),
    Swap(by=EVE, card="2H", slot=1),
    TakeTable(by=EVE, cube="red", replacement="6D"),
    TakeDiscard(by=ADAM, cube="green"),
    TakeDiscard(by=ADAM, cube="green", card="3H"),
    SwapCubes(by=EVE, cards=("2H", "3H"), slots=(1, 2)),
    ClaimCube(by=EVE, cards=("2C", "2H"), cube="blue"),
    Discard(by=EVE, card="2H"),
    Examine(by=EVE),
    SearchDiscard(by=ADAM, card="2H"),
    SearchDiscard(by=ADAM, card="2H", order=("6H", "5H")),
]


@pytest.mark.parametrize("move", ALL_MOVES, ids=lambda m: m.verb)
def test_every_move_round_trips_through_the_notation(move: Move) -> None:
    line = GAME.codec.to_json(move)
    assert GAME.codec.from_json(json.loads(json.dumps(line))) == move


def test_the_notation_lines_are_as_notation_md_writes_them() -> None:
    assert GAME.codec.to_json(ALL_MOVES[0]) == {"by": ADAM, "do": "place", "slots": [5, 1]}
    assert GAME.codec.to_json(ALL_MOVES[6]) == {"by": EVE, "do": "swap_cubes", "cards": ["2H", "3H"], "slots": [1, 2]}
    assert GAME.codec.to_json(ALL_MOVES[4]) == {"by": ADAM, "do": "take_discard", "cube": "green"}
    assert GAME.public_move(ALL_MOVES[1]) == {"by": EVE, "do": "draw", "t": 12.25}


@pytest.mark.parametrize(
    "line, words",
    [
        ({"by": EVE, "do": "draw"}, 'draw is missing the field "card"'),
        ({"by": EVE, "do": "draw", "card": "7H"}, '"7H" is not a Horrible Mountain card'),
        ({"by": EVE, "do": "swap_cubes", "cards": ["2H"], "slots": [1, 2]}, "must be a list of 2, not 1"),
        ({"by": EVE, "do": "claim_cube", "cards": ["2H", "2C"], "cube": "pink"}, 'must be "red" or "orange"'),
        ({"by": EVE, "do": "peek"}, 'unknown verb "peek"'),
        ({"by": EVE, "do": "examine", "hand": []}, 'unknown field "hand"'),
    ],
)
def test_malformed_moves_are_notation_errors_naming_the_problem(line: dict[str, object], words: str) -> None:
    with pytest.raises(NotationError, match=words):
        GAME.codec.from_json(line)
