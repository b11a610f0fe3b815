"""From the readers to moves: interpret() for pile readers, hand pads, action and history pads."""

from __future__ import annotations

from typing import Any

import pytest

from companion.core import Observation, ObservationKind, Unexplained, Zone, ZoneKind
from companion.core.errors import ObservationError
from companion.core.zones import DRAW_PILE, HAND_PAD, PILE
from companion.games.escape_master import GAME
from companion.games.escape_master.state import State
from companion.games.escape_master.table import ACTION_PAD, CALL_BUTTON, HISTORY_PAD, OUT_BUTTON
from companion.games.horrible_mountain_2.table import TABLE_SLOT
from tests.games.test_escape_master_support import A, B, dealt, mv, ok, started

HANDS = {
    A: ["start-1", "teen-8", "teen-3", "teen-4", "robot-J", "trap-up-1", "escape-1", "escape-discard-1", "joe-9",
        "wisdom-1"],
    B: ["start-2", "robot-8", "teen-J", "escape-2", "dead-end", "joe-2"],
}


def tag(zone: Zone, card: str | None, t: float, event: str = "arrive") -> Observation:
    payload: dict[str, Any] = {**zone.payload(), "event": event, "uid": "04a1b2c3", "card": card}
    return Observation(f"nfc:{zone.name}", t, ObservationKind.TAG, payload)


def pile(n: int | None) -> Zone:
    return Zone("pile-new" if n is None else f"pile-{n}", PILE, index=n)


def pad(kind: ZoneKind, player: str) -> Zone:
    prefix = {HAND_PAD: "hand", ACTION_PAD: "action", HISTORY_PAD: "history"}[kind]
    return Zone(f"{prefix}-{player}", kind, player=player)


def read(state: State, obs: Observation) -> Any:
    found = GAME.interpret(state, obs)
    return GAME.codec.to_json(found) if found is not None and not isinstance(found, Unexplained) else found


def seven() -> State:
    return ok(started(HANDS), mv(A, "play", card="start-1", pile="new", t=1.0))


def test_a_card_on_a_pile_reader_is_a_play_by_the_hand_that_holds_it() -> None:
    state = started(HANDS)
    assert read(state, tag(pile(None), "start-1", 1.0)) == {"by": A, "do": "play", "card": "start-1", "pile": "new", "t": 1.0}
    assert read(state, tag(pile(4), "start-2", 1.5)) == {"by": B, "do": "play", "card": "start-2", "pile": 4, "t": 1.5}
    state = seven()
    assert read(state, tag(pile(1), "robot-8", 2.0))["by"] == B
    assert read(state, tag(pile(1), "start-1", 2.0)) is None  # read again: already there
    assert read(state, tag(pile(1), "mouse-3", 2.0)) == {"do": "play", "card": "mouse-3", "pile": 1, "t": 2.0}


def test_a_misfit_is_still_a_play_so_the_verdict_explains_it() -> None:
    state = seven()
    move = GAME.interpret(state, tag(pile(1), "joe-2", 2.0))
    assert GAME.judge(state, move).rules == ("EM-PILE",)  # type: ignore[arg-type]


def test_two_cards_in_a_moment_make_a_combination() -> None:
    state = ok(seven(), mv(A, "play", card="teen-8", pile=1, t=2.0))
    first = GAME.interpret(state, tag(pile(1), "teen-3", 3.0))
    assert GAME.codec.to_json(first) == {"by": A, "do": "half", "card": "teen-3", "pile": 1, "t": 3.0}  # type: ignore[arg-type]
    state = ok(state, first)  # type: ignore[arg-type]
    second = GAME.interpret(state, tag(pile(1), "teen-4", 3.3))
    assert GAME.codec.to_json(second) == {"by": A, "do": "play", "cards": ["teen-3", "teen-4"], "pile": 1, "t": 3.3}  # type: ignore[arg-type]
    state = ok(state, second)  # type: ignore[arg-type]
    assert GAME.scoreboard(state)["piles"][0]["top"] == "teen-4"


