"""Roars: who is affected, run / roar back / shiver, chains, and runaways as an action turn."""

from __future__ import annotations

from companion.games.everest import GAME
from companion.games.everest.state import ConflictRolls, EverestState, OrderChoice, Phase, RoarChecks, RoarReactions
from tests.games.test_everest_support import A, B, C, D, at, covers, mv, placed, plan, play, refused, roll

IDLE_N = ("sAN", "s2N", "s3N")  # snowballs flying north off the top row: nothing happens


def roar_at_ben() -> EverestState:
    """anna (3,6) roars east at ben (4,6); cleo stands south of anna on (3,5); dev waits at home."""
    state = placed({A: (3, 6), B: (4, 6), C: (3, 5)})
    return play(
        state,
        plan(A, "rE", "sAN", "s2N"),
        plan(B, *IDLE_N),
        plan(C, "sAS", "s2S", "s3S"),
        plan(D, "sAW", "s2W", "s3W"),
    )


@covers("EV-ROAR", "legal", "illegal")
def test_the_pointed_square_always_the_others_on_a_blank() -> None:
    state = roar_at_ben()
    assert isinstance(state.need, RoarChecks)
    # ben, in the pointed square, is affected for sure and rolls his reaction together with cleo's
    # check ("simultaneously roll"): both are asked at once, each saying what it is for.
    assert [(p.who, p.verb) for p in GAME.prompts(state)] == [(B, "roll"), (C, "roll")]
    assert "a reaction to anna's roar" in GAME.prompts(state)[0].text
    assert "a roar check beside anna's roar: a blank means your yeti is affected" in GAME.prompts(state)[1].text
    refused(state, roll(A, "3"), "EV-ROLL")  # nothing is asked of the roaring yeti
    not_affected = play(state, roll(C, "4"))
    assert isinstance(not_affected.need, RoarReactions)
    assert [p.who for p in GAME.prompts(not_affected)] == [B]
    shivered = play(not_affected, roll(B, "blank"))
    assert shivered.phase is Phase.ROUND_END
    # ben's reaction first, then cleo's check: the same end, whatever order the rolls come in.
    early = play(state, roll(B, "blank"))
    assert [p.who for p in GAME.prompts(early)] == [C]
    refused(early, roll(B, "3"), "EV-ROLL")  # one roll each
    assert play(early, roll(C, "4")).positions == shivered.positions
    assert play(early, roll(C, "4")).phase is Phase.ROUND_END
    assert (at(shivered, B), at(shivered, C)) == ((4, 6), (3, 5))


@covers("EV-ROAR-REACT", "legal", "illegal")
def test_affected_yeti_run_away_with_the_mp_shown() -> None:
    state = play(roar_at_ben(), roll(C, "blank"))  # cleo is affected too
    assert isinstance(state.need, RoarReactions) and state.need.waiting == (1, 2)
    state = play(state, roll(B, "2"), roll(C, "3"))
    assert at(state, B) == (6, 6)  # east, away from anna, 2 MP
    assert at(state, C) == (3, 3)  # south: up a step to (3,4) for 2, then 1 MP flat
    assert "EV-RUNAWAY: ben's yeti runs away E from (4,6) to (6,6)" in state.events
    shiver = play(roar_at_ben(), roll(C, "5"), roll(B, "blank"))
    assert at(shiver, B) == (4, 6)
    assert any("shivers" in e for e in shiver.events)


@covers("EV-ROAR-BACK", "legal", "illegal")
def test_an_ace_roars_back_and_the_roarer_reads_an_ace_as_a_blank() -> None:
    state = play(roar_at_ben(), roll(C, "5"), roll(B, "ace"))
    assert isinstance(state.need, RoarReactions) and state.need.waiting == (0,)
    prompt = GAME.prompts(state)[0]
    assert prompt.who == A and "an ace counts as a blank" in prompt.text
    shiver = play(state, roll(A, "ace"))  # an ace is a blank for the yeti roared back at
    assert at(shiver, A) == (3, 6) and shiver.phase is Phase.ROUND_END
    run = play(state, roll(A, "4"))  # runs west, away from ben: off the edge of the board
    assert at(run, A) is None


