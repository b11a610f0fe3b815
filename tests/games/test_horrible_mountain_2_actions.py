"""The six actions, each with its preconditions, turns, the hand limit and the cube staying on its slot.

The table after ``placed()``: slot 1 2S yellow (Adam's), slot 2 3S red (Eve's), slot 3 4S blue
(centre), slot 4 5S orange (Eve's), slot 5 6S green (Adam's); Eve holds 2H 3H 4H, Adam 5H 6H 2D;
the Draw Pile is 3D 4D 5D 6D 2C 3C 4C 5C 6C; the Cube Pile holds blue. Eve (Evil Master) to play.
"""

from __future__ import annotations

import pytest

from companion.core.errors import NotationError
from companion.games.horrible_mountain_2 import GAME
from companion.games.horrible_mountain_2.state import EVIL, State, evolve
from tests.games.test_horrible_mountain_2_support import ADAM, EVE, covers, mv, placed, play, refused


@covers("HM2-TURN", "legal")
@covers("HM2-DRAW", "legal")
def test_players_alternate_one_action_each_starting_with_the_evil_master() -> None:
    state = play(placed(), mv(EVE, "draw", card="6C"))
    assert state.hands[EVIL] == {"2H", "3H", "4H", "6C"} and "6C" not in state.draw_pile
    assert state.current == ADAM
    state = play(state, mv(ADAM, "draw", card="3D"))
    assert state.current == EVE and state.turns == 2


@covers("HM2-TURN", "illegal")
def test_only_the_player_whose_turn_it_is_acts() -> None:
    state = placed()
    verdict = refused(state, mv(ADAM, "draw", card="3D"), "HM2-TURN")
    assert verdict.why == "it is eve's turn, not adam's"
    refused(state, mv(None, "draw", card="3D"), "HM2-TURN")
    refused(state, mv("zed", "draw", card="3D"), "HM2-TURN")


@covers("HM2-DRAW", "illegal")
def test_a_draw_names_a_card_that_can_be_in_the_draw_pile() -> None:
    state = placed()
    verdict = refused(state, mv(EVE, "draw", card="2S"), "HM2-DRAW")
    assert verdict.why == "2S cannot come from the Draw Pile: 2S is on slot 1"
    verdict = refused(state, mv(EVE, "draw", card="6H"), "HM2-DRAW")
    assert verdict.why == "6H cannot come from the Draw Pile: 6H is already in a hand"  # never whose hand


@covers("HM2-SWAP", "legal")
@covers("HM2-CUBE-SLOT", "legal")
@covers("HM2-GAP-CUBE", "legal")
def test_swap_a_card_of_matching_rank_and_the_cube_stays_on_the_slot() -> None:
    state = play(placed(), mv(EVE, "swap", card="2H", slot=1))
    assert state.table[0] == "2H" and state.hands[EVIL] == {"2S", "3H", "4H"}
    assert state.slot_cubes[0] == "yellow"  # the cube is put back on top of the new Table Card
    assert state.current == ADAM


@covers("HM2-SWAP", "illegal")
def test_swap_needs_a_hand_card_of_the_table_cards_rank() -> None:
    state = placed()
    verdict = refused(state, mv(EVE, "swap", card="3H", slot=1), "HM2-SWAP")
    assert verdict.why == "3H can only be swapped with a Table Card of rank 3; slot 1 holds 2S"
    refused(state, mv(EVE, "swap", card="5H", slot=4), "HM2-SWAP")  # Adam's card, not Eve's
    with pytest.raises(NotationError, match="slot 0 does not exist"):
        mv(EVE, "swap", card="2H", slot=0)


@covers("HM2-TAKE-TABLE", "legal")
def test_take_a_table_card_pays_a_cube_and_refills_the_slot_from_the_draw_pile() -> None:
    state = play(placed(), mv(EVE, "take_table", cube="red", replacement="6D"))
    assert state.hands[EVIL] == {"2H", "3H", "4H", "3S"}  # the card under the red cube
    assert state.table[1] == "6D" and state.slot_cubes[1] == "red"  # refilled; the cube stays
    assert state.control[EVIL] == {"orange"} and state.cube_pile == {"blue", "red"}
    assert "6D" not in state.draw_pile and state.current == ADAM


