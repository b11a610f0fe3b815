"""Traps on an opponent's action pile, Escapes, the history pile, discards."""

from __future__ import annotations

from companion.games.escape_master import GAME
from companion.games.escape_master import rules as R
from companion.games.escape_master.state import State
from tests.games.test_escape_master_support import A, B, C, D, bad, covers, hand, mv, ok, started

HANDS = {
    A: ["start-1", "trap-up-1", "trap-down-1", "trap-draw-1", "trap-draw-2", "teen-8", "wisdom-1", "escape-1"],
    B: ["start-2", "robot-8", "robot-6", "ninja-K", "joe-1", "escape-2", "escape-discard-1", "doom-Q", "wisdom-2",
        "dead-end"],
}


def seven() -> State:
    return ok(started(HANDS), mv(A, "play", card="start-1", pile="new", t=1.0))


def traps(state: State, player: str) -> list[str]:
    return list(GAME.scoreboard(state)["traps"][player])


@covers(R.TRAP, "legal", "illegal")
def test_a_trap_goes_on_an_opponents_action_pile() -> None:
    state = seven()
    bad(state, mv(A, "trap", card="trap-up-1", target=A, t=2.0), R.TRAP)
    verdict = bad(state, mv(B, "trap", card="robot-8", target=A, t=2.0), R.TRAP)
    assert "not a trap" in verdict.why
    state = ok(state, mv(None, "trap", card="trap-up-1", target=B, t=2.0))  # attributed to anna's hand
    assert traps(state, B) == ["trap-up-1"]


@covers(R.TRAP_UP, "legal", "illegal")
def test_an_ascending_trap_allows_only_up_and_nothing_on_a_k() -> None:
    state = ok(seven(), mv(A, "trap", card="trap-up-1", target=B, t=2.0))
    verdict = bad(state, mv(B, "play", card="robot-6", pile=1, t=3.0), R.TRAP_UP)
    assert verdict.why == "ben is on an ascending-only trap: on a 7 only an 8 may go (pile 1)"
    state = ok(state, mv(B, "play", card="robot-8", pile=1, t=3.0))
    hands = {A: ["start-1", "teen-8", "teen-9", "teen-10", "teen-J", "teen-Q", "teen-K", "trap-up-1"],
             B: ["joe-1", "joe-Q"]}
    k = started(hands)
    for t, card in enumerate(["start-1", "teen-8", "teen-9", "teen-10", "teen-J", "teen-Q", "teen-K"], start=1):
        k = ok(k, mv(A, "play", card=card, pile=1 if t > 1 else "new", t=float(t)))
    k = ok(k, mv(A, "trap", card="trap-up-1", target=B, t=9.0))
    assert "may not play on a K" in bad(k, mv(B, "play", card="joe-1", pile=1, t=10.0), R.TRAP_UP).why
    bad(k, mv(B, "play", card="joe-Q", pile=1, t=10.0), R.TRAP_UP)


@covers(R.TRAP_DOWN, "legal", "illegal")
def test_a_descending_trap_allows_only_down_and_nothing_on_a_1() -> None:
    state = ok(seven(), mv(A, "trap", card="trap-down-1", target=B, t=2.0))
    bad(state, mv(B, "play", card="robot-8", pile=1, t=3.0), R.TRAP_DOWN)
    ok(state, mv(B, "play", card="robot-6", pile=1, t=3.0))
    hands = {A: ["start-1", "teen-6", "teen-5", "teen-4", "teen-3", "teen-2", "teen-1", "trap-down-1"],
             B: ["joe-K", "joe-2"]}
    one = started(hands)
    for t, card in enumerate(["start-1", "teen-6", "teen-5", "teen-4", "teen-3", "teen-2", "teen-1"], start=1):
        one = ok(one, mv(A, "play", card=card, pile=1 if t > 1 else "new", t=float(t)))
    one = ok(one, mv(A, "trap", card="trap-down-1", target=B, t=9.0))
    assert "may not play on a 1" in bad(one, mv(B, "play", card="joe-K", pile=1, t=10.0), R.TRAP_DOWN).why