def test_a_half_lifted_off_the_pile_goes_back_to_the_hand() -> None:
    state = ok(seven(), mv(A, "play", card="teen-8", pile=1, t=2.0), mv(A, "half", card="teen-3", pile=1, t=3.0))
    assert read(state, tag(pile(1), "teen-3", 4.0, "depart")) == {"by": A, "do": "withdraw", "card": "teen-3", "t": 4.0}
    assert read(state, tag(pile(1), "teen-8", 4.0, "depart")) is None
    assert read(state, tag(pad(HAND_PAD, A), "teen-3", 4.0)) == {"by": A, "do": "withdraw", "card": "teen-3", "t": 4.0}


def test_a_face_card_twin_a_moment_later_makes_a_pair() -> None:
    hands = {A: ["start-1", "teen-8", "teen-9", "teen-10"], B: ["robot-J", "teen-J"]}
    state = ok(started(hands), *(mv(A, "play", card=c, pile=1 if i else "new", t=float(i + 1))
                                 for i, c in enumerate(["start-1", "teen-8", "teen-9", "teen-10"])))
    state = ok(state, GAME.interpret(state, tag(pile(1), "robot-J", 9.0)))  # type: ignore[arg-type]
    assert read(state, tag(pile(1), "teen-J", 9.4)) == {"by": B, "do": "play", "cards": ["robot-J", "teen-J"], "pile": 1, "t": 9.4}
    later = read(state, tag(pile(1), "teen-J", 12.0))
    assert later["do"] == "play" and later["card"] == "teen-J"  # too late for a pair: a (wrong) single play


def test_hand_pads_deal_before_start_and_draw_during_play() -> None:
    state = dealt(HANDS)
    assert read(state, tag(pad(HAND_PAD, B), "mouse-3", 0.5)) == {"by": B, "do": "dealt", "card": "mouse-3", "t": 0.5}
    assert read(state, tag(pad(HAND_PAD, B), "teen-8", 0.5)) == {
        "by": A, "do": "pass_card", "cards": ["teen-8"], "to": B, "t": 0.5}
    state = seven()
    assert read(state, tag(pad(HAND_PAD, B), "mouse-3", 2.0)) == {"by": B, "do": "draw", "card": "mouse-3", "t": 2.0}
    assert read(state, tag(pad(HAND_PAD, B), "robot-8", 2.0)) is None  # tapped again


def test_action_and_history_pads() -> None:
    state = seven()
    assert read(state, tag(pad(ACTION_PAD, B), "trap-up-1", 2.0)) == {
        "by": A, "do": "trap", "card": "trap-up-1", "target": B, "t": 2.0}
    state = ok(state, mv(A, "trap", card="trap-up-1", target=B, t=2.0))
    assert read(state, tag(pad(ACTION_PAD, B), "escape-2", 3.0)) == {
        "by": B, "do": "escape", "card": "escape-2", "trap": "trap-up-1", "t": 3.0}
    # On the history pad an Escape is a special card discarded at will (issue 21: it was read as the
    # Escape, which resolved the player's trap); the action pad is where an Escape resolves a trap.
    assert read(state, tag(pad(HISTORY_PAD, B), "escape-2", 3.0)) == {"by": B, "do": "discard_special", "cards": ["escape-2"], "t": 3.0}
    state = ok(state, mv(B, "escape", card="escape-2", t=3.0))
    assert read(state, tag(pad(HISTORY_PAD, B), "trap-up-1", 3.5)) is None  # moved over with its Escape
    assert read(state, tag(pad(HISTORY_PAD, B), "dead-end", 4.0)) == {
        "by": B, "do": "discard_special", "cards": ["dead-end"], "t": 4.0}
    assert read(state, tag(pad(HISTORY_PAD, A), "joe-9", 4.0)) == {"by": A, "do": "discard", "card": "joe-9", "t": 4.0}
    found = GAME.interpret(state, tag(pad(ACTION_PAD, B), "lumberjack-4", 4.0))
    assert isinstance(found, Unexplained) and found.zone == "action-ben"


