"""The resolve phase in the rulebook's order: clears, instructions, the discard, next puzzle or penalty, the end."""

from __future__ import annotations

from companion.core import Termination
from companion.games.escape_house import GAME
from companion.games.escape_house.state import MAIN_ROOM, Phase, State
from tests.games.test_escape_house_support import (
    A,
    B,
    C,
    D,
    E,
    F_,
    MAIN,
    PENALTIES,
    covers,
    header,
    loose,
    mv,
    play,
    refused,
    resolved,
    to_action,
)


def two_keys(**setup: object) -> State:
    """anna plays both keys' worth: anna key-1, ben key-2 (traded to him), both in the main room."""
    state = to_action(loose(**setup), mv(A, "trade", to=B, card="key-2"))
    return resolved(state, mv(A, "play", card="key-1", target=A), mv(B, "play", card="key-2", target=B))


@covers("EH-CLEAR-CONDITION", "legal", "illegal")
def test_a_puzzle_needs_its_items() -> None:
    state = resolved(to_action(loose()), mv(A, "play", card="key-1", target=A))
    v = refused(state, mv(None, "clear", puzzle="front-door", by=["key-1"]), "EH-CLEAR-CONDITION")
    assert "key and key" in v.why
    refused(state, mv(None, "clear", puzzle="front-door", by=["key-1", "key-2"]), "EH-CLEAR-CONDITION")  # key-2 not played
    state = two_keys()
    refused(state, mv(None, "clear", puzzle="front-door", by=["key-1", "key-1"]), "EH-CLEAR-CONDITION")
    state = play(state, mv(None, "clear", puzzle="front-door", by=["key-1", "key-2"]))
    assert state.main_cleared and state.main_left() == 6


@covers("EH-CLEAR-CONDITION", "legal")
def test_any_items_conditions() -> None:
    state = resolved(to_action(loose()), mv(E, "move", room="study"), mv(E, "play", card="lamp-1", target=E))
    play(state, mv(None, "clear", puzzle="bookcase", by=["lamp-1"]))  # a lamp or matches
    altar = ["altar"] + [m for m in MAIN if m != "altar"]
    state = resolved(to_action(loose(main=altar)), mv(C, "play", card="rope-1", target=C))
    refused(state, mv(None, "clear", puzzle="altar", by=["rope-1"]), "EH-CLEAR-CONDITION")  # 2 of 3 kinds
    state = to_action(loose(main=altar), mv(C, "trade", to=D, card="candle-1"))
    state = resolved(state, mv(C, "play", card="rope-1", target=C), mv(D, "play", card="candle-1", target=D))
    play(state, mv(None, "clear", puzzle="altar", by=["rope-1", "candle-1"]))


@covers("EH-CLEAR-PUZZLE", "legal", "illegal")
def test_only_open_puzzles_are_cleared() -> None:
    state = two_keys()
    refused(state, mv(None, "clear", puzzle="cellar-hatch", by=["key-1"]), "EH-CLEAR-PUZZLE")  # not face up yet
    refused(state, mv(None, "clear", puzzle="mirror", by=["key-1"]), "EH-CLEAR-PUZZLE")  # not in this game
    refused(state, mv(None, "clear", puzzle="key-3", by=["key-1"]), "EH-CLEAR-PUZZLE")
    state = play(state, mv(None, "clear", puzzle="front-door", by=["key-1", "key-2"]))
    v = refused(state, mv(None, "clear", puzzle="front-door", by=["key-1", "key-2"]), "EH-CLEAR-PUZZLE")
    assert "cleared this round" in v.why


@covers("EH-CLEAR-ROOM", "legal", "illegal")
def test_items_count_only_in_their_own_room() -> None:
    state = to_action(loose(), mv(A, "trade", to=B, card="key-2"))
    state = resolved(state, mv(A, "move", room="library"), mv(A, "play", card="key-1", target=A), mv(B, "play", card="key-2", target=B))
    refused(state, mv(None, "clear", puzzle="front-door", by=["key-1", "key-2"]), "EH-CLEAR-ROOM")
    refused(state, mv(None, "clear", puzzle="locked-chest", by=["key-2"]), "EH-CLEAR-ROOM")
    play(state, mv(None, "clear", puzzle="locked-chest", by=["key-1"]))