def test_a_roar_back_also_startles_the_roar_backs_other_neighbours() -> None:
    state = placed({A: (3, 6), B: (4, 6), C: (4, 5)})  # cleo is south of ben, not beside anna
    state = play(state, plan(A, "rE", "sAN", "s2N"), plan(B, *IDLE_N), plan(C, "sAE", "s2E", "s3E"), plan(D, "sAW", "s2W", "s3W"))
    assert isinstance(state.need, RoarReactions) and state.need.waiting == (1,)
    state = play(state, roll(B, "ace"))
    assert isinstance(state.need, RoarChecks) and state.need.waiting == ((2, 1),)  # cleo checks for ben's roar
    state = play(state, roll(C, "blank"))
    assert isinstance(state.need, RoarReactions) and state.need.waiting == (0, 2)
    state = play(state, roll(A, "blank"), roll(C, "ace"))  # cleo roars back at ben; ben reads ace as blank
    assert isinstance(state.need, RoarReactions) and state.need.waiting == (1,)
    assert "an ace counts as a blank" in GAME.prompts(state)[0].text
    state = play(state, roll(B, "ace"))
    assert state.phase is Phase.ROUND_END


def test_a_yeti_already_running_rolls_no_more() -> None:
    # anna and ben roar at each other; anna runs, ben roars back: anna is not asked again.
    state = placed({A: (3, 6), B: (4, 6)})
    state = play(state, plan(A, "rE", "sAN", "s2N"), plan(B, "rW", "sAN", "s2N"), plan(C, "sAE", "s2E", "s3E"), plan(D, "sAW", "s2W", "s3W"))
    assert isinstance(state.need, RoarReactions) and state.need.waiting == (0, 1)
    state = play(state, roll(A, "2"), roll(B, "ace"))
    assert state.need is None and state.phase is Phase.ROUND_END
    assert at(state, A) == (1, 6)


def two_runners() -> EverestState:
    """anna roars east at ben, ben roars east at cleo, all on the top row: both run east."""
    state = placed({A: (1, 6), B: (2, 6), C: (3, 6)})
    state = play(state, plan(A, "rE", "sAN", "s2N"), plan(B, "rE", "sAN", "s2N"), plan(C, *IDLE_N), plan(D, "sAW", "s2W", "s3W"))
    assert isinstance(state.need, RoarChecks) and state.need.waiting == ((0, 1),)  # anna beside ben's roar
    return play(state, roll(A, "4"), roll(B, "2"), roll(C, "3"))


@covers("EV-RUNAWAY", "legal", "illegal")
def test_runaways_are_an_action_turn_with_conflicts() -> None:
    state = two_runners()
    assert isinstance(state.need, ConflictRolls) and state.need.kind == "runaway"
    board = GAME.scoreboard(state)["conflict"]
    assert board["kind"] == "runaway" and board["line"] == "conflict: ben, cleo — roll"
    assert board["actions"] == [{"player": B, "action": "run away 2 E"}, {"player": C, "action": "run away 3 E"}]
    assert "ben's yeti ends on" in board["why"]
    state = play(state, roll(A, "2"), roll(B, "3"), roll(C, "5"), roll(D, "blank"))
    assert isinstance(state.need, OrderChoice) and state.need.chooser == 2
    assert "runaways" in GAME.prompts(state)[0].text
    refused(state, mv(C, "order", sequence=[A, B, C]), "EV-ORDER-ALL")  # only the runaways are ordered
    ben_first = play(state, mv(C, "order", sequence=[B, C]))
    assert (at(ben_first, B), at(ben_first, C)) == ((3, 6), (7, 6))
    cleo_first = play(state, mv(C, "order", sequence=[C, B]))
    assert (at(cleo_first, B), at(cleo_first, C)) == ((4, 6), (6, 6))


def test_runaways_that_cannot_interfere_just_run() -> None:
    state = play(roar_at_ben(), roll(C, "blank"), roll(B, "2"), roll(C, "3"))
    assert state.need is None  # east along the top row and south up the mountain: no conflict


def test_a_roar_in_an_ordered_turn_resolves_in_its_place() -> None:
    # anna walks through ben's square while ben roars: a conflict. ben lets anna go first, so ben
    # roars from (4,1) with anna beside him, and cleo's roll is asked before the round goes on.
    state = placed({A: (1, 1), B: (3, 1)})
    state = play(state, plan(A, "3E", "sAS", "s2S"), plan(B, "rN", "sAS", "s2S"), plan(C, "sAE", "s2E", "s3E"), plan(D, "sAW", "s2W", "s3W"))
    state = play(state, roll(A, "2"), roll(B, "5"), roll(C, "2"), roll(D, "2"))
    state = play(state, mv(B, "order", sequence=[A, B, C, D]))
    assert (at(state, A), at(state, B)) == ((3, 1), (4, 1))
    assert isinstance(state.need, RoarChecks) and state.need.waiting == ((0, 1),)
    state = play(state, roll(A, "blank"), roll(A, "3"))  # affected, then runs west 3: off the edge
    assert at(state, A) is None and state.phase is Phase.ROUND_END
