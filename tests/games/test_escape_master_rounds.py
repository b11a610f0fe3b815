"""A round from deal to count, faults, the end of the game and its variants."""

from __future__ import annotations

from typing import Any

from companion.core import Termination
from companion.games.escape_master import GAME
from companion.games.escape_master import rules as R
from companion.games.escape_master.state import State
from tests.games.test_escape_master_support import A, B, C, D, bad, covers, dealt, mv, ok, started

ROUND = {A: ["start-1", "teen-8"], B: ["robot-2", "doom-K", "trap-up-1"]}


def anna_out(**kwargs: Any) -> State:
    """anna plays her two cards and calls Escape Master! at 5.0 s; ben is left with 5 faults in hand."""
    state = ok(started(ROUND, **kwargs), mv(A, "play", card="start-1", pile="new", t=1.0),
               mv(A, "play", card="teen-8", pile=1, t=2.0))
    return ok(state, mv(A, "out", t=5.0))


def over(**kwargs: Any) -> State:
    return ok(anna_out(**kwargs), mv(None, "end_round"))


@covers(R.START, "legal", "illegal")
def test_the_dealer_calls_start_and_nobody_plays_before() -> None:
    state = dealt(ROUND)
    assert GAME.scoreboard(state)["phase"] == "waiting_for_start"
    verdict = bad(state, mv(A, "play", card="start-1", pile="new", t=0.5), R.START)
    assert "Start!" in verdict.why
    bad(state, mv(B, "start"), R.START)
    state = ok(state, mv(A, "start"))
    assert GAME.scoreboard(state)["phase"] == "playing"
    bad(state, mv(A, "start"), R.START)


@covers(R.FAULTS, "legal", "illegal")
def test_every_card_left_is_a_fault_and_a_doom_master_three() -> None:
    state = over()
    board = GAME.scoreboard(state)
    assert board["round_faults"] == {A: 0, B: 5} and board["faults"] == {A: 0, B: 5}
    assert board["rounds"] == [{"round": 1, "dealer": A, "faults": {A: 0, B: 5}, "ended": "escape_master", "out": [A]}]
    assert board["phase"] == "round_over" and board["dealer"] == B


@covers(R.OUT, "legal", "illegal")
def test_escape_master_needs_an_empty_hand() -> None:
    state = ok(started(ROUND), mv(A, "play", card="start-1", pile="new", t=1.0))
    verdict = bad(state, mv(A, "out", t=1.5), R.OUT)
    assert verdict.why.startswith("anna still holds 1 card;")
    bad(state, mv(None, "out"), R.WHO)
    state = ok(state, mv(A, "play", card="teen-8", pile=1, t=2.0), mv(A, "out", t=3.0))
    assert GAME.scoreboard(state)["phase"] == "counting" and GAME.scoreboard(state)["out"] == [A]


@covers(R.STOPPED, "illegal", "legal")
def test_everyone_stops_at_the_call_but_the_same_moment_counts() -> None:
    hands = {A: ["start-1", "teen-8"], B: ["robot-9", "robot-K"]}
    state = ok(started(hands), mv(A, "play", card="start-1", pile="new", t=1.0),
               mv(A, "play", card="teen-8", pile=1, t=2.0), mv(A, "out", t=5.0))
    verdict = bad(state, mv(B, "play", card="robot-9", pile=1, t=6.0), R.STOPPED)
    assert "this play came 1.000 s after it" in verdict.why
    bad(state, mv(B, "play", card="robot-9", pile=1), R.STOPPED)  # no time: after the call
    state = ok(state, mv(B, "play", card="robot-9", pile=1, t=5.3))  # within out_window_s of the call
    assert GAME.scoreboard(state)["hand_sizes"][B] == 1