@covers("EH-CLEAR-ROOM", "legal")
def test_cards_of_sacrificed_players_still_count() -> None:
    state = to_action(loose())
    state = resolved(
        state,
        mv(B, "move", room="parlour"),
        mv(C, "move", room="parlour"),
        mv(B, "play", card="crowbar-1", target=B),
        mv(C, "play", card="betray-3", target=B),
    )
    assert state.sacrificed == (B,)
    state = play(state, mv(None, "clear", puzzle="boarded-window", by=["crowbar-1"]))
    assert state.draw_credit == {C: 2}  # the window's instructions: everyone (living) in the room draws two
    play(state, mv(None, "clear", puzzle="front-door", by=["betray-3"]))


@covers("EH-CLEAR-SACRIFICE", "legal", "illegal")
def test_a_sacrifice_in_any_room_clears_the_main_puzzle() -> None:
    state = to_action(loose())
    state = resolved(state, mv(A, "move", room="attic"), mv(E, "move", room="attic"), mv(A, "play", card="betray-1", target=E))
    refused(state, mv(None, "clear", puzzle="front-door", by=[]), "EH-CLEAR-SACRIFICE")
    refused(state, mv(None, "clear", puzzle="cursed-idol", by=["betray-1"]), "EH-CLEAR-CONDITION")  # side: items only
    state = play(state, mv(None, "clear", puzzle="front-door", by=["betray-1"]))
    assert state.main_cleared
    # a sacrifice card that sacrificed no one clears nothing
    state = resolved(to_action(loose()), mv(B, "move", room="attic"), mv(A, "play", card="betray-1", target=B))
    refused(state, mv(None, "clear", puzzle="front-door", by=["betray-1"]), "EH-CLEAR-CONDITION")


@covers("EH-CLEAR-MISSED", "legal", "illegal")
def test_every_cleared_puzzle_is_entered_before_the_round_ends() -> None:
    state = two_keys()
    v = refused(state, mv(None, "end_round"), "EH-CLEAR-MISSED")
    assert "Front Door" in v.why and "key-1" in v.why
    assert [p.verb for p in GAME.prompts(state)] == ["clear"]
    state = play(state, mv(None, "clear", puzzle="front-door", by=["key-1", "key-2"]))
    assert [p.verb for p in GAME.prompts(state)] == ["end_round"]
    play(state, mv(None, "end_round"))
    killed = resolved(to_action(loose()), mv(A, "play", card="betray-1", target=B))
    refused(killed, mv(None, "end_round"), "EH-CLEAR-MISSED")


@covers("EH-INSTRUCTIONS", "legal", "illegal")
def test_cleared_puzzles_instructions_are_followed_and_the_card_set_aside() -> None:
    state = to_action(loose(), mv(C, "move", room="attic"))
    state = resolved(state, mv(C, "move", room="attic"), mv(C, "play", card="candle-1", target=C))
    state = play(state, mv(None, "clear", puzzle="cursed-idol", by=["candle-1"]))
    assert state.penalties_due == 1  # the Cursed Idol: draw a penalty card
    refused(state, mv(None, "end_round"), "EH-OWED")
    state = play(state, mv(None, "penalty", card="lights-out"), mv(None, "end_round"))
    assert "cursed-idol" not in state.discard and "attic" in state.cleared
    # an uncleared puzzle's instructions are not followed
    state = resolved(to_action(loose()), mv(C, "move", room="attic"), mv(C, "play", card="rope-1", target=C))
    assert state.penalties_due == 0


def test_puzzle_instructions_touch_the_room_or_everyone() -> None:
    state = to_action(loose(), mv(D, "move", room="kitchen"), mv(E, "move", room="kitchen"))
    state = resolved(state, mv(D, "move", room="kitchen"), mv(E, "move", room="kitchen"), mv(D, "play", card="fuse-1", target=D))
    state = play(state, mv(None, "clear", puzzle="boiler", by=["fuse-1"]))
    assert state.owed(D) == 1 and state.owed(E) == 1 and state.owed(A) == 0
    mirror = ["mirror"] + MAIN[1:]
    state = resolved(to_action(loose(main=mirror)), mv(E, "play", card="lamp-1", target=E))
    state = play(state, mv(None, "clear", puzzle="mirror", by=["lamp-1"]))
    assert state.no_move == frozenset(state.alive)


@covers("EH-TO-DISCARD", "legal", "illegal")
def test_played_cards_and_sacrificed_hands_go_to_the_discard_pile() -> None:
    state = resolved(to_action(loose()), mv(A, "play", card="betray-1", target=B), mv(C, "play", card="rope-1", target=C))
    assert state.discard == ()  # not before the end of the round
    state = play(state, mv(None, "clear", puzzle="front-door", by=["betray-1"]), mv(None, "end_round"))
    assert set(state.discard) == {"betray-1", "rope-1", "betray-2", "crowbar-1", "amulet-1", "scavenge-1"}
    assert "front-door" not in state.discard and state.hands[B] == ()