def test_unknown_tags_and_zones_are_unexplained() -> None:
    state = seven()
    found = GAME.interpret(state, tag(pile(2), None, 2.0))
    assert isinstance(found, Unexplained) and found.zone == "pile-2" and "enrol" in found.fix
    found = GAME.interpret(state, tag(pile(2), "teen-99", 2.0))
    assert isinstance(found, Unexplained) and "teen-99" in found.what
    found = GAME.interpret(state, tag(Zone("slot-3", TABLE_SLOT, index=3), "teen-8", 2.0))
    assert isinstance(found, Unexplained) and found.zone == "slot-3"
    found = GAME.interpret(state, tag(Zone("hand-zoe", HAND_PAD, player="zoe"), "teen-8", 2.0))
    assert isinstance(found, Unexplained)
    assert GAME.interpret(state, Observation("camera", 2.0, ObservationKind.VISION, {**pile(1).payload(), "state": {"occupied": True}})) is None
    with pytest.raises(ObservationError, match="state holds nothing"):  # read before any game looks at it
        GAME.interpret(state, Observation("camera", 2.0, ObservationKind.VISION, {**pile(1).payload(), "state": {}}))
    assert GAME.interpret(state, tag(Zone("draw", DRAW_PILE), "joe-5", 2.0)) is None


def test_notation_moves_pass_through_with_the_observation_time() -> None:
    state = seven()
    obs = Observation("cli", 7.5, ObservationKind.MOVE, {"by": B, "do": "play", "card": "robot-8", "pile": 1})
    assert read(state, obs) == {"by": B, "do": "play", "card": "robot-8", "pile": 1, "t": 7.5}


def test_an_escape_discarded_on_the_history_pad_leaves_the_trap_standing() -> None:
    state = ok(seven(), mv(A, "trap", card="trap-up-1", target=B, t=2.0))
    move = GAME.interpret(state, tag(pad(HISTORY_PAD, B), "escape-2", 3.0))
    after = ok(state, move)  # type: ignore[arg-type]
    assert after.rnd.lock[1] == "trap-up-1" and "escape-2" in after.rnd.histories[1]


def test_before_start_a_card_beyond_the_starting_hand_is_a_draw_the_verdict_refuses() -> None:
    full = {A: HANDS[A], B: HANDS[B]}  # anna holds her ten, ben six of them
    state = dealt(full, options={"check_deal_size": True})
    assert read(state, tag(pad(HAND_PAD, B), "mouse-3", 0.5)) == {"by": B, "do": "dealt", "card": "mouse-3", "t": 0.5}
    drawn = GAME.interpret(state, tag(pad(HAND_PAD, A), "mouse-3", 0.5))
    assert GAME.codec.to_json(drawn) == {"by": A, "do": "draw", "card": "mouse-3", "t": 0.5}  # type: ignore[arg-type]
    assert GAME.judge(state, drawn).rules == ("EM-START",)  # type: ignore[arg-type]


def test_a_first_card_that_fits_alone_is_a_play_and_the_second_makes_the_combination() -> None:
    hands = {A: ["start-1", "teen-6", "teen-5", "teen-4", "teen-3", "teen-2"], B: ["robot-9"]}
    state = ok(started(hands), mv(A, "play", card="start-1", pile="new", t=1.0),
               *(mv(A, "play", card=c, pile=1, t=t) for c, t in (("teen-6", 3.0), ("teen-5", 5.0), ("teen-4", 7.0))))
    first = GAME.interpret(state, tag(pile(1), "teen-3", 9.0))
    assert GAME.codec.to_json(first) == {"by": A, "do": "play", "card": "teen-3", "pile": 1, "t": 9.0}  # type: ignore[arg-type]
    state = ok(state, first)  # type: ignore[arg-type]
    # teen-2 would fit on teen-3 alone, but put down by the same hand a moment later the two are the
    # combination 3 + 2 (EM-ONE-CARD, EM-COMBO); seconds later it is a play of its own.
    assert read(state, tag(pile(1), "teen-2", 9.3)) == {"by": A, "do": "play", "cards": ["teen-3", "teen-2"], "pile": 1, "t": 9.3}
    assert read(state, tag(pile(1), "teen-2", 11.0)) == {"by": A, "do": "play", "card": "teen-2", "pile": 1, "t": 11.0}


