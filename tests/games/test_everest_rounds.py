"""Plans, the order of the coins, damage, healing, going home, and the win."""

from __future__ import annotations

import json
from typing import Any

from companion.core import Termination
from companion.games.everest import GAME
from companion.games.everest.state import EverestState, Phase
from tests.games.test_everest_support import (
    A,
    B,
    C,
    D,
    at,
    covers,
    mv,
    placed,
    plan,
    plans,
    play,
    refused,
    roll,
    start,
)


def seat(name: str) -> int:
    return (A, B, C, D).index(name)


def with_coins(state: EverestState, **usable: int) -> EverestState:
    aside = list(state.aside)
    for name, n in usable.items():
        aside[seat(name)] = 6 - n
    return state.evolve(aside=tuple(aside))


# -- plans ------------------------------------------------------------------------------------------


@covers("EV-PLAYER", "legal", "illegal")
def test_only_players_plan() -> None:
    state = start()
    refused(state, plan("zoe", "3E", "2E", "AE"), "EV-PLAYER")
    refused(state, mv(None, "plan", coins=[]), "EV-PLAYER")
    play(state, plan(A, "3E", "2E", "AE"))


@covers("EV-PLAN-TIME", "legal", "illegal")
def test_plans_are_made_before_the_reveal() -> None:
    state = play(start(), plan(A, "AS", "2S", "3S"))
    state = play(state, plan(A, "AE", "2E", "3E"))  # a plan may be remade until all are in
    assert state.plans[0] is not None and state.plans[0][0].dir == "E"
    state = placed({A: (2, 6), B: (6, 6)})
    state = play(state, plan(A, "2E", "sAN", "s3N"), plan(B, "2W", "sAN", "s3N"), plan(C, "sAE", "s2E", "s3E"), plan(D, "sAW", "s2W", "s3W"))
    assert state.phase is Phase.RESOLVE  # waiting for conflict dice
    refused(state, plan(A, "AE", "2E", "3E"), "EV-PLAN-TIME")


@covers("EV-PLAN-COINS", "legal", "illegal")
def test_a_plan_uses_each_usable_coin_once() -> None:
    state = start()
    refused(state, plan(A, "3E", "3N", "AE"), "EV-PLAN-COINS")
    refused(state, plan(A, "3E", "s3N", "AE"), "EV-PLAN-COINS")  # the 3 coin, either side up
    two = with_coins(state, anna=2)
    refused(two, plan(A, "3E", "2E", "AE"), "EV-PLAN-COINS")
    play(two, plan(A, "3E", "2E"))
    none = with_coins(state, anna=0)
    refused(none, plan(A), "EV-PLAN-COINS")
    named = state.evolve(aside=(1, 0, 0, 0), aside_known=(frozenset({"5"}), frozenset(), frozenset(), frozenset()))
    refused(named, plan(A, "5E", "2E", "AE"), "EV-PLAN-COINS")
    play(named, plan(A, "4E", "2E", "AE"))


def test_a_plan_of_more_than_three_coins_is_not_notation() -> None:
    import pytest

    from companion.core.errors import NotationError

    with pytest.raises(NotationError, match="at most 3 coins"):
        plan(A, "3E", "2E", "AE", "4E")
    with pytest.raises(NotationError, match='"dir"'):
        mv(A, "plan", coins=[{"coin": "3", "face": "value", "dir": "NE"}])


@covers("EV-PLAN-THREE", "legal", "illegal")
def test_three_coins_if_you_have_them() -> None:
    state = start()
    refused(state, plan(A, "3E", "2E"), "EV-PLAN-THREE")
    refused(with_coins(state, anna=3), plan(A, "3E"), "EV-PLAN-THREE")
    play(state, plan(A, "3E", "2E", "AE"))


@covers("EV-DAZED", "legal", "illegal")
def test_missing_coins_stand_there_and_look_dazed() -> None:
    state = with_coins(placed({A: (1, 1)}), anna=1, ben=0)
    assert [p.who for p in GAME.prompts(state)] == [A, C, D]  # ben has no coin to plan with
    state = plans(state, anna=["AE"])
    assert state.plans[1] == ()
    assert at(state, A) == (2, 1)  # the ace, then two dazed actions
    assert state.phase is Phase.ROUND_END
    assert "ben: stands dazed" in state.events[0]
    assert "EV-DAZED: coin 3: anna's yeti stands there and looks dazed" in state.events


