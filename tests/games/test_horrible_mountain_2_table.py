"""interpret(): NFC taps and the camera's cubes, turned into moves, nothing, or an Unexplained alert."""

from __future__ import annotations

from typing import Any

from companion.core import Observation, ObservationKind, Unexplained
from companion.games.horrible_mountain_2 import GAME
from companion.games.horrible_mountain_2.moves import Discard, Draw, Half, Lift, Place, SearchDiscard, Swap, TakeDiscard, TakeTable, Withdraw
from companion.games.horrible_mountain_2.state import State, evolve
from tests.games.test_horrible_mountain_2_support import ADAM, EVE, covers, mv, placed, play, start

T = 42.5


def tag(kind: str, card: str | None, player: str | None = None, index: int | None = None, event: str = "arrive") -> Observation:
    zone = {"hand_pad": f"hand-{player}", "table_slot": f"slot-{index}", "discard": "discard"}.get(kind, kind)
    payload: dict[str, Any] = {
        "zone": zone, "zone_kind": kind, "player": player, "index": index, "event": event, "uid": "04a1b2", "card": card
    }
    return Observation("array:1", T, ObservationKind.TAG, payload)


def seen(kind: str, cubes: list[str], player: str | None = None, index: int | None = None) -> Observation:
    zone = {"table_slot": f"slot-{index}", "cube_pile": "cube-pile"}.get(kind, f"cubes-{player}")
    payload = {"zone": zone, "zone_kind": kind, "player": player, "index": index, "state": {"cubes": cubes}}
    return Observation("camera", T, ObservationKind.VISION, payload)


def alert(state: State, observation: Observation) -> Unexplained:
    found = GAME.interpret(state, observation)
    assert isinstance(found, Unexplained), found
    assert found.zone == observation.payload["zone"] and found.what and found.fix
    return found


def test_a_draw_pile_card_tapped_on_a_hand_pad_is_a_draw() -> None:
    state = placed()
    assert GAME.interpret(state, tag("hand_pad", "4D", EVE)) == Draw(by=EVE, card="4D", t=T)
    # Out of turn it is still Adam's draw, and the referee refuses it.
    move = GAME.interpret(state, tag("hand_pad", "4D", ADAM))
    assert move == Draw(by=ADAM, card="4D", t=T) and GAME.judge(state, move).rules == ("HM2-TURN",)
    assert GAME.interpret(state, tag("hand_pad", "2H", EVE)) is None  # already in her hand
    assert GAME.interpret(state, tag("hand_pad", "4D", EVE, event="depart")) is None
    assert GAME.interpret(state, tag("draw_pile", "4D")) is None  # a zone this game does not watch


def test_unknown_tags_and_cards_are_unexplained() -> None:
    state = placed()
    assert "enrol" in alert(state, tag("hand_pad", None, EVE)).fix
    assert "not a Horrible Mountain card" in alert(state, tag("discard", "KS")).what
    assert "give 5H back" == alert(state, tag("hand_pad", "5H", EVE)).fix
    assert "no player" in alert(state, tag("hand_pad", "4D", "zed")).what


def test_a_hand_card_arriving_on_a_slot_is_a_swap_and_the_old_card_to_hand_is_nothing() -> None:
    state = placed()
    assert GAME.interpret(state, tag("hand_pad", "2S", EVE)) is None  # picked up first: a swap under way
    move = GAME.interpret(state, tag("table_slot", "2H", index=1))
    assert move == Swap(by=EVE, card="2H", slot=1, t=T)
    after = play(state, move)
    assert GAME.interpret(after, tag("hand_pad", "2S", EVE)) is None
    assert GAME.interpret(after, tag("table_slot", "2H", index=1)) is None
    wrong = GAME.interpret(state, tag("table_slot", "3H", index=1))
    assert wrong == Swap(by=EVE, card="3H", slot=1, t=T) and GAME.judge(state, wrong).rules == ("HM2-SWAP",)


