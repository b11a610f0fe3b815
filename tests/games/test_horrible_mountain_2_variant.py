"""The Optional Variant: once per game, the Evil Master examines, the adventurer searches the discards."""

from __future__ import annotations

from companion.games.horrible_mountain_2 import GAME
from companion.games.horrible_mountain_2.state import ADVENTURER, EVIL, State, evolve
from tests.games.test_horrible_mountain_2_support import ADAM, EVE, covers, mv, placed, play, refused

VARIANT = {"once_per_game_actions": True}


def with_discards() -> State:
    """Variant on; Eve swapped cubes (Discard Pile 2H, 3H), Adam to play."""
    return play(placed(VARIANT), mv(EVE, "swap_cubes", cards=["2H", "3H"], slots=[1, 2]))


@covers("HM2-VARIANT", "legal")
@covers("HM2-EXAMINE", "legal")
def test_the_evil_master_examines_the_hand_once_in_place_of_an_action() -> None:
    state = play(placed(VARIANT), mv(EVE, "examine"))
    assert state.current == ADAM and state.examined == ("2D", "5H", "6H")
    view = GAME.view(state, EVE)
    assert view["examined"] == ["2D", "5H", "6H"]
    assert "examined" not in GAME.view(state, ADAM) and "examined" not in GAME.scoreboard(state)
    assert GAME.scoreboard(state)["once_per_game"] == {ADAM: True, EVE: False}


@covers("HM2-VARIANT", "illegal")
def test_the_variant_is_optional_and_once_per_game() -> None:
    refused(placed(), mv(EVE, "examine"), "HM2-VARIANT")  # option off (the default)
    state = play(placed(VARIANT), mv(EVE, "examine"), mv(ADAM, "draw", card="3D"))
    verdict = refused(state, mv(EVE, "examine"), "HM2-VARIANT")
    assert verdict.why == "eve has already used the once-per-game action"
    refused(placed(), mv(EVE, "search_discard", card="2H"), "HM2-VARIANT")


@covers("HM2-EXAMINE", "illegal")
def test_only_the_evil_master_examines_and_not_an_empty_hand() -> None:
    refused(with_discards(), mv(ADAM, "examine"), "HM2-EXAMINE")
    empty = evolve(placed(VARIANT), hands=(frozenset({"2H"}), frozenset()))
    refused(empty, mv(EVE, "examine"), "HM2-EXAMINE", "HM2-WHOLE-ACTION")


@covers("HM2-SEARCH", "legal")
def test_the_adventurer_takes_any_discard_and_reorders_the_rest() -> None:
    state = play(with_discards(), mv(ADAM, "search_discard", card="2H"))
    assert "2H" in state.hands[ADVENTURER] and state.discard == ("3H",)
    state = play(state, mv(EVE, "draw", card="3D"))
    refused(state, mv(ADAM, "search_discard", card="3H"), "HM2-VARIANT")


def test_search_with_an_order_keeps_the_top_known_and_without_one_asks_later() -> None:
    state = play(placed(VARIANT), mv(EVE, "swap_cubes", cards=["2H", "3H"], slots=[1, 2]))
    state = play(state, mv(ADAM, "swap_cubes", cards=["5H", "6H"], slots=[4, 5]))
    state = play(state, mv(EVE, "draw", card="2C"))  # pile: 2H 3H 5H 6H (top)
    ordered = play(state, mv(ADAM, "search_discard", card="3H", order=["2H", "6H", "5H"]))
    assert ordered.discard_top == "2H" and ordered.discard == ("5H", "6H", "2H")
    # Public: the search hides the card taken and the new order.
    public = GAME.public_move(mv(ADAM, "search_discard", card="3H", order=["2H", "6H", "5H"]))
    assert public == {"by": ADAM, "do": "search_discard"}
    unknown = play(state, mv(ADAM, "search_discard", card="3H"))
    assert unknown.discard_top is None and unknown.discard_unordered == {"2H", "5H", "6H"}
    assert GAME.scoreboard(unknown)["discard_top"] is None and GAME.scoreboard(unknown)["discard_pile"] == 3
    refused(unknown, mv(EVE, "take_discard", cube="red"), "HM2-TAKE-DISCARD")  # which card? name it
    refused(unknown, mv(EVE, "take_discard", cube="red", card="3H"), "HM2-TAKE-DISCARD")
    taken = play(unknown, mv(EVE, "take_discard", cube="red", card="6H"))
    assert taken.discard_unordered == {"2H", "5H"} and "6H" in taken.hands[EVIL]
    # Cards discarded on top of it are known again; the reordered rest stays a set below them.
    again = play(taken, mv(ADAM, "swap_cubes", cards=["2D", "3H"], slots=[1, 2]))
    assert again.discard_top == "3H" and again.discard == ("2D", "3H") and again.discard_unordered == {"2H", "5H"}


@covers("HM2-SEARCH", "illegal")
def test_search_needs_the_adventurer_a_discard_and_a_card_in_it() -> None:
    refused(placed(VARIANT), mv(EVE, "search_discard", card="2H"), "HM2-SEARCH")
    empty = play(placed(VARIANT), mv(EVE, "draw", card="3D"))
    refused(empty, mv(ADAM, "search_discard", card="3D"), "HM2-SEARCH", "HM2-WHOLE-ACTION")
    state = with_discards()
    verdict = refused(state, mv(ADAM, "search_discard", card="4H"), "HM2-SEARCH")
    assert verdict.why == "4H is not in the Discard Pile: 4H is already in a hand"
    refused(state, mv(ADAM, "search_discard", card="2H", order=["2H"]), "HM2-SEARCH")
    refused(state, mv(ADAM, "search_discard", card="2H", order=[]), "HM2-SEARCH")


def test_search_can_bring_a_sixth_card() -> None:
    state = evolve(with_discards(), hands=(frozenset({"4H"}), frozenset({"5H", "6H", "2D", "3D", "4D"})))
    state = evolve(state, draw_pile=state.draw_pile - {"3D", "4D"})
    state = play(state, mv(ADAM, "search_discard", card="3H"))
    assert state.must_discard and state.current == ADAM
    state = play(state, mv(ADAM, "discard", card="3H"))
    assert state.discard == ("2H", "3H") and state.current == EVE
