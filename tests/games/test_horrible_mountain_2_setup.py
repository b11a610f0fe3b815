"""Setup: the dealt table from the header (steps 1-4, 8) and the placing of cubes (steps 5-7)."""

from __future__ import annotations

from typing import Any

import pytest

from companion.core import Header
from companion.core.errors import NotationError, SetupError
from companion.games.horrible_mountain_2 import GAME
from companion.games.horrible_mountain_2.cards import DECK
from companion.games.horrible_mountain_2.moves import Dealt
from companion.games.horrible_mountain_2.state import Phase
from tests.games.test_horrible_mountain_2_support import ADAM, EVE, SETUP, covers, header, mv, play, refused, start


def setup_error(**setup: Any) -> str:
    with pytest.raises(SetupError) as caught:
        start(**setup)
    return caught.value.message


@covers("HM2-SETUP-TABLE", "legal")
@covers("HM2-SETUP-CUBES", "legal")
@covers("HM2-SETUP-HANDS", "legal")
@covers("HM2-SETUP-CARDS", "legal")
@covers("HM2-SETUP-ROLES", "legal")
def test_a_good_setup_deals_the_table() -> None:
    state = start()
    assert state.table == ("2S", "3S", "4S", "5S", "6S")
    assert state.slot_cubes == (None, None, "blue", None, None)  # the centre colour on the 4
    assert state.cube_pile == frozenset({"blue"})  # and its twin in the Cube Pile
    assert state.names == (EVE, ADAM)
    assert state.hands[0] == {"2H", "3H", "4H"} and state.hands[1] == {"5H", "6H", "2D"}
    assert state.draw_pile == {"3D", "4D", "5D", "6D", "2C", "3C", "4C", "5C", "6C"}
    assert state.phase is Phase.PLACE and state.current == ADAM


@covers("HM2-SETUP-TABLE", "illegal")
@pytest.mark.parametrize(
    "table, words",
    [
        (["2S", "3S", "4S", "5S"], "five Table Cards"),
        (["2S", "3S", "5S", "4S", "6S"], "slot 3 must hold a 4"),
        (["2S", "2D", "4S", "5S", "6S"], "slot 2 must hold a 3"),
        ("2S 3S", "five Table Cards"),
    ],
)
def test_five_table_cards_one_of_each_rank_in_order(table: object, words: str) -> None:
    message = setup_error(table=table)
    assert message.startswith("HM2-SETUP-TABLE: ") and words in message


@covers("HM2-SETUP-CARDS", "illegal")
@pytest.mark.parametrize(
    "change, words",
    [
        ({"table": ["2S", "3S", "4S", "5S", "7S"]}, '"7S" is not a Horrible Mountain card'),
        ({"table": ["2S", "3S", "4S", "5S", 6]}, 'must be a card name like "4H", not 6'),
        ({"hands": {EVE: ["2S", "3H", "4H"], ADAM: ["5H", "6H", "2D"]}}, "2S is dealt twice"),
        ({"hands": {EVE: ["2H", "3H", "4H"], ADAM: ["5H", "6H", "2H"]}}, "2H is dealt twice"),
    ],
)
def test_every_card_exists_once(change: dict[str, object], words: str) -> None:
    message = setup_error(**change)
    assert message.startswith("HM2-SETUP-CARDS: ") and words in message


@covers("HM2-SETUP-HANDS", "illegal")
@pytest.mark.parametrize(
    "hands, words",
    [
        ({EVE: ["2H", "3H"], ADAM: ["5H", "6H", "2D"]}, "eve must start with a hand of three cards"),
        ({EVE: ["2H", "3H", "4H"]}, "no entry for adam"),
        ({EVE: ["2H", "3H", "4H"], ADAM: ["5H", "6H", "2D"], "zed": []}, '"zed", who is not playing'),
        (["2H"], "must be an object"),
    ],
)
def test_hands_of_three(hands: object, words: str) -> None:
    message = setup_error(hands=hands)
    assert message.startswith("HM2-SETUP-HANDS: ") and words in message