@covers(R.STOPPED, "legal")
def test_two_players_out_at_the_same_moment_both_score_nothing() -> None:
    hands = {A: ["start-1", "teen-8"], B: ["robot-9"], C: ["joe-5"]}
    state = ok(started(hands), mv(A, "play", card="start-1", pile="new", t=1.0),
               mv(A, "play", card="teen-8", pile=1, t=2.0), mv(A, "out", t=2.1))
    state = ok(state, mv(B, "play", card="robot-9", pile=1, t=2.05), mv(B, "out", t=2.2), mv(None, "end_round"))
    assert GAME.scoreboard(state)["round_faults"] == {A: 0, B: 0, C: 1}
    assert GAME.scoreboard(state)["rounds"][0]["out"] == [A, B]


@covers(R.ROUND_END, "legal", "illegal")
def test_a_round_ends_by_the_call_or_an_empty_draw_pile_with_nothing_to_play() -> None:
    state = ok(started(ROUND), mv(A, "play", card="start-1", pile="new", t=1.0))
    verdict = bad(state, mv(None, "end_round"), R.ROUND_END)
    assert "draw pile still holds" in verdict.why
    empty = state._replace(rnd=state.rnd._replace(draw_pile=frozenset()))
    bad(empty, mv(None, "end_round"), R.ROUND_END)  # anna can still play her 8
    empty = ok(empty, mv(A, "play", card="teen-8", pile=1, t=2.0))
    stuck = empty._replace(rnd=empty.rnd._replace(hands=(frozenset({"joe-3"}), empty.rnd.hands[1])))
    done = ok(stuck, mv(None, "end_round"))
    assert GAME.scoreboard(done)["rounds"][0]["ended"] == "draw_pile_empty"
    assert GAME.scoreboard(done)["round_faults"] == {A: 1, B: 5}
    bad(done, mv(None, "end_round"), R.ROUND_END)


@covers(R.HANDS, "illegal", "legal")
def test_the_count_may_add_missed_draws_but_never_lose_a_registered_card() -> None:
    state = anna_out()
    verdict = bad(state, mv(None, "end_round", hands={B: ["robot-2", "doom-K"]}), R.HANDS)
    assert verdict.why == "the count of ben's hand misses 1 card(s) the log has there"  # names no hidden card
    verdict = bad(state, mv(None, "end_round", hands={B: ["robot-2", "doom-K", "trap-up-1", "teen-8"]}), R.HANDS)
    assert verdict.why == "teen-8 cannot be in ben's hand: it is on pile 1"
    done = ok(state, mv(None, "end_round", hands={B: ["robot-2", "doom-K", "trap-up-1", "joe-4"]}))
    assert GAME.scoreboard(done)["round_faults"][B] == 6


@covers(R.DEAL, "legal", "illegal")
def test_the_next_round_is_dealt_from_the_whole_deck() -> None:
    state = over()
    bad(state, mv(B, "deal", hands={A: ["teen-8"]}), R.DEAL)  # no hand for ben
    bad(state, mv(B, "deal", hands={A: ["teen-8"], B: ["teen-8"]}), R.DEAL)
    bad(started(ROUND), mv(A, "deal", hands={A: ["teen-9"], B: ["teen-10"]}), R.DEAL)  # mid-round
    state = ok(state, mv(B, "deal", hands={A: ["teen-8", "start-1"], B: ["start-2", "robot-2"]}))
    board = GAME.scoreboard(state)
    assert board["round"] == 2 and board["phase"] == "waiting_for_start" and board["round_faults"] == {A: 0, B: 0}
    assert board["piles"] == [] and board["hand_sizes"] == {A: 2, B: 2}
    assert GAME.public_move(mv(B, "deal", hands={A: ["teen-8"], B: ["teen-9"]})) == {"by": B, "do": "deal"}