def test_a_draw_pile_card_arriving_on_a_slot_is_take_a_table_card() -> None:
    state = placed()
    assert GAME.interpret(state, seen("cube_pile", ["blue", "red"])) is None  # Eve pays red
    assert GAME.interpret(state, seen("hand_pad", ["orange"], EVE)) is None
    assert GAME.interpret(state, tag("hand_pad", "3S", EVE)) is None  # the card under red, to her hand
    move = GAME.interpret(state, tag("table_slot", "6D", index=2))
    assert move == TakeTable(by=EVE, cube="red", replacement="6D", t=T)
    assert GAME.judge(state, move).ok
    # Adam's card taken off a slot by Eve, who has no cube there and no card of its rank: unexplained.
    assert alert(state, tag("hand_pad", "6S", EVE)).fix == "put 6S back on slot 5"


def test_the_discard_after_a_sixth_card_is_read_off_the_discard_reader() -> None:
    state = play(placed(), mv(EVE, "draw", card="3D"), mv(ADAM, "draw", card="3C"), mv(EVE, "draw", card="4D"))
    state = play(state, mv(ADAM, "draw", card="4C"), mv(EVE, "draw", card="5D"))
    assert GAME.interpret(state, tag("discard", "3H")) == Discard(by=EVE, card="3H", t=T)
    after = play(state, mv(EVE, "discard", card="3H"))
    assert GAME.interpret(after, tag("discard", "3H")) is None  # the top card, put down again
    # Adam lays a card on the Discard Pile: the first of two discards for Swap Cubes or Claim a Cube,
    # held as a pending move (issue 21; it used to be read as nothing, and the card forgotten).
    assert GAME.interpret(after, tag("discard", "6H")) == Half(by=ADAM, card="6H", t=T)
    stray = GAME.interpret(after, tag("discard", "2H"))  # Eve, out of turn
    assert stray == Discard(by=EVE, card="2H", t=T) and not GAME.judge(after, stray).ok
    assert "not in a hand" in alert(after, tag("discard", "6D")).what


def test_the_top_discard_tapped_on_a_hand_pad_is_take_a_discard_when_the_cube_is_clear() -> None:
    state = play(placed(), mv(EVE, "swap_cubes", cards=["2H", "3H"], slots=[1, 2]))
    one_cube = evolve(state, control=(state.control[0], frozenset({"green"})), cube_pile=frozenset({"blue", "yellow"}))
    assert GAME.interpret(one_cube, tag("hand_pad", "3H", ADAM)) == TakeDiscard(by=ADAM, cube="green", t=T)
    assert alert(state, tag("hand_pad", "2H", ADAM)).fix == "put 2H back on the Discard Pile"
    # Out of turn, a player with several cubes taking it: the take under way (a lift), which the verdict
    # refuses at once (it was an alert asking the referee to enter take_discard with the cube).
    two = evolve(state, control=(frozenset({"red", "orange"}), state.control[1]))
    eve = GAME.interpret(two, tag("hand_pad", "3H", EVE))
    assert eve == Lift(by=EVE, card="3H", t=T)
    verdict = GAME.judge(two, eve)
    assert not verdict.ok and verdict.rules == ("HM2-TURN",)


def test_the_top_discard_tapped_by_a_player_with_several_cubes_waits_for_the_cube_the_camera_sees_paid() -> None:
    state = play(placed(), mv(EVE, "swap_cubes", cards=["2H", "3H"], slots=[1, 2]))
    assert sorted(state.control[1]) == ["green", "yellow"]
    lift = GAME.interpret(state, tag("hand_pad", "3H", ADAM))
    assert lift == Lift(by=ADAM, card="3H", t=T) and GAME.judge(state, lift).ok
    lifted = play(state, lift)
    assert lifted.lifted == "3H" and [p.zone for p in GAME.pending(lifted)] == ["discard"]
    assert GAME.interpret(lifted, tag("hand_pad", "3H", ADAM)) is None  # tapped again
    # the cube seen arriving in the Cube Pile, or leaving Adam's place, says which was paid
    pile = GAME.interpret(lifted, seen("cube_pile", sorted(state.cube_pile | {"yellow"})))
    assert pile == TakeDiscard(by=ADAM, cube="yellow", t=T)
    assert GAME.interpret(lifted, seen("control_cubes", ["green"], ADAM)) == TakeDiscard(by=ADAM, cube="yellow", t=T)
    done = play(lifted, pile)
    assert done == play(state, TakeDiscard(by=ADAM, cube="yellow")) and not GAME.pending(done)
    assert GAME.interpret(done, seen("control_cubes", ["green"], ADAM)) is None  # the other view agrees
    # put back on the Discard Pile: taken back; until then nothing else is legal
    back = GAME.interpret(lifted, tag("discard", "3H"))
    assert back == Withdraw(by=ADAM, card="3H", t=T) and play(lifted, back) == state
    assert GAME.judge(lifted, Draw(by=ADAM, card="4D")).rules == ("HM2-WHOLE-ACTION",)
    assert not GAME.judge(lifted, TakeDiscard(by=ADAM, cube="red")).ok  # not one of his cubes