@covers("EH-NEXT-MAIN", "legal", "illegal")
def test_a_cleared_main_puzzle_flips_the_next_one_else_a_penalty() -> None:
    state = play(two_keys(), mv(None, "clear", puzzle="front-door", by=["key-1", "key-2"]), mv(None, "end_round"))
    assert state.current_main() == "cellar-hatch" and state.round == 2 and state.drawn_penalties == ()
    state = play(resolved(to_action(state)), mv(None, "end_round"))
    assert state.phase is Phase.RESOLVE and state.penalties_due == 1 and state.closing
    refused(state, mv(A, "move", room="library"), "EH-PHASE")
    refused(state, mv(None, "end_round"), "EH-PHASE")
    state = play(state, mv(None, "penalty", card="lights-out"))
    assert state.round == 3 and state.phase is Phase.EXPLORE and state.current_main() == "cellar-hatch"


def test_footsteps_draws_another_penalty_card() -> None:
    state = loose(penalties=["footsteps", "lights-out", "clock-1", "whispers", "clock-2", "clock-3", "chill", "rummage"])
    state = play(resolved(to_action(state)), mv(None, "end_round"), mv(None, "penalty", card="footsteps"))
    assert state.penalties_due == 1 and state.closing
    state = play(state, mv(None, "penalty", card="lights-out"))
    assert state.round == 2


def test_penalty_effects_reach_everyone() -> None:
    state = loose(penalties=["whispers", "rummage", "lights-out", "clock-1", "clock-2", "footsteps", "clock-3", "chill"])
    state = play(resolved(to_action(state)), mv(None, "end_round"), mv(None, "penalty", card="whispers"))
    assert all(state.owed(p) == 1 for p in state.alive)


@covers("EH-PENALTY", "legal")
def test_a_table_without_the_shuffle_order_may_draw_any_penalty_card() -> None:
    state = GAME.new_state(header({"deck_order_known": False, "must_play": False}))
    state = play(resolved(to_action(state)), mv(None, "end_round"), mv(None, "penalty", card="chill"))
    assert state.drawn_penalties == ("chill",)


@covers("EH-CLOCKS", "legal", "illegal")
def test_three_clocks_lose_the_game_for_everyone() -> None:
    state = loose(penalties=["clock-1", "clock-2", "lights-out", "clock-3"] + PENALTIES[2:3] + ["footsteps", "chill", "rummage"])
    for card in ("clock-1", "clock-2"):
        state = play(resolved(to_action(state)), mv(None, "end_round"), mv(None, "penalty", card=card))
        assert GAME.outcome(state) is None
    state = play(resolved(to_action(state)), mv(None, "end_round"), mv(None, "penalty", card="lights-out"))
    assert state.clocks == 2 and GAME.outcome(state) is None  # not every penalty is a clock
    state = play(resolved(to_action(state)), mv(None, "end_round"), mv(None, "penalty", card="clock-3"))
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.to_json() == {"won": False, "escaped": []} and outcome.winners == ()
    assert outcome.termination is Termination.OVERRUN
    assert GAME.scoreboard(state)["clocks"] == 3 and GAME.prompts(state) == ()
    assert GAME.judge(state, mv(A, "move", room="library")).rules == ("GAME-OVER",)


@covers("EH-ESCAPE", "legal", "illegal")
def test_clearing_the_last_main_puzzle_frees_the_living() -> None:
    state = resolved(to_action(loose()), mv(A, "play", card="betray-1", target=B))
    assert GAME.outcome(state) is None  # main puzzles are left: no one escapes yet
    last = state.but(main=("front-door",))
    won = play(last, mv(None, "clear", puzzle="front-door", by=["betray-1"]))
    outcome = GAME.outcome(won)
    assert outcome is not None and outcome.to_json() == {"won": True, "escaped": [A, C, D, E, F_]}
    assert outcome.winners == (A, C, D, E, F_) and GAME.scoreboard(won)["main_left"] == 0
    assert outcome.termination is Termination.ESCAPED


def test_everyone_sacrificed_is_a_loss() -> None:
    state = to_action(loose()).but(alive=(A, B), where={A: MAIN_ROOM, B: MAIN_ROOM}, sacrificed=(C, D, E, F_))
    state = resolved(state, mv(A, "play", card="betray-1", target=B), mv(B, "play", card="betray-2", target=A))
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.to_json() == {"won": False, "escaped": []}
    assert outcome.termination is Termination.ALL_SACRIFICED