@covers(R.DEAL, "illegal", "legal")
def test_start_checks_each_hand_holds_its_cards() -> None:
    options = {"check_deal_size": True, "hand_size": 2}
    state = dealt({A: ["start-1", "teen-8"], B: ["robot-2"]}, options=options)
    verdict = bad(state, mv(A, "start"), R.DEAL)
    assert verdict.why == "ben holds 1 card but starts this round with 2"
    state = ok(state, mv(B, "dealt", card="joe-3"), mv(A, "start"))
    mouse = dealt({A: ["start-1"], B: ["robot-2", "joe-4"]}, options=options, leaders={A: "mouse"})
    ok(mouse, mv(A, "start"))  # the Mouse leader starts with one card fewer (leaders.json)


@covers(R.DEALER, "legal", "illegal")
def test_the_deal_passes_clockwise() -> None:
    state = over()
    verdict = bad(state, mv(A, "deal", hands={A: ["teen-8"], B: ["teen-9"]}), R.DEALER)
    assert verdict.why == "ben deals this round, not anna"
    state = ok(state, mv(B, "deal", hands={A: ["start-1", "teen-8"], B: ["robot-2", "teen-9"]}))
    bad(state, mv(A, "start"), R.START)
    state = ok(state, mv(B, "start"), mv(A, "play", card="start-1", pile="new", t=1.0),
               mv(A, "play", card="teen-8", pile=1, t=2.0), mv(A, "out", t=3.0), mv(None, "end_round"))
    assert GAME.scoreboard(state)["dealer"] == A


def test_a_round_dealt_card_by_card() -> None:
    state = ok(over(), mv(A, "dealt", card="start-1", t=1.0))
    assert GAME.scoreboard(state)["phase"] == "dealing" and GAME.scoreboard(state)["round"] == 2
    state = ok(state, mv(B, "dealt", card="robot-9", t=1.1), mv(A, "dealt", card="teen-8", t=1.2))
    bad(state, mv(B, "dealt", card="teen-8", t=1.3), R.UNSEEN)
    bad(state, mv(B, "deal", hands={A: ["teen-9"], B: ["teen-10"]}), R.DEAL)
    state = ok(state, mv(B, "start", t=2.0))
    assert GAME.view(state, A)["hand"] == ["start-1", "teen-8"]


@covers(R.BREAKING_POINT, "legal", "illegal")
def test_the_game_ends_at_the_breaking_point_fewest_faults_win() -> None:
    going = over(options={"breaking_point": 6})
    assert GAME.outcome(going) is None  # 5 faults: not yet
    state = over(options={"breaking_point": 5})
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (A,) and outcome.termination is Termination.BREAKING_POINT
    assert outcome.to_json() == {"winner": A, "reason": "ben reached the Breaking Point with 5 faults; fewest faults: 0"}
    assert GAME.scoreboard(state)["phase"] == "game_over"
    assert GAME.judge(state, mv(B, "deal", hands={A: [], B: []})).rules == ("GAME-OVER",)


@covers(R.TIE, "legal", "illegal")
def test_players_tied_for_the_win_play_an_extra_round() -> None:
    hands = {A: ["start-1", "teen-8"], B: ["start-2", "robot-8"], C: ["joe-3", "joe-4", "joe-5"]}
    state = ok(started(hands, options={"breaking_point": 3}), mv(A, "play", card="start-1", pile="new", t=1.0),
               mv(A, "play", card="teen-8", pile=1, t=2.0), mv(B, "play", card="start-2", pile="new", t=2.1),
               mv(B, "play", card="robot-8", pile=2, t=2.2), mv(A, "out", t=2.3), mv(B, "out", t=2.4),
               mv(None, "end_round"))
    assert GAME.outcome(state) is None
    board = GAME.scoreboard(state)
    assert board["tiebreak"] == [A, B] and board["dealer"] == B
    verdict = bad(state, mv(B, "deal", hands={A: ["teen-9"], B: ["teen-10"], C: ["joe-9"]}), R.TIE)
    assert "extra round" in verdict.why
    state = ok(state, mv(B, "deal", hands={A: ["start-1", "teen-8"], B: ["start-2", "robot-K"]}), mv(B, "start"),
               mv(A, "play", card="start-1", pile="new", t=1.0), mv(A, "play", card="teen-8", pile=1, t=2.0),
               mv(A, "out", t=3.0), mv(None, "end_round"))
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.to_json() == {
        "winner": A, "reason": "the extra round for the tie decides; fewest faults: 0"}
    assert outcome.termination is Termination.TIE_ROUND
    assert GAME.scoreboard(state)["faults"] == {A: 0, B: 2, C: 3}