@covers("HM2-TAKE-TABLE", "illegal")
@covers("HM2-WHOLE-ACTION", "illegal")
def test_take_a_table_card_needs_the_cube_and_a_card_from_the_draw_pile() -> None:
    state = placed()
    verdict = refused(state, mv(EVE, "take_table", cube="yellow", replacement="6D"), "HM2-TAKE-TABLE", "HM2-WHOLE-ACTION")
    assert "yellow is not one: eve's Control Cubes are orange, red" in verdict.why
    refused(state, mv(EVE, "take_table", cube="blue", replacement="6D"), "HM2-TAKE-TABLE", "HM2-WHOLE-ACTION")
    refused(state, mv(EVE, "take_table", cube="red", replacement="5S"), "HM2-TAKE-TABLE")
    with pytest.raises(NotationError, match='cube" must be "red" or "orange"'):
        mv(EVE, "take_table", cube="purple", replacement="6D")


def _after_eve_swaps_cubes() -> State:
    return play(placed(), mv(EVE, "swap_cubes", cards=["2H", "3H"], slots=[2, 1]))


@covers("HM2-SWAP-CUBES", "legal")
@covers("HM2-DISCARD-PILE", "legal")
def test_swap_cubes_discards_two_cards_face_up_and_swaps_the_cubes() -> None:
    state = _after_eve_swaps_cubes()
    assert state.slot_cubes == ("red", "yellow", "blue", "orange", "green")
    assert state.discard == ("2H", "3H") and state.discard_top == "3H"
    assert GAME.scoreboard(state)["discard_top"] == "3H"


def test_swap_cubes_on_two_table_cards_of_the_same_rank() -> None:
    # "The player discards two 4s from hand and swaps the cubes on the two 4 Table Cards."
    state = evolve(placed(), table=("4S", "3S", "4D", "5S", "6S"), draw_pile=frozenset({"2S", "3D", "5D", "6D", "2C", "3C", "4C", "5C", "6C"}))
    state = evolve(state, hands=(frozenset({"4H", "4C", "2H"}), state.hands[1]), draw_pile=state.draw_pile - {"4C"})
    state = play(state, mv(EVE, "swap_cubes", cards=["4H", "4C"], slots=[3, 1]))
    assert state.slot_cubes[0] == "blue" and state.slot_cubes[2] == "yellow"


@covers("HM2-SWAP-CUBES", "illegal")
def test_swap_cubes_needs_two_hand_cards_matching_two_different_table_cards() -> None:
    state = placed()
    verdict = refused(state, mv(EVE, "swap_cubes", cards=["2H", "3H"], slots=[1, 3]), "HM2-SWAP-CUBES")
    assert verdict.why == "the Table Cards must match the ranks of the discards 2H and 3H, but they are 2S (slot 1) and 4S (slot 3)"
    refused(state, mv(EVE, "swap_cubes", cards=["2H", "3H"], slots=[1, 1]), "HM2-SWAP-CUBES")
    refused(state, mv(EVE, "swap_cubes", cards=["2H", "2H"], slots=[1, 2]), "HM2-SWAP-CUBES", "HM2-WHOLE-ACTION")
    refused(state, mv(EVE, "swap_cubes", cards=["2H", "5H"], slots=[1, 4]), "HM2-SWAP-CUBES", "HM2-WHOLE-ACTION")


@covers("HM2-TAKE-DISCARD", "legal")
def test_take_a_discard_pays_a_cube_for_the_top_card() -> None:
    state = play(_after_eve_swaps_cubes(), mv(ADAM, "take_discard", cube="green"))
    assert "3H" in state.hands[1] and state.discard == ("2H",)
    assert state.control[1] == {"yellow"} and "green" in state.cube_pile


@covers("HM2-TAKE-DISCARD", "illegal")
@covers("HM2-WHOLE-ACTION", "illegal")
def test_take_a_discard_needs_a_discard_and_a_control_cube() -> None:
    state = placed()
    verdict = refused(state, mv(EVE, "take_discard", cube="red"), "HM2-TAKE-DISCARD", "HM2-WHOLE-ACTION")
    assert verdict.why == "the Discard Pile is empty, so there is no discard to take"
    # The rulebook's own example: no Control Cubes.
    broke = evolve(_after_eve_swaps_cubes(), control=(frozenset({"red", "orange"}), frozenset()))
    broke = evolve(broke, cube_pile=frozenset({"blue", "yellow", "green"}))
    verdict = refused(broke, mv(ADAM, "take_discard", cube="green"), "HM2-TAKE-DISCARD", "HM2-WHOLE-ACTION")
    assert "adam has no Control Cubes" in verdict.why


