"""Setting up the house from the header: scaling with players, and one clear SetupError otherwise."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from companion.core import Header
from companion.core.errors import SetupError
from companion.games.escape_house import GAME, load_card_set
from companion.games.escape_house.playout import PLAYERS as NAMES
from companion.games.escape_house.playout import deal
from companion.games.escape_house.setup import main_count, room_count
from companion.games.escape_house.state import MAIN_ROOM, Phase
from tests.games.test_escape_house_support import HANDS, PLAYERS, ROOMS, A, covers, header, new, setup_obj


def refuse(hdr: Header, *words: str) -> None:
    with pytest.raises(SetupError) as info:
        GAME.new_state(hdr)
    for word in words:
        assert word in str(info.value), str(info.value)


def test_the_test_house_sets_up() -> None:
    state = new()
    assert state.phase is Phase.EXPLORE and state.round == 1
    assert state.main[0] == "front-door" and len(state.main) == 7
    assert state.rooms == tuple(ROOMS) and state.puzzles["library"] == "locked-chest"
    assert state.decks["library"] == ("door-slam-1", "key-3", "pit", "lamp-2")
    assert all(state.where[p] == MAIN_ROOM for p in PLAYERS)  # tokens start in the main room
    assert state.hands[A] == tuple(HANDS[A]) and state.clocks == 0


@covers("EH-SETUP-MAIN", "legal")
@covers("EH-SETUP-ROOMS", "legal")
@covers("EH-SETUP-HANDS", "legal")
@covers("EH-SETUP-DECKS", "legal")
@covers("EH-SETUP-PENALTIES", "legal")
@pytest.mark.parametrize(("n", "mains", "rooms"), [(6, 7, 6), (7, 8, 7), (8, 9, 8)])
def test_setup_scales_with_players(n: int, mains: int, rooms: int) -> None:
    assert (main_count(n), room_count(n)) == (mains, rooms)
    players = NAMES[:n]
    obj = deal(load_card_set("example"), players, random.Random(n))
    state = GAME.new_state(Header("escape-house", players, {}, obj))
    assert len(state.main) == mains and len(state.rooms) == rooms
    assert all(len(h) == 4 for h in state.hands.values())
    sizes = [len(d) for d in state.decks.values()]
    assert max(sizes) - min(sizes) <= 1
    assert sum(sizes) + 3 * n == 41  # the whole draw deck is dealt
    assert len(state.penalties) == 8


def test_player_count_is_checked() -> None:
    refuse(header(players=PLAYERS[:5]), "6 to 8 players")


@covers("EH-SETUP-MAIN", "illegal")
def test_main_puzzle_count_and_kind() -> None:
    refuse(header(main=setup_obj()["main"][:6]), "6 main puzzles", "need 7")
    refuse(header(main=setup_obj()["main"][:6] + ["key-1"]), '"key-1" is an item card')
    refuse(header(main=setup_obj()["main"][:6] + ["front-door"]), '"front-door" is already dealt')


@covers("EH-SETUP-ROOMS", "illegal")
def test_side_rooms_count_names_and_puzzles() -> None:
    rooms = copy.deepcopy(ROOMS)
    del rooms["parlour"]
    refuse(header(rooms=rooms), "5 side rooms", "need 6")
    rooms = copy.deepcopy(ROOMS)
    rooms["main"] = rooms.pop("parlour")
    refuse(header(rooms=rooms), '"main" cannot name a side room')
    rooms = copy.deepcopy(ROOMS)
    rooms["library"][0], rooms["library"][1] = rooms["library"][1], rooms["library"][0]
    refuse(header(rooms=rooms), 'room "library"', '"door-slam-1" is a trap card, not side')


@covers("EH-SETUP-HANDS", "illegal")
def test_hands_are_one_betray_and_three_more() -> None:
    hands: dict[str, Any] = copy.deepcopy(HANDS)
    hands[A] = ["key-1", "key-2", "dagger-1", "crowbar-2"]
    rooms = copy.deepcopy(ROOMS)
    rooms["kitchen"].remove("crowbar-2")
    refuse(header(hands=hands, rooms=rooms), "anna must be dealt one Betray card and 3 more")
    hands = copy.deepcopy(HANDS)
    del hands[A]
    refuse(header(hands=hands), "a hand to each player")
    hands = copy.deepcopy(HANDS)
    hands[A] = ["betray-1", "key-1", "key-2", "clock-1"]
    refuse(header(hands=hands), '"clock-1" is a clock card')


@covers("EH-SETUP-DECKS", "illegal")
def test_the_rest_of_the_deck_is_split_evenly() -> None:
    rooms = copy.deepcopy(ROOMS)
    rooms["parlour"].remove("barricade-2")
    refuse(header(rooms=rooms), '"barricade-2" of the draw deck is in no hand and no room')
    rooms = copy.deepcopy(ROOMS)
    rooms["parlour"].append(rooms["library"].pop())
    rooms["parlour"].append(rooms["kitchen"].pop())
    refuse(header(rooms=rooms), "3 to 5 cards", "evenly")
    # the check is a setting (GAPS default on)
    assert GAME.new_state(header({"check_even_split": False}, rooms=rooms)).decks["parlour"][-1] == "cobweb-1"


@covers("EH-SETUP-PENALTIES", "illegal")
def test_the_penalty_deck_holds_every_penalty_card_with_three_clocks() -> None:
    refuse(header(penalties=["clock-1", "clock-2", "clock-3"]), '"lights-out" is missing')
    refuse(header(penalties=setup_obj()["penalties"] + ["key-1"]), '"key-1" is an item card')
    refuse(header(penalties=setup_obj()["penalties"] + ["nothing"]), '"nothing"', "not a card of the set")


def test_setup_fields_and_card_set_problems() -> None:
    refuse(header(extra=1), 'unknown field "extra"')
    obj = setup_obj()
    del obj["penalties"]
    refuse(Header("escape-house", PLAYERS, {}, obj), 'missing "penalties"')
    refuse(header(card_set="nowhere"), 'no card set named "nowhere"')
    refuse(header(card_set={"cards": [{"id": "a", "kind": "wand", "name": "A"}]}), 'card "a"', 'unknown kind "wand"')
    refuse(header(main="front-door"), '"main" must be a list')


def test_an_inline_card_set_works_like_a_named_one() -> None:
    from tests.games.test_escape_house_cardset import example_obj

    state = GAME.new_state(header(card_set=example_obj()))
    assert state.cards.name == "example" and state.main[0] == "front-door"


def test_bad_options_are_setup_errors() -> None:
    refuse(header({"draws_per_explore": -1}), "draws_per_explore")
    refuse(header({"nonsense": True}), "nonsense")
    assert GAME.default_options()["draws_per_explore"] == 1