@covers(R.TIE, "legal")
def test_without_the_extra_round_a_tie_shares_the_win() -> None:
    hands = {A: ["start-1"], B: ["start-2"], C: ["joe-3", "joe-4", "joe-5"]}
    state = ok(started(hands, options={"breaking_point": 3, "tie_extra_round": False}),
               mv(A, "play", card="start-1", pile="new", t=1.0), mv(B, "play", card="start-2", pile="new", t=1.0),
               mv(A, "out", t=1.1), mv(B, "out", t=1.2), mv(None, "end_round"))
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.to_json()["winner"] == [A, B] and outcome.winners == (A, B)


@covers(R.FIXED_ROUNDS, "legal", "illegal")
def test_fixed_rounds_replace_the_breaking_point() -> None:
    state = over(options={"fixed_rounds": 2, "breaking_point": 1})
    assert GAME.outcome(state) is None  # ben is past 1 fault, but two rounds are played
    state = ok(state, mv(B, "deal", hands={A: ["start-1", "teen-8"], B: ["robot-2"]}), mv(B, "start"),
               mv(A, "play", card="start-1", pile="new", t=1.0), mv(A, "play", card="teen-8", pile=1, t=2.0),
               mv(A, "out", t=3.0), mv(None, "end_round"))
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.to_json() == {"winner": A, "reason": "the 2 fixed rounds are played; fewest faults: 0"}
    assert outcome.termination is Termination.LAST_ROUND


@covers(R.EARLY_END, "legal", "illegal")
def test_early_end_when_the_doom_pile_holds_every_doom_master() -> None:
    hands = {A: ["start-1", "teen-8"], B: ["doom-J", "doom-Q", "robot-2"]}
    options = {"early_end_doom_pile": True}
    state = ok(started(hands, options=options), mv(A, "play", card="start-1", pile="new", t=1.0),
               mv(A, "play", card="teen-8", pile=1, t=2.0), mv(A, "out", t=3.0), mv(None, "end_round"))
    assert GAME.outcome(state) is None and GAME.scoreboard(state)["doom_pile"] == ["doom-J", "doom-Q"]
    verdict = bad(state, mv(B, "deal", hands={A: ["doom-J"], B: ["robot-2"]}), R.EARLY_END)
    assert verdict.why == "doom-J is on the Doom pile, out of the game"
    state = ok(state, mv(B, "deal", hands={A: ["start-1", "teen-8"], B: ["doom-K"]}), mv(B, "start"),
               mv(A, "play", card="start-1", pile="new", t=1.0), mv(A, "play", card="teen-8", pile=1, t=2.0),
               mv(A, "out", t=3.0), mv(None, "end_round"))
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.to_json()["reason"].startswith("the Doom pile holds every Doom Master card")
    assert outcome.termination is Termination.DOOM_PILE


@covers(R.ALLIANCE, "legal", "illegal")
def test_a_team_round_ends_when_both_members_are_out_and_team_scores_decide() -> None:
    hands = {A: ["start-1"], B: ["robot-2", "robot-3"], C: ["start-2"], D: ["joe-3"]}
    options = {"teams": [[A, C], [B, D]], "breaking_point": 3}
    state = ok(started(hands, options=options), mv(A, "play", card="start-1", pile="new", t=1.0), mv(A, "out", t=1.1))
    assert GAME.scoreboard(state)["phase"] == "playing"  # carl, anna's teammate, still holds a card
    bad(state, mv(A, "out", t=1.2), R.OUT)
    state = ok(state, mv(C, "play", card="start-2", pile="new", t=1.3), mv(C, "out", t=1.4))
    assert GAME.scoreboard(state)["phase"] == "counting"
    state = ok(state, mv(None, "end_round"))
    board = GAME.scoreboard(state)
    assert board["rounds"][0]["ended"] == "escape_alliance"
    assert board["teams"] == [{"players": [A, C], "faults": 0, "round_faults": 0},
                              {"players": [B, D], "faults": 3, "round_faults": 3}]
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.to_json() == {
        "winner": [A, C], "reason": "ben & dora reached the Breaking Point with 3 faults; fewest faults: 0"}


