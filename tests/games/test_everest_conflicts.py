"""Conflicts (EV-CONFLICT): the rulebook's examples, the dice, the high roller's order."""

from __future__ import annotations

from companion.games.everest import GAME
from companion.games.everest.board import Square, make_board
from companion.games.everest.conflicts import step_units, units_conflict
from companion.games.everest.movement import Scratch
from companion.games.everest.state import ConflictRolls, EverestState, OrderChoice, Phase
from tests.games.test_everest_support import A, B, C, D, at, covers, dmg, mv, placed, plan, play, refused, roll

NAMES = ("anna", "ben", "cleo", "dev")


def conflict(pos: list[Square | None], actions: dict[int, tuple[str, str, int]]) -> bool:
    t = Scratch(make_board(), NAMES, pos + [None] * (4 - len(pos)), [0] * 4, set())
    return units_conflict(t, step_units(actions))  # type: ignore[arg-type]


@covers("EV-CONFLICT", "legal", "illegal")
def test_two_yeti_ending_on_the_same_square_conflict() -> None:
    assert conflict([(1, 1), (5, 1)], {0: ("move", "E", 2), 1: ("move", "W", 2)})
    # anna stops short of ben's path end: every order ends the same.
    assert not conflict([(1, 1), (5, 1)], {0: ("move", "E", 1), 1: ("move", "W", 2)})


def test_moving_through_a_stationary_yeti() -> None:
    # ben roars where he stands; anna walks through his square, so his roar depends on the order.
    assert conflict([(1, 1), (3, 1)], {0: ("move", "E", 3), 1: ("roar", "N", 0)})
    # A dazed yeti does nothing, so pushing it ends the same in any order: no conflict (definition).
    assert not conflict([(1, 1), (3, 1)], {0: ("move", "E", 3)})


def test_same_and_opposite_directions_with_overlapping_paths() -> None:
    assert conflict([(1, 1), (2, 1)], {0: ("move", "E", 3), 1: ("move", "E", 1)})
    assert conflict([(1, 1), (5, 1)], {0: ("move", "E", 3), 1: ("move", "W", 3)})
    # Head-on with room to spare comes out the same either way: whoever pushes, they meet mid-way.
    assert not conflict([(1, 1), (6, 1)], {0: ("move", "E", 3), 1: ("move", "W", 3)})
    assert not conflict([(1, 1), (6, 6)], {0: ("move", "E", 3), 1: ("move", "W", 3)})


def test_ninety_degrees_only_when_one_ends_on_the_crossing() -> None:
    # anna climbs east along y=2 through (2,2); ben climbs north along x=2 through (2,2).
    assert not conflict([(1, 2), (2, 1)], {0: ("move", "E", 5), 1: ("move", "N", 4)})
    assert conflict([(1, 2), (2, 1)], {0: ("move", "E", 5), 1: ("move", "N", 2)})


def test_a_snowball_whose_target_moves() -> None:
    assert conflict([(1, 1), (2, 1)], {0: ("snowballs", "E", 0), 1: ("move", "N", 2)})
    assert not conflict([(1, 1), (2, 6)], {0: ("snowballs", "E", 0), 1: ("move", "E", 2)})


def conflicted() -> EverestState:
    """anna (2,6) and ben (6,6) both want (4,6); cleo and dev wait at home."""
    state = placed({A: (2, 6), B: (6, 6)})
    return play(
        state,
        plan(A, "2E", "sAN", "s3N"),
        plan(B, "2W", "sAN", "s3N"),
        plan(C, "sAE", "s2E", "s3E"),
        plan(D, "sAW", "s2W", "s3W"),
    )


@covers("EV-ROLL", "legal", "illegal")
def test_a_conflict_asks_every_player_to_roll() -> None:
    state = conflicted()
    assert isinstance(state.need, ConflictRolls)
    assert [p.who for p in GAME.prompts(state)] == [A, B, C, D]
    assert all(p.verb == "roll" for p in GAME.prompts(state))
    state = play(state, roll(A, "3"))
    refused(state, roll(A, "5"), "EV-ROLL")  # anna has rolled already
    refused(state, mv(None, "roll", value="5"), "EV-PLAYER")


