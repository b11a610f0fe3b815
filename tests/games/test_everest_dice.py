"""Rolls that say what they are for (issue #17): ``roll {purpose, roarer}``, the prompts and the
scoreboard's ``waiting.rolls``, and simultaneous rolls entered in any order."""

from __future__ import annotations

from companion.core import Move
from companion.games.everest import GAME
from companion.games.everest.state import ConflictRolls, EverestState, Phase, RoarChecks
from tests.games.test_everest_conflicts import conflicted
from tests.games.test_everest_roars import roar_at_ben
from tests.games.test_everest_support import A, B, C, D, at, covers, mv, play, refused, roll


def rolled(by: str, value: str, purpose: str | None = None, roarer: str | None = None) -> Move:
    fields: dict[str, str] = {"value": value}
    if purpose is not None:
        fields["purpose"] = purpose
    if roarer is not None:
        fields["roarer"] = roarer
    return mv(by, "roll", **fields)


@covers("EV-ROLL", "legal", "illegal")
def test_a_named_purpose_must_be_the_roll_asked() -> None:
    state = roar_at_ben()  # ben reacts to anna's roar; cleo checks beside it
    waiting = GAME.scoreboard(state)["waiting"]
    assert waiting["rolls"] == {
        B: {"purpose": "reaction", "roarer": A, "for": "a reaction to anna's roar"},
        C: {"purpose": "check", "roarer": A, "for": "a roar check beside anna's roar"},
    }
    verdict = refused(state, rolled(C, "4", "reaction"), "EV-ROLL")
    assert verdict.why == "cleo's roll is asked for a roar check beside anna's roar, not for a reaction roll"
    refused(state, rolled(C, "4", "conflict"), "EV-ROLL")
    refused(state, rolled(C, "4", "check", roarer=D), "EV-ROLL")  # dev did not roar
    refused(state, rolled(B, "4", "check"), "EV-ROLL")
    after = play(state, rolled(C, "4", "check", roarer=A), rolled(B, "blank", "reaction", roarer=A))
    assert after.phase is Phase.ROUND_END
    assert "EV-ROLL: cleo rolls 4 for a roar check beside anna's roar" in after.events
    assert "EV-ROLL: ben rolls blank for a reaction to anna's roar" in after.events


def test_a_conflict_roll_names_no_roarer() -> None:
    state = conflicted()
    refused(state, rolled(A, "3", "conflict", roarer=B), "EV-ROLL")
    refused(state, rolled(A, "3", "check"), "EV-ROLL")
    state = play(state, rolled(A, "3", "conflict"))
    assert isinstance(state.need, ConflictRolls)
    assert any(e.startswith("EV-ROLL: anna rolls 3 for the conflict of the actions of coin 1 (anna, ben)") for e in state.events)


def test_old_files_without_a_purpose_still_read() -> None:
    assert GAME.codec.to_json(roll(A, "3")) == {"by": A, "do": "roll", "value": "3"}  # nothing added
    move = rolled(B, "ace", "reaction", roarer=A)
    assert GAME.codec.to_json(move) == {"by": B, "do": "roll", "value": "ace", "purpose": "reaction", "roarer": A}


def ends(state: EverestState) -> object:
    return (state.positions, state.damage, state.need, state.phase)


def test_simultaneous_rolls_may_come_in_any_order() -> None:
    # EV-ROAR: "simultaneously roll on the above table for each yeti": ben (pointed at) and cleo
    # (beside) roll together; cleo's blank makes her affected, so she then rolls her reaction.
    start = roar_at_ben()
    assert isinstance(start.need, RoarChecks)
    one = play(start, roll(B, "2"), roll(C, "blank"), roll(C, "3"))
    other = play(start, roll(C, "blank"), roll(B, "2"), roll(C, "3"))
    assert ends(one) == ends(other)
    assert (at(one, B), at(one, C)) == ((6, 6), (3, 3))
    # conflict rolls: the same high roller whatever the order they are entered in
    rolls = [roll(A, "3"), roll(B, "5"), roll(C, "2"), roll(D, "ace")]
    assert play(conflicted(), *rolls).need == play(conflicted(), *reversed(rolls)).need