def test_a_discard_searched_by_the_adventurer_in_the_variant() -> None:
    state = play(placed({"once_per_game_actions": True}), mv(EVE, "swap_cubes", cards=["2H", "3H"], slots=[1, 2]))
    assert GAME.interpret(state, tag("hand_pad", "2H", ADAM)) == SearchDiscard(by=ADAM, card="2H", t=T)


def test_the_camera_sees_the_setup_placement_and_its_order() -> None:
    state = start()
    assert GAME.interpret(state, seen("table_slot", ["green"], index=1)) == Place(by=ADAM, slots=(5, 1), t=T)
    assert GAME.interpret(state, seen("table_slot", ["yellow"], index=4)) == Place(by=ADAM, slots=(4, 2), t=T)
    after = play(state, Place(by=ADAM, slots=(5, 1)))
    assert GAME.interpret(after, seen("table_slot", ["yellow"], index=5)) is None  # its second cube
    move = GAME.interpret(after, seen("table_slot", ["red"], index=2))
    assert move == Place(by=EVE, slots=(2, 4), t=T)
    assert GAME.interpret(state, seen("hand_pad", ["red", "red", "orange", "orange"], EVE)) is None


@covers("HM2-CUBE-SLOT", "illegal")
@covers("HM2-GAP-CUBE", "illegal")
def test_a_cube_that_left_its_slot_is_unexplained_with_the_fix() -> None:
    state = play(placed(), mv(EVE, "swap", card="2H", slot=1))
    assert GAME.interpret(state, seen("table_slot", ["yellow"], index=1)) is None
    gone = alert(state, seen("table_slot", [], index=1))  # the cube went along with the old card
    assert gone.fix == "put the yellow cube back on slot 1" and "HM2-CUBE-SLOT" in gone.what
    wrong = alert(state, seen("table_slot", ["yellow", "blue"], index=1))
    assert wrong.fix == "take the blue cube off slot 1"
    swapped = alert(state, seen("table_slot", ["red"], index=1))
    assert "swap_cubes" in swapped.fix and "slots 2 and 1" in swapped.fix


def test_cube_pile_and_control_cubes_seen_by_the_camera() -> None:
    state = placed()
    assert GAME.interpret(state, seen("cube_pile", ["blue"])) is None
    claim = alert(state, seen("cube_pile", []))
    assert "claim_cube" in claim.fix
    odd = alert(state, seen("cube_pile", ["blue", "green"]))  # Adam's cube, on Eve's turn
    assert odd.fix == "make the Cube Pile hold blue"
    assert GAME.interpret(state, seen("hand_pad", ["red", "orange"], EVE)) is None
    assert GAME.interpret(state, seen("hand_pad", ["red", "orange", "blue"], EVE)) is None  # claiming
    adam = alert(state, seen("hand_pad", ["yellow"], ADAM))  # not his turn
    assert adam.fix == "adam: keep exactly green and yellow in front of you"
    assert "does not know" in alert(state, seen("cube_pile", ["blue", "pink"])).what


def test_notation_moves_still_come_through() -> None:
    observation = Observation("cli", 7.0, ObservationKind.MOVE, {"by": EVE, "do": "draw", "card": "3D"})
    assert GAME.interpret(placed(), observation) == Draw(by=EVE, card="3D", t=7.0)