@covers("EV-SIMULTANEOUS", "legal", "illegal")
def test_every_first_coin_before_any_second_coin() -> None:
    state = placed({A: (1, 1), B: (1, 6)})
    state = plans(state, anna=["AE", "2E", "3E"], ben=["AE", "2E", "3E"])
    moves = [e for e in state.events if e.startswith("EV-MOVE")]
    assert [m.split("'")[0] for m in moves] == ["EV-MOVE: anna", "EV-MOVE: ben"] * 3
    assert at(state, A) == (7, 1) and at(state, B) == (7, 6)


@covers("EV-SECRET", "legal", "illegal")
def test_plans_stay_secret_until_all_are_in() -> None:
    state = play(start(), plan(A, "3E", "2E", "AE"))
    board = GAME.scoreboard(state)
    assert board["planned"] == [A] and board["plans"] == {}
    text = json.dumps(board) + json.dumps(GAME.view(state, B)) + json.dumps(state.events)
    assert '"3"' not in text and "move 3" not in text
    assert GAME.view(state, A)["plan"][0] == {"coin": "3", "face": "value", "dir": "E"}
    assert GAME.view(state, B)["plan"] is None
    assert GAME.view(state, None)["plans"][A][0]["coin"] == "3"
    assert "coins" not in GAME.public_move(plan(A, "3E", "2E", "AE"))
    state = plans(state)
    assert GAME.scoreboard(state)["plans"][A][0] == {"coin": "3", "face": "value", "dir": "E"}


# -- the end of a round -----------------------------------------------------------------------------


def fallen(**options: Any) -> EverestState:
    """anna falls twice coming down the north face (2 damage); the others idle."""
    state = placed({A: (4, 4)}, **options)
    return plans(state, anna=["2N", "sAW", "s3W"])


@covers("EV-ROUND-END", "legal", "illegal")
def test_the_round_ends_when_every_coin_is_done() -> None:
    state = start()
    refused(state, mv(None, "end_round", heal=[]), "EV-ROUND-END")
    state = fallen()
    assert state.phase is Phase.ROUND_END
    # the table ends the round; each player may first make their own (optional) choice
    assert [(p.who, p.verb) for p in GAME.prompts(state)] == [(None, "end_round"), (A, "heal"), (B, "heal"), (C, "heal"), (D, "heal")]
    assert "name the 2 coins to set aside" in GAME.prompts(state)[1].text
    refused(state, mv(A, "roll", value="3"), "EV-ROLL")
    refused(state, mv("zoe", "end_round", heal=[]), "EV-PLAYER")
    after = play(state, mv(None, "end_round", heal=[]))
    assert after.round == 2 and after.phase is Phase.PLAN


@covers("EV-DAMAGE", "legal", "illegal")
def test_damage_sets_coins_aside() -> None:
    state = fallen()
    assert GAME.scoreboard(state)["damage"][A] == 2
    refused(state, mv(None, "end_round", set_aside={A: ["5"]}), "EV-DAMAGE")
    refused(state, mv(None, "end_round", set_aside={A: ["5", "5"]}), "EV-DAMAGE")
    refused(state, mv(None, "end_round", set_aside={B: ["5"]}), "EV-DAMAGE")
    after = play(state, mv(None, "end_round", set_aside={A: ["5", "4"]}))
    board = GAME.scoreboard(after)
    assert board["coins"][A] == 4 and board["damage"][A] == 0
    assert board["set_aside"][A] == {"count": 2, "coins": ["4", "5"]}  # which coins, not only a count
    assert "EV-DAMAGE: anna sets aside 2 coins (4, 5)" in after.events
    assert at(after, A) == (4, 6)  # a damaged yeti stays where it is
    refused(after, plan(A, "5E", "2E", "AE"), "EV-PLAN-COINS")
    play(after, plan(A, "3E", "2E", "AE"))
    unnamed = play(state, mv(None, "end_round"))
    assert GAME.scoreboard(unnamed)["coins"][A] == 4
    assert GAME.scoreboard(unnamed)["set_aside"][A] == {"count": 2, "coins": []}


