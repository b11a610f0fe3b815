"""The notation codec: strict reading, clear messages, exact round trips."""

from __future__ import annotations

import io
import json

import pytest

from companion.core import Header
from companion.core.errors import NotationError
from companion.core.codec import MoveCodec
from companion.games import get_game
from companion.games.everest.moves import Plan, PlanCoin
from companion.log.notation import parse_header, read_notation
from tests.conftest import TOY_HEADER
from tests.toy_game import GAME, Peek, Take



def test_round_trip_keeps_every_field() -> None:
    move = Take(n=2, by="anna", t=12.345)
    data = GAME.codec.to_json(move)
    assert data == {"by": "anna", "do": "take", "n": 2, "t": 12.345}
    assert GAME.codec.from_json(data) == move
    assert GAME.codec.from_json({"do": "take", "n": 1}) == Take(n=1)


@pytest.mark.parametrize(
    ("obj", "message"),
    [
        ({"do": "fly"}, 'unknown verb "fly"'),
        ({"n": 1}, 'needs a "do" field'),
        ({"do": "take"}, 'missing the field "n"'),
        ({"do": "take", "n": "two"}, 'take field "n" must be a whole number, not "two"'),
        ({"do": "take", "n": True}, "must be a whole number, not true"),
        ({"do": "take", "n": 1, "extra": 1}, 'unknown field "extra"'),
        ({"do": "take", "n": 0}, "n must be at least 1"),
        ({"do": "take", "n": 1, "t": "noon"}, '"t" must be a number'),
        ({"do": "take", "n": 1, "by": 7}, '"by" must be a player name'),
        ([1, 2], "must be a JSON object"),
    ],
)
def test_malformed_moves_name_the_problem(obj: object, message: str) -> None:
    with pytest.raises(NotationError) as caught:
        GAME.codec.from_json(obj)
    assert message in str(caught.value)


def test_public_move_hides_hidden_fields() -> None:
    assert GAME.public_move(Peek(card="QS", by="ben")) == {"by": "ben", "do": "peek"}


def test_header_checks() -> None:
    assert parse_header({"game": "toy", "players": ["a", "b"]}) == Header("toy", ("a", "b"))
    for bad, message in [
        ({"players": ["a"]}, '"game"'),
        ({"game": "toy", "players": ["a", "a"]}, "twice"),
        ({"game": "toy", "players": "a"}, '"players"'),
        ({"game": "toy", "players": ["a"], "options": []}, '"options" must be an object'),
        ({"game": "toy", "players": ["a"], "colour": 1}, 'unknown field "colour"'),
    ]:
        with pytest.raises(NotationError, match=message):
            parse_header(bad)


def test_codec_refuses_two_classes_for_one_verb() -> None:
    with pytest.raises(ValueError):
        MoveCodec("x", [Take, Take])


def test_new_state_checks_player_count_and_options() -> None:
    from companion.core.errors import SetupError

    with pytest.raises(SetupError, match="2 to 4 players, not 1"):
        GAME.new_state(Header("toy", ("solo",)))
    with pytest.raises(SetupError, match='options field "pile" must be a whole number'):
        GAME.new_state(Header("toy", ("a", "b"), {"pile": "lots"}))
    with pytest.raises(SetupError, match='options has an unknown field "piles"'):
        GAME.new_state(Header("toy", ("a", "b"), {"piles": 3}))



def test_a_nested_frozen_value_is_read_once_per_distinct_object() -> None:
    codec = get_game("everest").codec
    coin = {"coin": "3", "face": "value", "dir": "N"}
    line = {"by": "anna", "do": "plan", "coins": [coin, dict(coin)]}
    first, again = codec.from_json(line), codec.from_json(line)
    assert isinstance(first, Plan) and isinstance(again, Plan) and first == again
    assert first.coins[0] == PlanCoin("3", "value", "N")
    assert first.coins[0] is first.coins[1] is again.coins[0]
    # the key holds each value's type: a refusal is never answered from what was read before
    with pytest.raises(NotationError, match=r'plan field "coins"\[0\] field "coin" must be'):
        codec.from_json({"by": "anna", "do": "plan", "coins": [{"coin": True, "face": "value", "dir": "N"}]})


@pytest.mark.parametrize("line", ['{"by": "anna"} x', '{"by": "anna"', "[1, 2]]", "\ufeff{}", "NaN1"])
def test_a_notation_line_is_refused_as_json_refuses_it(line: str) -> None:
    with pytest.raises(json.JSONDecodeError) as refused:
        json.loads(line)
    header = json.dumps(TOY_HEADER.to_json())
    with pytest.raises(NotationError) as caught:
        read_notation(io.StringIO(header + "\n" + line))
    assert str(caught.value) == f"line 2: not valid JSON ({refused.value.msg} at column {refused.value.colno})"