@covers("EV-ORDER", "legal", "illegal")
@covers("EV-ORDER-ALL", "legal", "illegal")
def test_the_high_roller_chooses_the_order() -> None:
    state = play(conflicted(), roll(A, "3"), roll(B, "5"), roll(C, "2"), roll(D, "ace"))
    assert isinstance(state.need, OrderChoice) and state.need.chooser == 1
    assert [(p.who, p.verb) for p in GAME.prompts(state)] == [(B, "order")]
    refused(state, mv(A, "order", sequence=[A, B]), "EV-ORDER")
    refused(state, mv(B, "order", sequence=[A]), "EV-ORDER-ALL")
    refused(state, mv(B, "order", sequence=[A, B]), "EV-ORDER-ALL")  # the order is for all the actions
    refused(state, mv(B, "order", sequence=[A, A, C, D]), "EV-ORDER-ALL")
    first_ben = play(state, mv(B, "order", sequence=[B, A, C, D]))
    assert (at(first_ben, A), at(first_ben, B)) == ((3, 6), (4, 6))
    first_anna = play(state, mv(B, "order", sequence=[C, A, D, B]))
    assert (at(first_anna, A), at(first_anna, B)) == ((4, 6), (5, 6))
    assert first_anna.phase is Phase.ROUND_END


def test_an_order_when_none_is_asked_is_refused() -> None:
    refused(conflicted(), mv(B, "order", sequence=[A, B, C, D]), "EV-ORDER")


def test_a_tie_for_the_high_roll_rolls_again() -> None:
    state = play(conflicted(), roll(A, "5"), roll(B, "5"), roll(C, "2"), roll(D, "blank"))
    assert isinstance(state.need, ConflictRolls) and state.need.waiting == (0, 1)
    refused(state, roll(C, "5"), "EV-ROLL")
    state = play(state, roll(A, "2"), roll(B, "ace"))
    assert isinstance(state.need, OrderChoice) and state.need.chooser == 0


@covers("EV-SNOWBALL-TOGETHER", "legal")
def test_snowballs_in_an_order_still_fly_together() -> None:
    # ben climbs north from (2,1); cleo's snowball along y=1 hits him only if it flies first.
    state = placed({A: (1, 6), B: (2, 1), C: (8, 1)}, players=(A, B, C))
    state = play(
        state,
        plan(A, "sAN", "s2N", "s3N"),
        plan(B, "2N", "sAE", "s3E"),
        plan(C, "sAW", "s2S", "s3S"),
    )
    state = play(state, roll(A, "5"), roll(B, "2"), roll(C, "3"))
    # anna's throw comes first, so every snowball flies then, cleo's too, before ben moves.
    state = play(state, mv(A, "order", sequence=[A, B, C]))
    assert dmg(state, B) == 1
    assert at(state, B) is None  # knocked to (1,1), then his 2 MP north run into the notch
    assert any("EV-ORDER: anna, ben, cleo" in e for e in state.events)


def test_pushed_off_the_edge_before_its_turn_cancels_the_action() -> None:
    # anna pushes ben off the west edge while ben means to roar at dev's home: a conflict.
    state = placed({A: (2, 1), B: (1, 1)})
    state = play(state, plan(A, "2W", "sAS", "s3S"), plan(B, "rN", "sAS", "s2S"), plan(C, "sAE", "s2E", "s3E"), plan(D, "sAW", "s2W", "s3W"))
    assert isinstance(state.need, ConflictRolls)
    state = play(state, roll(A, "5"), roll(B, "2"), roll(C, "2"), roll(D, "2"))
    anna_first = play(state, mv(A, "order", sequence=[A, B, C, D]))
    assert at(anna_first, B) is None and anna_first.phase is Phase.ROUND_END
    assert not any("ben's yeti roars" in e for e in anna_first.events)
    ben_first = play(state, mv(A, "order", sequence=[B, A, C, D]))
    assert any("ben's yeti roars" in e for e in ben_first.events)
    # anna, beside ben, checks; dev, in the pointed square, reacts at the same time
    assert [p.who for p in GAME.prompts(ben_first)] == [A, D]
    ben_first = play(ben_first, roll(A, "4"))
    assert [p.who for p in GAME.prompts(ben_first)] == [D]  # dev, in the pointed square, reacts