@covers(R.TRAP_ONE, "illegal", "legal")
def test_one_up_down_trap_at_a_time_but_draw_three_always() -> None:
    state = ok(seven(), mv(A, "trap", card="trap-up-1", target=B, t=2.0))
    verdict = bad(state, mv(A, "trap", card="trap-down-1", target=B, t=3.0), R.TRAP_ONE)
    assert "trap-up-1" in verdict.why
    state = ok(state, mv(A, "trap", card="trap-draw-1", target=B, t=3.0))  # a Draw +3 may always go on top
    assert traps(state, B) == ["trap-up-1", "trap-draw-1"]


@covers(R.TRAP_DRAW, "legal", "illegal")
def test_draw_three_at_once_before_playing_on() -> None:
    state = ok(seven(), mv(A, "trap", card="trap-draw-1", target=B, t=2.0))
    assert GAME.scoreboard(state)["owed_draws"] == {B: 3}
    verdict = bad(state, mv(B, "play", card="robot-8", pile=1, t=3.0), R.TRAP_DRAW)
    assert "3 to go" in verdict.why
    for t, card in enumerate(["joe-3", "joe-4", "joe-5"], start=3):
        state = ok(state, mv(B, "draw", card=card, t=float(t)))  # drawing is allowed though ben could play
    assert GAME.scoreboard(state)["owed_draws"] == {} and traps(state, B) == []
    ok(state, mv(B, "play", card="robot-8", pile=1, t=9.0))


@covers(R.WISDOM, "legal")
def test_a_wisdom_clears_every_up_down_trap_but_not_draw_three() -> None:
    state = ok(seven(), mv(A, "trap", card="trap-up-1", target=B, t=2.0), mv(A, "trap", card="trap-draw-1", target=B, t=2.5))
    state = ok(state, mv(B, "escape", card="escape-2", trap="trap-draw-1", t=3.0))
    state = ok(state, mv(A, "trap", card="trap-draw-2", target=B, t=3.5))
    state = ok(state, mv(B, "draw", card="joe-3", t=3.6), mv(B, "draw", card="joe-4", t=3.7), mv(B, "draw", card="joe-5", t=3.8))
    state = ok(state, mv(A, "play", card="wisdom-1", pile=1, t=4.0))
    assert traps(state, B) == []
    ok(state, mv(B, "play", card="robot-6", pile=1, t=5.0))


@covers(R.ESCAPE, "legal", "illegal")
def test_an_escape_resolves_ones_own_trap() -> None:
    state = ok(seven(), mv(A, "trap", card="trap-up-1", target=B, t=2.0))
    verdict = bad(state, mv(A, "escape", card="escape-1", trap="trap-up-1", t=3.0), R.ESCAPE)
    assert "ben's action pile" in verdict.why
    bad(state, mv(B, "escape", card="escape-2", trap="trap-down-1", t=3.0), R.ESCAPE)  # not an active trap
    bad(state, mv(B, "escape", card="robot-8", t=3.0), R.ESCAPE)
    bad(state, mv(B, "escape", card="escape-2", discard="robot-6", t=3.0), R.ESCAPE)  # a plain Escape discards nothing
    state = ok(state, mv(B, "escape", card="escape-2", t=3.0))  # ben's one trap, unnamed
    assert traps(state, B) == []
    assert GAME.view(state, B)["history"] == ["escape-2", "trap-up-1"]
    ok(state, mv(B, "play", card="robot-6", pile=1, t=4.0))


@covers(R.ESCAPE, "legal")
def test_a_discard_escape_discards_even_untrapped_and_even_a_doom_master() -> None:
    state = seven()
    state = ok(state, mv(B, "escape", card="escape-discard-1", discard="doom-Q", t=2.0))
    assert "doom-Q" not in hand(state, B) and GAME.view(state, B)["history"] == ["escape-discard-1", "doom-Q"]
    assert GAME.public_move(mv(B, "escape", card="escape-discard-1", discard="doom-Q")) == {
        "by": B, "do": "escape", "card": "escape-discard-1"}


@covers(R.WISDOM_KEEP, "illegal", "legal")
def test_a_wisdom_is_never_discarded() -> None:
    state = seven()
    bad(state, mv(B, "escape", card="escape-discard-1", discard="wisdom-2", t=2.0), R.WISDOM_KEEP)
    bad(state, mv(B, "discard_special", cards=["wisdom-2"], t=2.0), R.WISDOM_KEEP)
    bad(state, mv(B, "discard", card="wisdom-2", t=2.0), R.WISDOM_KEEP)
    ok(state, mv(B, "play", card="wisdom-2", pile=1, t=2.0))  # it can only be played


