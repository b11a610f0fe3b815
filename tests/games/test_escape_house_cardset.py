"""The card-set loader is a validator: a good set loads, anything else is one SetupError naming the card."""

from __future__ import annotations

import copy
import json
from importlib import resources
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.core.errors import SetupError
from companion.games.escape_house import load_card_set, shipped_sets
from companion.games.escape_house.cards import Cond, Do, Kind, Who
from companion.games.escape_house.cardset import card_set_from_json
from tests.games.test_escape_house_support import covers


def example_obj() -> dict[str, Any]:
    path = resources.files("companion.games.escape_house") / "example_set.json"
    obj: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return obj


def with_card(card: dict[str, Any]) -> dict[str, Any]:
    obj = example_obj()
    obj["cards"].append(card)
    return obj


def refuse(obj: Any, *words: str) -> str:
    with pytest.raises(SetupError) as info:
        load_card_set(obj)
    message = str(info.value)
    for word in words:
        assert word in message, message
    return message


@covers("EH-CARD-SET", "legal")
def test_the_example_set_covers_every_card_kind() -> None:
    assert shipped_sets() == ["example"]
    cards = load_card_set("example")
    assert load_card_set("example") is cards  # loaded once
    kinds = {c.kind for c in cards.cards.values()}
    assert kinds == set(Kind)
    assert len(cards.ids(Kind.CLOCK)) == 3
    assert len(cards.ids(Kind.MAIN)) >= 9 and len(cards.ids(Kind.SIDE)) >= 8 and len(cards.ids(Kind.BETRAY)) >= 8
    effects = {e.do for c in cards.cards.values() for e in c.effects}
    assert effects == set(Do)
    conditions = {cond.kind for c in cards.cards.values() for cond in c.clear}
    assert conditions == set(Cond)
    door_slam = cards.cards["door-slam-1"]
    assert door_slam.kind is Kind.TRAP and door_slam.effects[0].do is Do.NO_MOVE and door_slam.effects[0].who is Who.SELF


def test_copies_get_numbered_ids_and_items_default_to_their_name() -> None:
    cards = load_card_set("example")
    assert {"key-1", "key-5"} <= set(cards.cards) and "key" not in cards.cards
    obj = with_card({"id": "spoon", "kind": "item", "name": "Spoon"})
    assert card_set_from_json(obj).cards["spoon"].item == "Spoon"


def test_every_main_puzzle_can_be_cleared_by_a_sacrifice() -> None:
    cards = load_card_set("example")
    for card_id in cards.ids(Kind.MAIN):
        assert any(c.kind is Cond.SACRIFICE for c in cards.cards[card_id].clear), card_id


def test_an_inline_set_loads() -> None:
    obj = example_obj()
    obj["name"] = "mine"
    assert load_card_set(obj).name == "mine"


@covers("EH-CARD-SET", "illegal")
@pytest.mark.parametrize(
    ("card", "words"),
    [
        ({"id": "x1", "kind": "spell", "name": "X"}, ('card "x1"', 'unknown kind "spell"')),
        (
            {"id": "x2", "kind": "side", "name": "X", "clear": [{"if": "riddle"}]},
            ('card "x2"', 'unknown condition "riddle"'),
        ),
        (
            {"id": "x3", "kind": "action", "name": "X", "effects": [{"do": "teleport"}]},
            ('card "x3"', 'unknown effect "teleport"'),
        ),
        ({"id": "x4", "kind": "item"}, ('card "x4"', 'missing "name"')),
        ({"kind": "item", "name": "X"}, ("card #", 'missing "id"')),
        ({"id": "x5", "name": "X"}, ('card "x5"', 'missing "kind"')),
        ({"id": "x6", "kind": "trap", "name": "X"}, ('card "x6"', "needs at least one", "effects")),
        ({"id": "x7", "kind": "side", "name": "X", "clear": [{"if": "sacrifice"}]}, ('card "x7"', "only be cleared with items")),
        ({"id": "x8", "kind": "side", "name": "X"}, ('card "x8"', "at least one", "clear")),
        (
            {"id": "x9", "kind": "side", "name": "X", "clear": [{"if": "items", "items": ["unicorn"]}]},
            ('card "x9"', '"unicorn"', "no item card"),
        ),
        ({"id": "x10", "kind": "item", "name": "X", "colour": "red"}, ('card "x10"', 'unknown field "colour"')),
        ({"id": "x11", "kind": "trap", "name": "X", "effects": [{"do": "sacrifice"}]}, ('card "x11"', "cannot have", "sacrifice")),
        ({"id": "x12", "kind": "trap", "name": "X", "effects": [{"do": "no_move", "who": "all"}]}, ('card "x12"', '"who"')),
        ({"id": "x13", "kind": "action", "name": "X", "effects": [{"do": "discard", "count": 0}]}, ('card "x13"', '"count"')),
        ({"id": "x14", "kind": "item", "name": "X", "copies": 10**9}, ('card "x14"', '"copies"')),
        (
            {"id": "x15", "kind": "main", "name": "X", "clear": [{"if": "any_items", "of": ["key"], "count": 2}]},
            ('card "x15"', '"count"'),
        ),
        ({"id": "x 16", "kind": "item", "name": "X"}, ("card #", "id")),
        ({"id": "x17", "kind": "clock", "name": "X", "effects": []}, ('card "x17"', 'unknown field "effects"')),
    ],
)
def test_a_bad_card_is_refused_naming_it(card: dict[str, Any], words: tuple[str, ...]) -> None:
    refuse(with_card(card), *words)