@covers(R.STORY, "legal", "illegal")
def test_the_player_with_most_faults_this_round_draws_a_story_card() -> None:
    state = over()
    board = GAME.scoreboard(state)
    assert board["story"] == {"eligible": [B], "why": "ben had the most faults this round (5)", "drawn": False}
    assert bad(state, mv(A, "story", card=9), R.STORY).why.startswith("anna may not draw a Story card: ben had")
    bad(state, mv(B, "story", card=13), R.STORY)
    bad(state, mv(B, "story", card=6), R.STORY)  # card 6 names a player
    state = ok(state, mv(B, "story", card=9))
    assert GAME.scoreboard(state)["stories"] == {B: 9}
    bad(state, mv(B, "story", card=4), R.STORY)  # one card per round
    # card 9 takes a fault off ben's score at the end of the round it is used in
    state = ok(state, mv(B, "deal", hands={A: ["start-1", "teen-8"], B: ["robot-2"]}), mv(B, "start"),
               mv(A, "play", card="start-1", pile="new", t=1.0), mv(A, "play", card="teen-8", pile=1, t=2.0),
               mv(A, "out", t=3.0), mv(None, "end_round"))
    assert GAME.scoreboard(state)["faults"] == {A: 0, B: 5}  # 5 + 1 - 1
    assert GAME.scoreboard(state)["xp"] == {A: 0, B: 1}


@covers(R.STORY, "legal", "illegal")
def test_story_ties_go_to_the_highest_total_then_nobody() -> None:
    hands = {A: ["start-1", "teen-8"], B: ["robot-2"], C: ["joe-2"]}
    state = ok(started(hands), mv(A, "play", card="start-1", pile="new", t=1.0),
               mv(A, "play", card="teen-8", pile=1, t=2.0), mv(A, "out", t=3.0), mv(None, "end_round"))
    assert GAME.scoreboard(state)["story"]["eligible"] == []
    assert "nobody draws" in GAME.scoreboard(state)["story"]["why"]
    bad(state, mv(B, "story", card=1), R.STORY)
    state = state._replace(faults=(0, 4, 1))  # ben had more faults before: the total breaks the tie
    from companion.games.escape_master.scoring import story_eligibility

    assert story_eligibility(state)[0] == (1,)


@covers(R.XP, "legal", "illegal")
def test_a_used_story_card_becomes_experience_never_more_than_four() -> None:
    state = ok(over(), mv(B, "story", card=1))  # +2 XP, and ben starts with two extra cards
    state = state._replace(xp=(0, 3))
    state = ok(state, mv(B, "deal", hands={A: ["start-1", "teen-8"], B: ["robot-2"]}), mv(B, "start"),
               mv(A, "play", card="start-1", pile="new", t=1.0), mv(A, "play", card="teen-8", pile=1, t=2.0),
               mv(A, "out", t=3.0), mv(None, "end_round"))
    assert GAME.scoreboard(state)["xp"] == {A: 0, B: 4}  # 3 + 2, capped


