"""The three cases the rulebook leaves open (issue #17), each read one way (companion/games/everest/GAME.md,
"How the engine reads the rules")."""

from __future__ import annotations

from companion.games.everest import GAME
from companion.games.everest.state import Phase, RoarReactions
from tests.games.test_everest_support import A, B, C, D, at, dmg, mv, placed, plan, plans, play, roll


def test_a_yeti_knocked_into_a_square_whose_occupant_is_knocked_away_stays_put() -> None:
    # Snowballs fly together: anna hits ben from the west, knocking him east onto (3,6) where cleo
    # stands; dev hits cleo from the south at the same moment, knocking her north off the board.
    # Reading: the knocks are judged on the board as it was when the snowballs flew, so ben cannot
    # be knocked into cleo's square and stays put (EV-SNOWBALL); cleo still goes.
    state = placed({A: (1, 6), B: (2, 6), C: (3, 6), D: (3, 5)})
    state = plans(state, anna=["sAE", "s2N", "s3N"], ben=["s4N", "s2N", "s3N"], cleo=["sAN", "s2W", "s3W"], dev=["sAN", "s2W", "s3W"])
    assert at(state, B) == (2, 6) and dmg(state, B) == 1
    assert at(state, C) is None and dmg(state, C) == 1
    assert any("ben's yeti cannot be knocked up a step, a cliff or into a yeti and stays put" in e for e in state.events)


def test_a_yeti_pointed_at_by_one_roar_and_beside_another_reacts_to_the_pointed_one() -> None:
    # anna (3,6) roars south at nobody; ben (4,6) is beside her roar; cleo (5,6) roars west at ben.
    # Reading: the pointed roar affects ben for sure, so he rolls no check for anna's roar, and he
    # reacts to cleo's (runs away from her, west), whatever the seats' order.
    state = placed({A: (3, 6), B: (4, 6), C: (5, 6)})
    state = play(state, plan(A, "rS", "sAN", "s2N"), plan(B, "sAN", "s2N", "s3N"), plan(C, "rW", "sAN", "s2N"), plan(D, "sAW", "s2W", "s3W"))
    assert isinstance(state.need, RoarReactions) and state.need.waiting == (1,)
    assert GAME.scoreboard(state)["waiting"]["rolls"] == {B: {"purpose": "reaction", "roarer": C, "for": "a reaction to cleo's roar"}}
    state = play(state, roll(B, "2"))
    assert (at(state, B), at(state, A)) == ((3, 6), (2, 6))  # runs west, away from cleo, pushing anna
    assert "EV-ROAR-REACT: ben's yeti rolls 2 and runs away from cleo's" in state.events


def test_a_yeti_displaced_to_its_own_home_when_that_is_taken_displaces_the_next() -> None:
    # anna heals to (1,5) where ben stands; ben goes to his home (8,5), where cleo stands; cleo to
    # hers (8,2), where dev stands; dev to his (1,2). Reading: each displaced yeti goes to its own
    # home and displaces whoever stands there in turn (homes differ, so the chain ends); being
    # displaced heals nobody and costs nothing.
    state = placed({A: (2, 6), B: (1, 5), C: (8, 5), D: (8, 2)})
    state = plans(state, anna=["sAN", "s2N", "s3N"], ben=["sBW", "sAW", "s2W"], cleo=["sAE", "s2E", "s3E"], dev=["sAE", "s2E", "s3E"])
    assert state.phase is Phase.ROUND_END
    after = play(state, mv(A, "heal"), mv(None, "end_round"))
    assert [at(after, p) for p in (A, B, C, D)] == [(1, 5), (8, 5), (8, 2), (1, 2)]
    homes = [e for e in after.events if e.startswith("EV-HOME")]
    assert homes == [
        "EV-HOME: ben's yeti stood on anna's home (1,5) and moves to its own home",
        "EV-HOME: cleo's yeti stood on ben's home (8,5) and moves to its own home",
        "EV-HOME: dev's yeti stood on cleo's home (8,2) and moves to its own home",
    ]