@covers("HM2-SETUP-CUBES", "illegal")
@pytest.mark.parametrize(
    "change, words",
    [
        ({"cubes": {EVE: ["red", "red"], ADAM: ["yellow", "green"]}}, "two different colours, not red twice"),
        ({"cubes": {EVE: ["red"], ADAM: ["yellow", "green"]}}, "eve must get two colours"),
        ({"cubes": {EVE: ["red", "purple"], ADAM: ["yellow", "green"]}}, "eve must get two colours"),
        ({"cubes": {EVE: ["red", "orange"], ADAM: ["red", "green"]}}, "red is given to both players"),
        ({"centre": "red"}, "the centre colour must be the one left over, blue"),
        ({"centre": "pink"}, "the one left over, blue"),
    ],
)
def test_two_colours_each_and_the_centre_colour(change: dict[str, object], words: str) -> None:
    message = setup_error(**change)
    assert message.startswith("HM2-SETUP-CUBES: ") and words in message


@covers("HM2-SETUP-ROLES", "illegal")
def test_the_evil_master_is_a_player() -> None:
    message = setup_error(evil_master="zed")
    assert message == 'HM2-SETUP-ROLES: the Evil Master "zed" is not one of the players'


def test_setup_fields_and_players_are_named() -> None:
    with pytest.raises(SetupError, match='missing "centre"'):
        GAME.new_state(Header(GAME.id, (ADAM, EVE), {}, {k: v for k, v in SETUP.items() if k != "centre"}))
    with pytest.raises(SetupError, match='unknown field "deck"'):
        start(deck=[])
    with pytest.raises(SetupError, match="for 2 players, not 3"):
        GAME.new_state(Header(GAME.id, (ADAM, EVE, "zed"), {}, SETUP))
    with pytest.raises(SetupError, match="once_per_game_actions"):
        GAME.new_state(header({"once_per_game_actions": "yes"}))
    with pytest.raises(NotationError, match="cube_follows"):
        GAME.new_state(header({"cube_follows": "card"}))


# -- placing the cubes (setup steps 5-7) -------------------------------------------------------------


@covers("HM2-PLACE-ORDER", "legal")
@covers("HM2-PLACE-SLOTS", "legal")
@covers("HM2-PLACE-FREE", "legal")
def test_adventurer_places_first_then_the_evil_master_then_evil_master_plays() -> None:
    state = play(start(), mv(ADAM, "place", slots=[5, 1]))
    # The colours go on the slots in the order of "cubes": yellow on slot 5, green on slot 1.
    assert state.slot_cubes == ("green", None, "blue", None, "yellow")
    assert state.current == EVE and state.phase is Phase.PLACE
    state = play(state, mv(EVE, "place", slots=[2, 4]))
    assert state.slot_cubes == ("green", "red", "blue", "orange", "yellow")
    assert state.phase is Phase.PLAY and state.current == EVE  # "The evilest player ... goes first"
    assert state.control == (frozenset({"red", "orange"}), frozenset({"yellow", "green"}))  # step 7: the Control Cubes


def test_adventurer_may_take_the_3_and_5() -> None:
    state = play(start(), mv(ADAM, "place", slots=[2, 4]), mv(EVE, "place", slots=[5, 1]))
    assert state.slot_cubes == ("orange", "yellow", "blue", "green", "red")


@covers("HM2-PLACE-ORDER", "illegal")
def test_the_evil_master_does_not_place_first_and_nobody_acts_before_placing() -> None:
    state = start()
    verdict = refused(state, mv(EVE, "place", slots=[2, 4]), "HM2-PLACE-ORDER")
    assert "adventurer places first" in verdict.why
    refused(state, mv(ADAM, "draw", card="3D"), "HM2-PLACE-ORDER")
    after = play(state, mv(ADAM, "place", slots=[1, 5]))
    refused(after, mv(ADAM, "place", slots=[2, 4]), "HM2-PLACE-ORDER")
    done = play(after, mv(EVE, "place", slots=[2, 4]))
    refused(done, mv(EVE, "place", slots=[1, 5]), "HM2-PLACE-ORDER")