@covers(R.BEAST, "legal", "illegal")
def test_beast_mode_costs_two_xp_and_lasts_one_round() -> None:
    state = over(leaders={A: "joe", B: "joe"})
    verdict = bad(state, mv(B, "beast"), R.BEAST)
    assert verdict.why == "ben has 0 XP; Beast Mode needs 2"
    state = state._replace(xp=(0, 3))
    state = ok(state, mv(B, "beast"))
    board = GAME.scoreboard(state)
    assert board["beast"] == {A: False, B: True} and board["xp"] == {A: 0, B: 1}
    bad(state, mv(B, "beast"), R.BEAST)
    # the Joe leader (leaders.json: fault_cap) keeps ben to 3 faults this round in Beast Mode
    state = ok(state, mv(B, "deal", hands={A: ["start-1", "teen-8"], B: ["robot-2", "robot-3", "robot-4", "robot-5"]}),
               mv(B, "start"), mv(A, "play", card="start-1", pile="new", t=1.0),
               mv(A, "play", card="teen-8", pile=1, t=2.0), mv(A, "out", t=3.0), mv(None, "end_round"))
    board = GAME.scoreboard(state)
    assert board["round_faults"][B] == 3 and board["beast"] == {A: False, B: False}


@covers(R.LEADER, "legal", "illegal")
def test_leader_abilities_fault_cap_and_discarding_the_last_card() -> None:
    hands = {A: ["start-1", "teen-3"], B: ["robot-2", "robot-3", "robot-4", "robot-5", "robot-6", "robot-7"]}
    state = ok(started(hands, leaders={A: "robot", B: "joe"}), mv(A, "play", card="start-1", pile="new", t=1.0))
    bad(state, mv(A, "out", discard=["teen-3", "start-1"], t=2.0), R.LEADER)
    state = ok(state, mv(A, "out", discard=["teen-3"], t=2.0), mv(None, "end_round"))
    assert GAME.scoreboard(state)["round_faults"] == {A: 0, B: 5}  # the Joe leader: never more than 5
    plain = ok(started(hands), mv(A, "play", card="start-1", pile="new", t=1.0))
    bad(plain, mv(A, "out", discard=["teen-3"], t=2.0), R.LEADER)


@covers(R.LEADER, "legal", "illegal")
def test_a_story_card_lets_a_player_change_leaders() -> None:
    state = over(leaders={A: "joe", B: "mouse"})
    bad(state, mv(B, "leader", tribe="teen"), R.LEADER)
    state = ok(state, mv(B, "story", card=2), mv(B, "leader", swap_with=A))
    assert GAME.scoreboard(state)["leaders"][B]["tribe"] == "joe"
    assert GAME.scoreboard(state)["leaders"][A]["tribe"] == "mouse"
    bad(state, mv(B, "leader", tribe="teen"), R.LEADER)  # once


@covers(R.LUMBERJACK, "legal", "illegal")
def test_the_lumberjack_gives_a_fault_at_the_start_of_a_round() -> None:
    options = {"check_deal_size": True, "hand_size": 2}
    state = dealt({A: ["start-1", "teen-8", "teen-9"], B: ["robot-2", "robot-3"]}, options=options,
                  leaders={A: "lumberjack", B: "joe"})
    bad(state, mv(A, "start"), R.DEAL)  # three cards: only with the fault given
    bad(state, mv(B, "give_fault", target=A), R.LUMBERJACK)
    bad(state, mv(A, "give_fault", target=A), R.LUMBERJACK)
    state = ok(state, mv(A, "give_fault", target=B))
    assert GAME.scoreboard(state)["round_faults"] == {A: 0, B: 1}
    bad(state, mv(A, "give_fault", target=B), R.LUMBERJACK)
    state = ok(state, mv(A, "start"))
    bad(state, mv(A, "give_fault", target=B), R.LUMBERJACK)
    state = ok(state, mv(A, "play", card="start-1", pile="new", t=1.0), mv(A, "play", card="teen-8", pile=1, t=2.0),
               mv(A, "play", card="teen-9", pile=1, t=3.0), mv(A, "out", t=4.0), mv(None, "end_round"))
    assert GAME.scoreboard(state)["faults"] == {A: 0, B: 3}