@covers(R.SPECIAL, "legal", "illegal")
def test_special_cards_go_to_the_history_pile_at_will() -> None:
    state = seven()
    state = ok(state, mv(B, "discard_special", cards=["dead-end", "escape-2"], t=2.0))
    assert GAME.view(state, B)["history"] == ["dead-end", "escape-2"]
    assert GAME.public_move(mv(B, "discard_special", cards=["dead-end"])) == {"by": B, "do": "discard_special"}
    verdict = bad(state, mv(B, "discard_special", cards=["robot-8"], t=3.0), R.SPECIAL)
    assert "robot-8" not in verdict.why  # the card goes face down: the log does not name it
    bad(state, mv(B, "discard_special", cards=["doom-Q"], t=3.0), R.SPECIAL)


@covers(R.DISCARD, "legal", "illegal")
def test_a_discard_is_used_from_a_discard_escape_played_alone() -> None:
    state = seven()
    bad(state, mv(B, "discard", card="robot-6", t=2.0), R.DISCARD)
    state = ok(state, mv(B, "escape", card="escape-discard-1", t=2.0))
    assert GAME.view(state, B)["discards"] == 1
    state = ok(state, mv(B, "discard", card="robot-6", t=3.0))
    assert "robot-6" not in hand(state, B) and GAME.view(state, B)["discards"] == 0
    bad(state, mv(B, "discard", card="robot-8", t=4.0), R.DISCARD)


@covers(R.ALLIANCE, "legal", "illegal")
def test_teammates_escape_each_others_traps_and_are_never_trapped_by_each_other() -> None:
    hands = {A: ["start-1", "trap-up-1", "teen-8"], B: ["robot-9", "escape-1", "escape-discard-1", "robot-2"],
             C: ["trap-down-1", "teen-9"], D: ["escape-2", "joe-3"]}
    teams = [[A, C], [B, D]]
    state = ok(started(hands, options={"teams": teams}), mv(A, "play", card="start-1", pile="new", t=1.0))
    bad(state, mv(A, "trap", card="trap-up-1", target=C, t=2.0), R.ALLIANCE)
    state = ok(state, mv(A, "trap", card="trap-up-1", target=D, t=2.0))
    state = ok(state, mv(B, "escape", card="escape-1", trap="trap-up-1", t=3.0))  # ben frees his teammate dora
    assert GAME.scoreboard(state)["traps"][D] == []
    state = ok(state, mv(C, "trap", card="trap-down-1", target=D, t=4.0))
    verdict = bad(state, mv(B, "escape", card="escape-discard-1", trap="trap-down-1", discard="joe-3", t=5.0), R.ALLIANCE)
    assert "only its own player" in verdict.why
    ok(state, mv(B, "escape", card="escape-discard-1", trap="trap-down-1", discard="robot-2", t=5.0))
    assert GAME.view(state, B)["teammate_hand"] == ["escape-2", "joe-3"]


def test_a_trap_on_a_player_who_is_out_or_unknown() -> None:
    state = seven()
    bad(state, mv(A, "trap", card="trap-up-1", target="zoe", t=2.0), R.WHO)


@covers(R.BEAST, "legal", "illegal")
def test_the_ninja_pose_defuses_a_trap_in_beast_mode() -> None:
    from companion.games.escape_master.state import replace

    hands = {A: ["start-1", "trap-up-1", "teen-8"], B: ["robot-6", "robot-9"]}
    state = ok(started(hands, leaders={B: "ninja"}), mv(A, "play", card="start-1", pile="new", t=1.0),
               mv(A, "trap", card="trap-up-1", target=B, t=2.0))
    bad(state, mv(B, "defuse", trap="trap-up-1", t=3.0), R.BEAST)  # not in Beast Mode
    beast = state._replace(mods=replace(state.mods, beast=(False, True)))
    beast = ok(beast, mv(B, "defuse", trap="trap-up-1", t=3.0))
    assert GAME.scoreboard(beast)["traps"][B] == []
    ok(beast, mv(B, "play", card="robot-6", pile=1, t=4.0))