# -- issue #17: three actions that conflict although no two of them do ---------------------------


def no_pair_conflicts(pos: list[Square | None], actions: dict[int, tuple[str, str, int]]) -> bool:
    return not any(conflict(pos, {a: actions[a], b: actions[b]}) for a in actions for b in actions if a < b)


@covers("EV-CONFLICT", "legal", "illegal")
def test_three_actions_can_conflict_when_no_two_do() -> None:
    # A pushes B into a line where B's move meets C: cleo pushes anna east along y=1 into the square
    # dev leaves or not; anna's own move then ends differently.
    pos: list[Square | None] = [(2, 1), None, (1, 1), (4, 1)]
    actions = {0: ("move", "E", 1), 2: ("move", "E", 3), 3: ("move", "E", 1)}
    assert conflict(pos, actions) and no_pair_conflicts(pos, actions)
    # A pushes B into the line of fire: dev pushes anna west to (2,5), from where her snowball
    # south hits ben only if ben has already stepped west to (2,1).
    pos = [(3, 5), (3, 1), (6, 1), (4, 5)]
    actions = {0: ("snowballs", "S", 0), 1: ("move", "W", 1), 2: ("move", "E", 4), 3: ("move", "W", 3)}
    assert conflict(pos, actions)
    assert no_pair_conflicts(pos, {0: actions[0], 1: actions[1], 3: actions[3]})


def line_of_fire() -> EverestState:
    """The second case above as a game: coin 1 conflicts among anna, ben and dev (cleo walks apart)."""
    state = placed({A: (3, 5), B: (3, 1), C: (6, 1), D: (4, 5)})
    return play(state, plan(A, "sAS", "rN", "s3N"), plan(B, "AW", "sBS", "s2S"), plan(C, "4E", "sAS", "s2S"), plan(D, "3W", "sAN", "s2N"))


def test_a_conflict_is_shown_with_its_reason_until_it_is_resolved() -> None:
    state = line_of_fire()
    assert isinstance(state.need, ConflictRolls)
    board = GAME.scoreboard(state)["conflict"]
    assert board["line"] == "conflict: anna, ben, dev — roll"
    assert board["yeti"] == [A, B, D]
    # the order entry lists exactly the actions to be ordered: all of coin 1's ("for all the actions")
    assert board["actions"] == [
        {"player": A, "action": "snowball S"},
        {"player": B, "action": "move ace W"},
        {"player": C, "action": "move 4 E"},
        {"player": D, "action": "move 3 W"},
    ]
    assert board["orders"] == [[B, D, A, C], [B, A, D, C]]
    why = "ben, dev, anna's snowball, cleo ≠ ben, anna's snowball, dev, cleo: ben's yeti ends off the board in the one order, on (2,1) in the other"
    assert board["why"] == why
    assert any(e.startswith("EV-CONFLICT: coin 1: the actions of anna, ben, dev conflict (" + why) for e in state.events)
    assert all("the conflict of the actions of coin 1 (anna, ben, dev)" in p.text and why in p.text for p in GAME.prompts(state))
    state = play(state, roll(A, "2"), mv(B, "roll", value="4", purpose="conflict"), roll(C, "ace"))
    assert GAME.scoreboard(state)["conflict"]["rolls"] == {A: "2", B: "4", C: "ace"}
    state = play(state, roll(D, "blank"))
    assert isinstance(state.need, OrderChoice)
    assert GAME.scoreboard(state)["conflict"]["line"] == "conflict: anna, ben, dev — ben orders"
    assert any(e == "EV-ORDER: ben has the high roll (anna 2, ben 4, cleo ace, dev blank) and chooses the order of anna, ben, cleo, dev" for e in state.events)
    (prompt,) = GAME.prompts(state)
    assert prompt.who == B and "anna: snowball S; ben: move ace W; cleo: move 4 E; dev: move 3 W" in prompt.text
    # the two orders of the reason, played: they do end differently
    hit = play(state, mv(B, "order", sequence=[B, D, A, C]))
    missed = play(state, mv(B, "order", sequence=[B, A, D, C]))
    assert GAME.scoreboard(hit)["conflict"] is None and at(hit, B) is None and dmg(hit, B) == 1
    assert at(missed, B) == (2, 1) and dmg(missed, B) == 0