@covers("EV-HEAL", "legal", "illegal")
def test_going_home_heals() -> None:
    state = play(fallen(), mv(None, "end_round", heal=[A, C]))  # cleo may heal undamaged
    assert at(state, A) == (1, 5) and GAME.scoreboard(state)["coins"][A] == 6
    refused(fallen(), mv(None, "end_round", heal=["zoe"]), "EV-PLAYER")
    refused(fallen(), mv(None, "end_round", heal=[A, A]), "EV-PLAYER")
    refused(fallen(), mv(None, "end_round", heal=[A], set_aside={A: ["5", "4"]}), "EV-DAMAGE")


def test_each_player_chooses_on_their_own_entry() -> None:
    # issue #17: one player's mistake refuses only that player's choice.
    state = off_the_edge()  # anna went off the edge: she may not heal this round
    refused(state, mv(A, "heal"), "EV-EDGE-HOME")
    refused(state, mv("zoe", "heal"), "EV-PLAYER")
    refused(start(), mv(C, "heal"), "EV-ROUND-END")
    state = play(state, mv(C, "heal"), mv(D, "heal"))
    assert state.heal_chosen == frozenset({2, 3}) and state.phase is Phase.ROUND_END
    assert "EV-HEAL: cleo chooses to go home and heal at the end of the round" in state.events
    assert [p.who for p in GAME.prompts(state) if p.verb == "heal"] == [B]  # anna barred; cleo and dev chose
    after = play(state, mv(None, "end_round"))
    assert (at(after, C), at(after, D), at(after, A)) == ((8, 2), (1, 2), (1, 5))
    assert any(e == "EV-HEAL: cleo's yeti goes home to heal; all its coins come back" for e in after.events)
    # the table-wide end_round carrying every choice still works, alone or with the entries
    both = play(off_the_edge(), mv(C, "heal"), mv(None, "end_round", heal=[D]))
    assert (at(both, C), at(both, D)) == ((8, 2), (1, 2))


def test_a_player_names_their_own_coins_to_set_aside() -> None:
    state = fallen()  # anna: 2 damage
    refused(state, mv(A, "set_aside", coins=["5"]), "EV-DAMAGE")
    refused(state, mv(B, "set_aside", coins=["5"]), "EV-DAMAGE")  # ben took no damage
    state = play(state, mv(A, "set_aside", coins=["5", "4"]), mv(C, "heal"))
    after = play(state, mv(None, "end_round"))
    assert after.aside_known[0] == frozenset({"5", "4"}) and at(after, C) == (8, 2)
    # the latest entry stands: healing after naming coins heals
    healed = play(fallen(), mv(A, "set_aside", coins=["5", "4"]), mv(A, "heal"), mv(None, "end_round"))
    assert at(healed, A) == (1, 5) and healed.aside[0] == 0
    # the table-wide end_round may not name coins for a player whose own entry heals
    refused(play(fallen(), mv(A, "heal")), mv(None, "end_round", set_aside={A: ["5", "4"]}), "EV-DAMAGE")


@covers("EV-FORCED-HOME", "legal", "illegal")
def test_more_damage_than_coins_forces_a_yeti_home() -> None:
    state = with_coins(placed({A: (4, 4)}), anna=2)
    state = plans(state, anna=["2N", "sAW"])
    assert "forced home to heal: anna" in GAME.prompts(state)[0].text
    after = play(state, mv(None, "end_round"))
    assert at(after, A) == (1, 5) and after.aside[0] == 0
    assert any(e.startswith("EV-FORCED-HOME") for e in after.events)
    # 2 damage with 3 coins: not forced; the yeti stays with 1 coin.
    state = plans(with_coins(placed({A: (4, 4)}), anna=3), anna=["2N", "sAW", "s3W"])
    after = play(state, mv(None, "end_round"))
    assert at(after, A) == (4, 6) and after.usable(0) == 1


def off_the_edge(**options: Any) -> EverestState:
    state = placed({A: (2, 6)}, **options)
    return plans(state, anna=["3W", "2E", "AE"])  # off the west edge; the rest is cancelled