def test_duplicate_ids_are_refused() -> None:
    refuse(with_card({"id": "front-door", "kind": "item", "name": "X"}), '"front-door"', "twice")
    # copies expand before the check: key (x5) makes key-1..key-5
    refuse(with_card({"id": "key-3", "kind": "item", "name": "X"}), '"key-3"', "twice")


@pytest.mark.parametrize(
    ("obj", "words"),
    [
        (None, ("JSON object",)),
        (7, ("JSON object",)),
        ([], ("JSON object",)),
        ({}, ('"cards"',)),
        ({"cards": []}, ('"cards"',)),
        ({"cards": [], "extra": 1}, ('unknown field "extra"',)),
        ({"name": 3, "cards": [{"id": "a", "kind": "item", "name": "A"}]}, ('"name"',)),
        ({"cards": ["key"]}, ("card #1", "object")),
        ("nowhere", ('no card set named "nowhere"', "example")),
        ("../../etc/passwd", ("no card set named",)),
    ],
)
def test_a_bad_set_is_refused(obj: Any, words: tuple[str, ...]) -> None:
    refuse(obj, *words)


def test_every_problem_is_found_in_the_example_when_broken() -> None:
    obj = example_obj()
    broken = copy.deepcopy(obj)
    broken["cards"][0]["clear"][0]["items"] = "key"  # not a list
    refuse(broken, 'card "front-door"', '"items"')


# -- hostile input: nothing but SetupError, ever --------------------------------------------------

_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)
_keys = st.sampled_from(["id", "kind", "name", "text", "copies", "item", "clear", "effects", "if", "items", "of",
                         "count", "do", "who", "same_room", "votes", "cards", "title"])
_words: list[Any] = [k.value for k in Kind] + [c.value for c in Cond] + [d.value for d in Do] + [w.value for w in Who]
_values: st.SearchStrategy[Any] = st.sampled_from(_words + ["key", "x", "", 0, 1, 2, -1, True, None, [], {}]) | _json
_card = st.dictionaries(_keys, _values | st.lists(st.dictionaries(_keys, _values, max_size=4), max_size=3), max_size=8)


@settings(max_examples=150, deadline=None)
@given(st.one_of(_json, st.builds(lambda cards: {"name": "h", "cards": cards}, st.lists(_card, max_size=5))))
def test_hostile_input_raises_only_setup_error(obj: Any) -> None:
    try:
        load_card_set(obj)
    except SetupError as exc:
        assert str(exc)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 60), st.sampled_from(["id", "kind", "name", "clear", "effects", "copies", "item", "text"]), _values)
def test_one_field_of_the_example_broken_raises_only_setup_error(index: int, key: str, value: Any) -> None:
    obj = example_obj()
    card = obj["cards"][index % len(obj["cards"])]
    card[key] = value
    try:
        load_card_set(obj)
    except SetupError as exc:
        assert str(exc)
