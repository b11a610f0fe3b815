"""Setting up (the header), the options, the pyramid geometry (TM-LAYOUT) and the notation."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from companion.core import Header
from companion.core.errors import NotationError, SetupError
from companion.contract.game import option_fields
from companion.games import get_game
from companion.games.the_mountain import GAME
from companion.games.the_mountain.cards import SLOT_OF
from companion.games.the_mountain.examples import EXAMPLE_SETUP, example_header
from companion.games.the_mountain.moves import Act, Discard, Draw, EndTurn, Skip
from companion.games.the_mountain.state import Phase


def header_with(**setup: Any) -> Header:
    body = copy.deepcopy(EXAMPLE_SETUP)
    body.update(setup)
    return Header("the-mountain", ("solo",), {}, body)


# -- setup ------------------------------------------------------------------------------------------


def test_registry_finds_the_game() -> None:
    assert get_game("the-mountain") is not None
    assert get_game("the-mountain").id == "the-mountain"


def test_setup_deals_mountain_health_and_stock() -> None:
    state = GAME.new_state(example_header())
    assert state.mountain[SLOT_OF["1-1"]] == "KC" and state.mountain[SLOT_OF["6-6"]] == "9D"
    assert state.health[0] == "2H" and len(state.health) == 10
    assert len(state.stock) == 21 and "AH" in state.stock and "AS" not in state.stock
    assert state.threats_left == 12 and state.hand == () and state.phase is Phase.DISCARD


@pytest.mark.parametrize(
    ("setup", "words"),
    [
        ({"mountain": EXAMPLE_SETUP["mountain"][:5]}, "6 rows"),
        ({"mountain": [["KC"], ["QS"]] + EXAMPLE_SETUP["mountain"][2:]}, "row 2 must be a list of 2"),
        ({"health": EXAMPLE_SETUP["health"][:9]}, "10 cards"),
        ({"health": ["2H"] * 10}, "2H is dealt twice"),
        ({"health": ["ZZ"] + EXAMPLE_SETUP["health"][1:]}, "health card 1"),
        ({"mountain": [["KC"], ["QS", "JS"], ["KH", "QH", "5S"]] + EXAMPLE_SETUP["mountain"][3:]}, "JH is not in it"),
        ({"extra": 1}, 'unknown field "extra"'),
    ],
)
def test_bad_setup_is_one_clear_sentence(setup: dict[str, Any], words: str) -> None:
    with pytest.raises(SetupError) as caught:
        GAME.new_state(header_with(**setup))
    assert words in str(caught.value)


def test_missing_setup_and_wrong_player_count() -> None:
    with pytest.raises(SetupError, match="mountain"):
        GAME.new_state(Header("the-mountain", ("solo",), {}, {}))
    with pytest.raises(SetupError, match="1 players, not 2"):
        GAME.new_state(Header("the-mountain", ("a", "b"), {}, EXAMPLE_SETUP))


def test_options_have_documented_defaults() -> None:
    fields = {name: (default, doc) for name, default, doc in option_fields(GAME.options_type)}
    assert fields["nightmare"][0] is False and fields["geometry"][0] == "pyramid"
    assert all(doc for _, doc in fields.values())
    assert GAME.default_options()["health_draw"] == "top"
    with pytest.raises(SetupError, match="geometry"):
        GAME.new_state(example_header({"geometry": "cube"}))
    with pytest.raises(SetupError, match="unknown field"):
        GAME.new_state(example_header({"nightmar": True}))


# -- TM-LAYOUT --------------------------------------------------------------------------------------


def test_pyramid_geometry_exposed_and_half_exposed() -> None:
    state = GAME.new_state(example_header())
    geo = state.geo
    assert geo.covered_by[SLOT_OF["5-1"]] == (SLOT_OF["6-1"], SLOT_OF["6-2"])
    assert geo.covered_by[SLOT_OF["6-3"]] == ()
    slots = GAME.scoreboard(state)["slots"]
    assert [slots[f"6-{i}"] for i in range(1, 7)] == ["exposed"] * 6
    assert slots["5-1"] == "covered" and slots["1-1"] == "covered"
    half = state.evolve(mountain=tuple(None if i == SLOT_OF["6-1"] else c for i, c in enumerate(state.mountain)))
    assert GAME.scoreboard(half)["slots"]["5-1"] == "half_exposed"
    assert not geo.is_exposed(half.mountain, SLOT_OF["5-1"])


def test_peak_on_top_geometry_option() -> None:
    state = GAME.new_state(example_header({"geometry": "peak_on_top"}))
    slots = GAME.scoreboard(state)["slots"]
    assert slots["1-1"] == "exposed" and slots["2-1"] == "half_exposed" and slots["6-3"] == "covered"
    # KC exposed; QS, JS and the row ends KH, JH, KD, KS have one card on them: half exposed.
    assert GAME.scoreboard(state)["attack"] == 7
    assert not state.geo.is_exposed(state.mountain, SLOT_OF["6-1"])


def test_neighbours_are_row_and_cover() -> None:
    geo = GAME.new_state(example_header()).geo
    assert geo.neighbours[SLOT_OF["5-2"]] == {SLOT_OF[p] for p in ("5-1", "5-3", "6-2", "6-3", "4-1", "4-2")}
    row_only = GAME.new_state(example_header({"neighbours": "row_only"})).geo
    assert row_only.neighbours[SLOT_OF["5-2"]] == {SLOT_OF["5-1"], SLOT_OF["5-3"]}


# -- notation ---------------------------------------------------------------------------------------

MOVES = [
    Discard(by="solo", cards=("5C", "AH"), t=1.5),
    Draw(by="solo", card="10H", from_="stock"),
    Draw(card="2H", from_="health"),
    Act(cards=("5C", "6C"), targets=("6-1", "6-2", "5-1")),
    Act(cards=("5S", "6S"), choose="rank:7"),
    Act(cards=("5S", "6S", "7S"), choose=("suit:H", "rank:10"), targets=("6-3",)),
    Act(cards=("AH", "7H"), targets=("6-6",), from_hand=("7H",)),
    Skip(target="6-4"),
    EndTurn(by="solo"),
]


@pytest.mark.parametrize("move", MOVES, ids=lambda m: m.verb)
def test_moves_round_trip(move: Any) -> None:
    line = GAME.codec.to_json(move)
    assert GAME.codec.from_json(json.loads(json.dumps(line))) == move


def test_draw_is_spelled_with_from() -> None:
    assert GAME.codec.to_json(Draw(card="10H", from_="stock")) == {"do": "draw", "card": "10H", "from": "stock"}
    move = GAME.codec.from_json({"by": "solo", "do": "draw", "card": "QS", "from": "health", "t": 3})
    assert move == Draw(by="solo", card="QS", from_="health", t=3.0)


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ({"do": "draw", "card": "QS"}, 'missing the field "from"'),
        ({"do": "draw", "card": "QS", "from": "deck"}, '"from" must be "stock" or "health"'),
        ({"do": "draw", "card": "QS", "from_": "stock"}, 'unknown field "from_"'),
        ({"do": "draw", "card": "1S", "from": "stock"}, '"1S" is not a card'),
        ({"do": "skip", "target": "7-1"}, '"7-1" is not a pyramid position'),
        ({"do": "act", "cards": ["5S", "6S"], "choose": "colour:red"}, 'choose "colour:red"'),
        ({"do": "act", "cards": ["5S", "5S"], "targets": []}, "names a card twice"),
        ({"do": "discard", "cards": []}, "at least one card"),
        ({"do": "fly"}, "unknown verb"),
        ({"do": "act", "targets": ["6-1"]}, 'missing the field "cards"'),
    ],
)
def test_bad_notation_is_one_clear_message(line: dict[str, Any], words: str) -> None:
    with pytest.raises(NotationError) as caught:
        GAME.codec.from_json(line)
    assert words in str(caught.value)


def test_the_console_taps_the_face_up_setup_in() -> None:
    """Everything the setup names lies face up (the pyramid, the health pile); the stock stays unknown."""
    from companion.core import Header
    from companion.games.the_mountain import GAME
    from companion.games.the_mountain.entry import SETUP_FORM

    values: dict[str, list[str]] = {"mountain": [], "health": []}
    for name, count in (("mountain", 21), ("health", 10)):
        for _ in range(count):
            offered = [str(c.value) for c in SETUP_FORM.choices(("solo",), {}, values, name, False)]
            assert not set(offered) & set(values["mountain"] + values["health"])  # a card is tapped once
            values[name].append(offered[0])  # the threats are offered first for the mountain
    setup = SETUP_FORM.build(("solo",), {}, values)
    assert [len(row) for row in setup["mountain"]] == [1, 2, 3, 4, 5, 6] and len(setup["health"]) == 10
    state = GAME.new_state(Header(GAME.id, ("solo",), {}, setup))
    assert GAME.outcome(state) is None