@covers("HM2-PLACE-SLOTS", "illegal")
@pytest.mark.parametrize("slots", [[1, 2], [1, 3], [4, 5], [2, 5], [1, 1]])
def test_cubes_go_on_the_2_and_6_or_the_3_and_5(slots: list[int]) -> None:
    refused(start(), mv(ADAM, "place", slots=slots), "HM2-PLACE-SLOTS")


@covers("HM2-PLACE-FREE", "illegal")
def test_the_evil_master_may_not_place_on_cubes() -> None:
    state = play(start(), mv(ADAM, "place", slots=[1, 5]))
    verdict = refused(state, mv(EVE, "place", slots=[5, 1]), "HM2-PLACE-FREE")
    assert "slot 5 already has the green cube" in verdict.why


def test_place_notation_checks_slot_numbers() -> None:
    with pytest.raises(NotationError, match="slot 7 does not exist"):
        mv(ADAM, "place", slots=[1, 7])


def test_a_live_table_sets_up_by_taps_and_deals_by_dealt() -> None:
    """The console taps what lies face up (companion.core.setup_form); each player taps their own hand in."""
    from companion.games.horrible_mountain_2.entry import SETUP_FORM

    players = ("eve", "adam")
    values: dict[str, object] = {"evil_master": "eve"}
    table: list[str] = []
    for _ in range(5):  # slot by slot only the cards of that slot's rank are offered
        offered = [c.value for c in SETUP_FORM.choices(players, {}, {**values, "table": table}, "table", False)]
        assert offered and all(int(str(c)[:-1]) == len(table) + 2 for c in offered)
        table.append(str(offered[0]))
    values["table"] = table
    values["cubes"] = {"eve": ["red", "orange"], "adam": ["yellow", "green"]}
    assert [c.value for c in SETUP_FORM.choices(players, {}, values, "centre", False)] == ["blue"]
    setup = SETUP_FORM.build(players, {}, values)
    assert setup["centre"] == "blue" and "hands" not in setup
    state = GAME.new_state(Header(GAME.id, players, {}, setup))
    assert [(p.who, p.verb) for p in GAME.prompts(state)] == [("adam", "dealt"), ("eve", "dealt")]
    rest = [c for c in DECK if c not in table]
    deal = {"adam": rest[:3], "eve": rest[3:6]}
    for who, cards in deal.items():
        for card in cards:
            verdict, state = GAME.play(state, Dealt(by=who, card=card))
            assert verdict.ok, verdict
    assert state.phase.value == "place" and GAME.view(state, "adam")["hand"] == sorted(deal["adam"], key=DECK.index)
    fourth, _ = GAME.play(state, Dealt(by="adam", card=rest[6]))
    assert not fourth.ok  # the deal is over: a card taken now is drawn


def test_a_dealt_card_that_cannot_be_there_is_refused_without_saying_where_it_is() -> None:
    setup = {"evil_master": "eve", "table": ["2S", "3S", "4S", "5S", "6S"], "cubes": {"eve": ["red", "orange"], "adam": ["yellow", "green"]}, "centre": "blue"}
    state = GAME.new_state(Header(GAME.id, ("eve", "adam"), {}, setup))
    _, state = GAME.play(state, Dealt(by="eve", card="2H"))
    taken, _ = GAME.play(state, Dealt(by="adam", card="2H"))  # in eve's hand
    on_table, _ = GAME.play(state, Dealt(by="adam", card="2S"))  # a Table Card
    assert not taken.ok and not on_table.ok
    assert "eve" not in taken.why and taken.why.replace("2H", "X") == on_table.why.replace("2S", "X")