@covers("EV-EDGE", "legal")
@covers("EV-EDGE-HOME", "legal", "illegal")
def test_off_the_edge_goes_home_without_coins_and_no_healing() -> None:
    state = off_the_edge()
    assert at(state, A) is None and GAME.scoreboard(state)["off_board"] == [A]
    assert not any("anna's yeti moves E" in e for e in state.events)  # remaining actions cancelled
    refused(state, mv(None, "end_round", heal=[A]), "EV-EDGE-HOME")
    state = play(state, mv(None, "end_round"))
    assert at(state, A) == (1, 5)
    # The next round it may heal again (the end of the next round).
    state = plans(state)
    play(state, mv(None, "end_round", heal=[A]))


def test_off_the_edge_options() -> None:
    state = play(off_the_edge(edge_no_heal_rounds=2), mv(None, "end_round"))
    state = plans(state)
    refused(state, mv(None, "end_round", heal=[A]), "EV-EDGE-HOME")
    state = play(off_the_edge(edge_sets_aside_all=True), mv(None, "end_round"))
    assert state.usable(0) == 0
    assert [p.who for p in GAME.prompts(state)] == [B, C, D]


def test_a_damaged_yeti_off_the_edge_keeps_its_coins_aside() -> None:
    state = placed({A: (4, 4)})
    state = plans(state, anna=["3N", "2E", "AE"])  # two falls, then off the north edge
    assert at(state, A) is None and state.damage[0] == 2
    assert [(p.who, p.verb) for p in GAME.prompts(state) if p.who == A] == [(A, "set_aside")]  # it may not heal
    refused(state, mv(A, "heal"), "EV-EDGE-HOME")
    named = play(state, mv(A, "set_aside", coins=["5", "4"]), mv(None, "end_round"))
    assert named.aside_known[0] == frozenset({"5", "4"}) and at(named, A) == (1, 5)
    state = play(state, mv(None, "end_round"))
    assert at(state, A) == (1, 5) and state.usable(0) == 4


@covers("EV-HOME", "legal", "illegal")
def test_a_yeti_on_someone_elses_home_moves_to_its_own() -> None:
    state = placed({B: (1, 5), A: (2, 6)})  # ben stands on anna's home
    state = plans(state, anna=["3W", "2E", "AE"], ben=["sBW", "sAW", "s2W"])
    state = play(state, mv(None, "end_round"))
    assert at(state, A) == (1, 5) and at(state, B) == (8, 5)


# -- the win ------------------------------------------------------------------------------------------


def on_the_peak() -> EverestState:
    """Round 1: anna climbs from (3,3) onto the peak at (4,3); round 2 begins with her alone there."""
    state = plans(placed({A: (3, 3)}), anna=["2E", "sAN", "s3N"])
    assert at(state, A) == (4, 3) and GAME.outcome(state) is None  # she did not start the round there
    state = play(state, mv(None, "end_round"))
    assert GAME.scoreboard(state)["peak_holder"] == A and GAME.scoreboard(state)["peak"] == A
    return state


@covers("EV-WIN", "legal", "illegal")
def test_sole_occupant_of_the_peak_for_a_whole_round_wins() -> None:
    state = plans(on_the_peak(), anna=["sAN", "s2N", "s3N"])
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.to_json() == {"winner": A} and outcome.winners == (A,)
    assert outcome.termination is Termination.GOAL
    assert state.phase is Phase.OVER and GAME.scoreboard(state)["winner"] == A
    assert GAME.judge(state, mv(None, "end_round")).rules == ("GAME-OVER",)


def test_sharing_the_peak_spoils_the_win() -> None:
    state = on_the_peak()
    state = state.evolve(positions=(state.positions[0], (5, 4)) + state.positions[2:])
    state = plans(state, anna=["sAN", "s2N", "s3N"], ben=["sAN", "s2N", "s3N"])
    assert GAME.outcome(state) is None and GAME.scoreboard(state)["peak"] is None


def test_a_roll_from_a_player_not_asked_is_refused() -> None:
    refused(start(), roll(A, "3"), "EV-ROLL")
