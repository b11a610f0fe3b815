"""From the sensors to moves (interpret), and what people see (scoreboard, views, prompts)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from companion.core import Observation, ObservationKind, Unexplained, Zone
from companion.core import zones as kinds
from companion.core.errors import ObservationError
from companion.games.the_mountain import GAME
from companion.games.the_mountain.examples import example_header
from companion.games.the_mountain.moves import Act, ActCard, Discard, Draw, EndTurn, Skip
from companion.games.the_mountain.state import MountainState
from companion.games.the_mountain.table import PYRAMID_SLOT

HAND_PAD = Zone("hand-solo", kinds.HAND_PAD, player="solo")
DISCARD = Zone("discard", kinds.DISCARD)


def start(**options: Any) -> MountainState:
    return GAME.new_state(example_header(options))


def played(state: MountainState, move: Any) -> MountainState:
    verdict, after = GAME.play(state, move)
    assert verdict.ok, verdict
    return after


def ready(hand: tuple[str, ...] = ("5C", "AD", "AH", "10S", "7H")) -> MountainState:
    state = start()
    for card in hand:
        state = played(state, Draw(card=card, from_="stock"))
    return state


def tap(zone: Zone, card: str | None, event: str = "arrive", t: float = 12.5) -> Observation:
    payload = zone.payload() | {"event": event, "uid": "04a1b2", "card": card}
    return Observation("nfc:test", t, ObservationKind.TAG, payload)


def seen(pos: str, occupied: bool, card: str | None = None) -> Observation:
    zone = Zone(pos, PYRAMID_SLOT)
    return Observation("camera", 3.0, ObservationKind.VISION, zone.payload() | {"state": {"occupied": occupied, "card": card}})


# -- the hand pad -----------------------------------------------------------------------------------


def test_a_card_tapped_on_the_hand_pad_is_a_draw() -> None:
    state = start()
    assert GAME.interpret(state, tap(HAND_PAD, "10S")) == Draw(by="solo", t=12.5, card="10S", from_="stock")
    assert GAME.interpret(state, tap(HAND_PAD, "2H")) == Draw(by="solo", t=12.5, card="2H", from_="health")
    # a health card that is not on top is still read as that draw; the engine refuses it
    move = GAME.interpret(state, tap(HAND_PAD, "3H"))
    assert isinstance(move, Draw) and not GAME.judge(state, move).ok


def test_hand_pad_retap_lift_and_strays() -> None:
    state = played(start(), Draw(card="10S", from_="stock"))
    assert GAME.interpret(state, tap(HAND_PAD, "10S")) is None
    assert GAME.interpret(state, tap(HAND_PAD, "10S", event="depart")) is None
    # a mountain card taken into the hand is a draw, refused at once, saying where the card lies
    drawn = GAME.interpret(state, tap(HAND_PAD, "AS"))
    assert drawn == Draw(by="solo", t=12.5, card="AS", from_="stock")
    verdict = GAME.judge(state, drawn)
    assert verdict.rules == ("TM-STOCK",) and "on the mountain at 6-1" in verdict.why and verdict.fix == "put the AS back"
    assert isinstance(GAME.interpret(state, tap(HAND_PAD, None)), Unexplained)
    assert isinstance(GAME.interpret(state, tap(HAND_PAD, "joker")), Unexplained)


# -- the discard reader -----------------------------------------------------------------------------


def test_a_hand_card_on_the_discard_reader_at_the_start_of_the_turn_is_a_discard() -> None:
    state = played(played(ready(), Skip(target="6-6")), EndTurn())
    assert GAME.interpret(state, tap(DISCARD, "7H")) == Discard(by="solo", t=12.5, cards=("7H",))
    # after drawing, a hand card going out is the first card of an act, which is pending
    drawn = played(played(state, Discard(cards=("7H",))), Draw(card="8H", from_="stock"))
    assert GAME.interpret(drawn, tap(DISCARD, "AH")) == ActCard(by="solo", t=12.5, card="AH")


def test_a_mountain_card_on_the_discard_reader_with_no_act_begun_is_the_skip() -> None:
    state = ready()  # a set begins with its hand cards, so a mountain card first is the skip, set held or not
    move = GAME.interpret(state, tap(DISCARD, "AS"))
    assert move == Skip(by="solo", t=12.5, target="6-1") and GAME.judge(state, move).ok
    lone = ready(("5C", "AD", "AH", "10S")).evolve(stock=frozenset())  # one card of each suit
    move = GAME.interpret(lone, tap(DISCARD, "9D"))
    assert move == Skip(by="solo", t=12.5, target="6-6") and GAME.judge(lone, move).ok
    # a covered card and a second skip are skips the engine refuses at once, with the fix
    covered = GAME.interpret(lone, tap(DISCARD, "KS"))
    assert covered == Skip(by="solo", t=12.5, target="5-1")
    verdict = GAME.judge(lone, covered)
    assert verdict.rules == ("TM-EXPOSED",) and verdict.fix.startswith("put the KS back at 5-1")
    skipped = played(lone, Skip(target="6-6"))
    second = GAME.interpret(skipped, tap(DISCARD, "AS"))
    assert second == Skip(by="solo", t=12.5, target="6-1") and GAME.judge(skipped, second).rules == ("TM-SKIP",)
    assert GAME.interpret(skipped, tap(DISCARD, "9D")) is None  # already on the discard pile


def test_the_first_health_card_discarded_after_acting_is_the_attack() -> None:
    state = played(ready(), Act(cards=("AH", "7H"), targets=("6-3", "6-6")))
    assert GAME.interpret(state, tap(DISCARD, "2H")) == EndTurn(by="solo", t=12.5)
    alert = GAME.interpret(state, tap(DISCARD, "3H"))
    assert isinstance(alert, Unexplained) and "back in the health pile" in alert.fix
    before = ready()
    assert isinstance(GAME.interpret(before, tap(DISCARD, "2H")), Unexplained)
    assert isinstance(GAME.interpret(before, tap(DISCARD, "9S")), Unexplained)  # still in the stock


# -- the camera -------------------------------------------------------------------------------------


def test_camera_agreeing_with_the_mountain_needs_nothing() -> None:
    state = start()
    assert GAME.interpret(state, seen("6-1", True, "AS")) is None
    assert GAME.interpret(state, seen("5-1", True)) is None
    cleared = played(ready(), Skip(target="6-1"))
    assert GAME.interpret(cleared, seen("6-1", False)) is None


def test_camera_disagreeing_with_the_mountain_is_unexplained() -> None:
    state = start()
    gone = GAME.interpret(state, seen("6-1", False))
    assert gone == Unexplained("6-1", "6-1 is empty, but the AS should still be there", "put the AS back at 6-1, or enter the move that removed it")
    wrong = GAME.interpret(state, seen("6-2", True, "QS"))
    assert isinstance(wrong, Unexplained) and wrong.zone == "6-2" and wrong.fix == "put the 2S at 6-2"
    cleared = played(ready(), Skip(target="6-1"))
    back = GAME.interpret(cleared, seen("6-1", True, "AS"))
    assert isinstance(back, Unexplained) and back.fix == "take the card off 6-1"
    odd = GAME.interpret(state, seen("7-1", True))
    assert isinstance(odd, Unexplained) and odd.zone == "7-1"
    cubes = Observation("camera", 1.0, ObservationKind.VISION, Zone("6-1", PYRAMID_SLOT).payload() | {"state": {"cubes": []}})
    assert isinstance(GAME.interpret(state, cubes), Unexplained)  # a view, but not of a card
    broken = Observation("camera", 1.0, ObservationKind.VISION, Zone("6-1", PYRAMID_SLOT).payload() | {"state": {}})
    with pytest.raises(ObservationError, match="state holds nothing; a view of a zone is occupied"):
        GAME.interpret(state, broken)
    other = Observation("camera", 1.0, ObservationKind.VISION, DISCARD.payload() | {"state": {"occupied": True}})
    assert GAME.interpret(state, other) is None


def test_notation_moves_pass_through_the_codec() -> None:
    obs = Observation("cli", 9.0, ObservationKind.MOVE, {"do": "skip", "target": "6-2"})
    assert GAME.interpret(start(), obs) == Skip(target="6-2", t=9.0)


# -- what people see --------------------------------------------------------------------------------


def test_scoreboard_keys_and_no_hidden_cards() -> None:
    state = played(ready(), Act(cards=("AH", "7H"), targets=("6-3", "6-6")))
    board = GAME.scoreboard(state)
    assert {"health", "threats_left", "removed", "score", "hand_size"} <= board.keys()
    assert (board["health"], board["threats_left"], board["removed"], board["score"], board["hand_size"]) == (12, 12, 2, 0, 3)
    assert board["mountain"]["6-3"] is None and board["slots"]["5-3"] == "half_exposed"
    text = json.dumps(board)
    for card in state.hand + tuple(state.stock):
        assert f'"{card}"' not in text
    assert board["phase"] == "actions" and board["acted"] == ["H"]


def test_views_show_the_hand_to_the_player_and_everything_to_the_referee() -> None:
    state = ready()
    assert GAME.view(state, "solo")["hand"] == ["5C", "AD", "AH", "10S", "7H"]
    assert "stock_cards" not in GAME.view(state, "solo")
    assert "hand" not in GAME.view(state, "someone")
    referee = GAME.view(state, None)
    assert len(referee["stock_cards"]) == 16 and referee["discard_pile"] == []
    json.dumps(referee)


def test_prompts_follow_the_turn() -> None:
    assert [p.verb for p in GAME.prompts(start())] == ["draw"]
    assert "5 more cards" in GAME.prompts(start())[0].text
    state = ready()
    assert [p.verb for p in GAME.prompts(state)] == ["act", "skip"]
    assert "hearts: heal" in GAME.prompts(state)[0].text
    acted = played(state, Act(cards=("AH", "7H"), targets=("6-3", "6-6")))
    assert [p.verb for p in GAME.prompts(acted)] == ["end_turn"]  # no set of another suit is left in the hand
    skipped = played(state, Skip(target="6-6"))
    assert [p.verb for p in GAME.prompts(skipped)] == ["end_turn"]
    won = played(skipped.evolve(mountain=(None,) * 20 + ("KC",), threats_left=1, skipped=False, phase=state.phase), Skip(target="6-6"))
    assert GAME.prompts(won) == ()


def test_prompts_name_each_verb_that_may_come_now() -> None:
    two_sets = ready(("5C", "6C", "AH", "7H", "10S"))
    assert [p.verb for p in GAME.prompts(two_sets)] == ["act", "skip"]
    hearts = played(two_sets, Act(cards=("AH", "7H"), targets=("6-3", "6-6")))
    assert [p.verb for p in GAME.prompts(hearts)] == ["act", "end_turn"]
    assert "clubs: chain removal" in GAME.prompts(hearts)[0].text
    skipped = played(ready(), Skip(target="6-6"))
    next_turn = played(skipped, EndTurn())
    assert [p.verb for p in GAME.prompts(next_turn)] == ["discard", "act", "skip"]  # a full hand: no draw is due
    lonely = ready(("5C", "AD", "AH", "10S", "9S")).evolve(hand=("5C", "AD", "AH", "10S"), stock=frozenset())
    # No set in hand, and the stock is empty: the health pile is optional, and only the skip is left.
    assert [p.verb for p in GAME.prompts(lonely)] == ["draw", "skip"]