@covers("HM2-DISCARD-PILE", "illegal")
def test_only_the_top_discard_may_be_taken() -> None:
    state = _after_eve_swaps_cubes()
    verdict = refused(state, mv(ADAM, "take_discard", cube="green", card="2H"), "HM2-TAKE-DISCARD", "HM2-DISCARD-PILE")
    assert verdict.why == "only the top card of the Discard Pile may be taken, and that is 3H, not 2H"
    play(state, mv(ADAM, "take_discard", cube="green", card="3H"))


@covers("HM2-CLAIM-CUBE", "legal")
@covers("HM2-WHOLE-ACTION", "legal")
def test_claim_a_cube_with_two_cards_of_one_rank() -> None:
    state = play(placed(), mv(EVE, "draw", card="2C"), mv(ADAM, "draw", card="3D"))
    state = play(state, mv(EVE, "claim_cube", cards=["2C", "2H"], cube="blue"))
    assert state.control[EVIL] == {"red", "orange", "blue"} and not state.cube_pile
    assert state.discard == ("2C", "2H") and state.hands[EVIL] == {"3H", "4H"}


@covers("HM2-CLAIM-CUBE", "illegal")
def test_claim_a_cube_needs_a_pair_and_a_cube_in_the_pile() -> None:
    state = play(placed(), mv(EVE, "draw", card="2C"), mv(ADAM, "draw", card="6D"))
    verdict = refused(state, mv(EVE, "claim_cube", cards=["2H", "3H"], cube="blue"), "HM2-CLAIM-CUBE")
    assert verdict.why == "a cube is claimed with two cards of the same rank, not 2H and 3H"
    refused(state, mv(EVE, "claim_cube", cards=["2C", "2H"], cube="green"), "HM2-CLAIM-CUBE", "HM2-WHOLE-ACTION")
    claimed = play(state, mv(EVE, "claim_cube", cards=["2C", "2H"], cube="blue"))
    refused(claimed, mv(ADAM, "claim_cube", cards=["6D", "6H"], cube="blue"), "HM2-CLAIM-CUBE", "HM2-WHOLE-ACTION")


def _eve_holds_six() -> State:
    return play(
        placed(),
        mv(EVE, "draw", card="3D"),
        mv(ADAM, "draw", card="3C"),
        mv(EVE, "draw", card="4D"),
        mv(ADAM, "draw", card="4C"),
        mv(EVE, "draw", card="5D"),
    )


@covers("HM2-HAND-LIMIT", "legal")
def test_a_sixth_card_is_discarded_at_once_then_the_turn_passes() -> None:
    state = _eve_holds_six()
    assert state.must_discard and state.current == EVE and len(state.hands[EVIL]) == 6
    state = play(state, mv(EVE, "discard", card="2H"))
    assert len(state.hands[EVIL]) == 5 and state.discard == ("2H",) and state.current == ADAM


@covers("HM2-HAND-LIMIT", "illegal")
def test_nothing_else_until_the_sixth_card_is_discarded() -> None:
    state = _eve_holds_six()
    verdict = refused(state, mv(EVE, "draw", card="6D"), "HM2-HAND-LIMIT")
    assert "must discard one immediately" in verdict.why
    refused(state, mv(EVE, "discard", card="5H"), "HM2-HAND-LIMIT")
    refused(state, mv(ADAM, "draw", card="6D"), "HM2-TURN")
    # A lone discard with five or fewer cards is not an action.
    refused(placed(), mv(EVE, "discard", card="2H"), "HM2-HAND-LIMIT")


def test_take_table_and_take_discard_can_bring_a_sixth_card() -> None:
    state = play(_eve_holds_six(), mv(EVE, "discard", card="2H"), mv(ADAM, "draw", card="5C"))
    state = play(state, mv(ADAM, "discard", card="5C"))
    state = play(state, mv(EVE, "take_table", cube="orange", replacement="6C"))
    assert state.must_discard and "5S" in state.hands[EVIL] and state.table[3] == "6C"