def button(player: str, t: float, kind: ZoneKind = CALL_BUTTON) -> Observation:
    zone = Zone(f"{'call' if kind == CALL_BUTTON else 'out'}-{player}", kind, player=player)
    return Observation(f"button:{zone.name}", t, ObservationKind.PRESS, zone.payload())


def test_the_call_button_makes_the_call_the_rulebook_asks_for_now() -> None:
    state = dealt(HANDS)
    assert GAME.codec.to_json(GAME.interpret(state, button(A, 0.5))) == {"by": A, "do": "start", "t": 0.5}  # type: ignore[arg-type]
    state = seven()
    assert GAME.codec.to_json(GAME.interpret(state, button(B, 2.0))) == {"by": B, "do": "call_draw", "t": 2.0}  # type: ignore[arg-type]
    emptied = ok(started({A: ["start-1"], B: ["robot-8", "joe-2"]}), mv(A, "play", card="start-1", pile="new", t=1.0))
    out = GAME.interpret(emptied, button(A, 2.0))
    assert GAME.codec.to_json(out) == {"by": A, "do": "out", "t": 2.0}  # type: ignore[arg-type]
    assert GAME.judge(emptied, out).ok  # type: ignore[arg-type]
    found = GAME.interpret(emptied, Observation("button:x", 2.0, ObservationKind.PRESS, pad(HAND_PAD, A).payload()))
    assert isinstance(found, Unexplained) and found.zone == "hand-anna"


def test_the_piles_gathered_up_once_the_round_is_over_end_it() -> None:
    emptied = ok(started({A: ["start-1"], B: ["robot-8", "joe-2"]}), mv(A, "play", card="start-1", pile="new", t=1.0))
    assert read(emptied, tag(pile(1), "start-1", 3.0, "depart")) is None  # still in play: nothing
    over = ok(emptied, mv(A, "out", t=2.0))
    assert read(over, tag(pile(1), "start-1", 3.0, "depart")) == {"do": "end_round", "t": 3.0}


def test_the_escape_master_button_calls_it_even_falsely_so_the_verdict_refuses_it() -> None:
    state = seven()  # ben still holds cards
    assert GAME.codec.to_json(GAME.interpret(state, button(B, 2.0))) == {"by": B, "do": "call_draw", "t": 2.0}  # type: ignore[arg-type]
    false_call = GAME.interpret(state, button(B, 2.0, OUT_BUTTON))
    assert GAME.codec.to_json(false_call) == {"by": B, "do": "out", "t": 2.0}  # type: ignore[arg-type]
    assert not GAME.judge(state, false_call).ok  # type: ignore[arg-type]


def test_the_next_deal_starts_with_any_card_even_one_the_hand_held_last_round() -> None:
    over = ok(started({A: ["start-1"], B: ["robot-8", "joe-2"]}), mv(A, "play", card="start-1", pile="new", t=1.0),
              mv(A, "out", t=2.0), mv(None, "end_round", t=3.0))
    assert over.rnd.holder("robot-8") == 1  # ben's hand as the round left it
    assert read(over, tag(pad(HAND_PAD, B), "robot-8", 4.0)) == {"by": B, "do": "dealt", "card": "robot-8", "t": 4.0}
