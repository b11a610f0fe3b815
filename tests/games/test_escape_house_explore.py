"""The explore phase: rooms, drawing (traps, searching, the discard pile), trades, the hand limit."""

from __future__ import annotations

from companion.games.escape_house.state import MAIN_ROOM, Phase, State
from tests.games.test_escape_house_support import (
    A,
    B,
    C,
    D,
    covers,
    loose,
    mv,
    new,
    play,
    refused,
    resolved,
    to_action,
)


def library_cleared() -> State:
    """Round 1 clears the library's Locked Chest with anna's key; dev's Barricade saves the penalty.

    Round 2 begins with anna in the cleared library (owed one discard draw by the chest's
    instructions) and key-1, amulet-1, candle-1, barricade-1 in the discard pile.
    """
    state = to_action(loose(), mv(A, "move", room="library"))
    state = resolved(
        state,
        mv(A, "move", room="library"),
        mv(A, "play", card="key-1", target=A),
        mv(B, "play", card="amulet-1", target=B),
        mv(C, "play", card="candle-1", target=C),
        mv(D, "play", card="barricade-1", target=D),
    )
    state = play(state, mv(None, "clear", puzzle="locked-chest", by=["key-1"]), mv(None, "end_round"))
    assert state.round == 2 and state.phase is Phase.EXPLORE and "library" in state.cleared
    return state


# -- rooms -----------------------------------------------------------------------------------------


@covers("EH-ROOM", "legal", "illegal")
def test_move_to_a_room_that_exists() -> None:
    state = new()
    refused(state, mv(A, "move", room="garden"), "EH-ROOM")
    state = play(state, mv(A, "move", room="library"), mv(B, "move", room=MAIN_ROOM))
    assert state.where[A] == "library" and state.where[B] == MAIN_ROOM


@covers("EH-MOVE-ONCE", "legal", "illegal")
def test_one_move_per_phase() -> None:
    state = play(new(), mv(A, "move", room="library"))
    refused(state, mv(A, "move", room="kitchen"), "EH-MOVE-ONCE")
    state = to_action(state)
    play(state, mv(A, "move", room="kitchen"))  # a new phase, a new choice


@covers("EH-MOVE-FIRST", "legal", "illegal")
def test_rooms_are_chosen_before_drawing_or_trading() -> None:
    state = play(new(), mv(B, "trade", to=C, card="crowbar-1"))
    refused(state, mv(B, "move", room="kitchen"), "EH-MOVE-FIRST")
    play(state, mv(C, "move", room="kitchen"))  # receiving a card is not acting


@covers("EH-PLAYER", "legal", "illegal")
def test_a_move_needs_a_player_of_this_game() -> None:
    state = new()
    refused(state, mv(None, "move", room="library"), "EH-PLAYER")
    refused(state, mv("zed", "move", room="library"), "EH-PLAYER")
    play(state, mv("fay", "move", room="library"))


@covers("EH-PHASE", "legal", "illegal")
def test_verbs_belong_to_their_phase() -> None:
    state = new()
    refused(state, mv(A, "play", card="key-1", target=B), "EH-PHASE")
    refused(state, mv(None, "resolve"), "EH-PHASE")
    refused(state, mv(None, "end_round"), "EH-PHASE")
    state = to_action(state)
    assert state.phase is Phase.ACTION
    refused(state, mv(A, "draw", room="library", card="door-slam-1"), "EH-PHASE")
    refused(state, mv(None, "end_explore"), "EH-PHASE")


# -- drawing -----------------------------------------------------------------------------------


@covers("EH-DRAW-ROOM", "legal", "illegal")
def test_draw_from_the_deck_of_your_own_room() -> None:
    state = new()
    refused(state, mv(A, "draw", room="library", card="door-slam-1"), "EH-DRAW-ROOM")  # anna is in the main room
    refused(state, mv(A, "draw", room=MAIN_ROOM, card="key-3"), "EH-DRAW-ROOM")  # the main room has no deck
    state = play(state, mv(A, "move", room="kitchen"), mv(A, "draw", room="kitchen", card="alarm"))
    assert state.hands[A][-1] == "alarm" and state.decks["kitchen"][0] == "fuse-2"


@covers("EH-DRAW-TOP", "legal", "illegal")
def test_an_uncleared_room_gives_its_top_card() -> None:
    state = play(new(), mv(A, "move", room="library"))
    refused(state, mv(A, "draw", room="library", card="key-3"), "EH-DRAW-TOP")
    play(state, mv(A, "draw", room="library", card="door-slam-1"))
    # a table that did not record the shuffle may name any card of the deck
    unknown = play(new({"deck_order_known": False}), mv(A, "move", room="library"))
    play(unknown, mv(A, "draw", room="library", card="key-3"))


@covers("EH-DRAW-TOP", "legal")
def test_a_cleared_room_may_be_searched() -> None:
    state = library_cleared()
    state = play(state, mv(A, "draw", room="library", card="lamp-2"))  # the bottom card
    assert "lamp-2" in state.hands[A] and state.decks["library"] == ("door-slam-1", "key-3", "pit")


@covers("EH-DRAW-CARD", "legal", "illegal")
def test_the_card_named_must_be_in_that_deck() -> None:
    state = play(new({"deck_order_known": False}), mv(A, "move", room="library"))
    v = refused(state, mv(A, "draw", room="library", card="fuse-2"), "EH-DRAW-CARD")
    assert "not in the deck of the library" in v.why
    state = play(state, mv(A, "draw", room="library", card="lamp-2"))
    assert "lamp-2" not in state.decks["library"]


@covers("EH-DRAW-LIMIT", "legal", "illegal")
def test_draws_per_explore() -> None:
    state = play(new(), mv(A, "move", room="kitchen"), mv(A, "draw", room="kitchen", card="alarm"))
    refused(state, mv(A, "draw", room="kitchen", card="fuse-2"), "EH-DRAW-LIMIT")
    two = play(new({"draws_per_explore": 2}), mv(A, "move", room="cellar"), mv(A, "draw", room="cellar", card="rope-2"))
    play(two, mv(A, "draw", room="cellar", card="key-4"))


@covers("EH-TRAP", "legal", "illegal")
def test_traps_fire_only_from_uncleared_rooms() -> None:
    state = play(new(), mv(A, "move", room="library"), mv(A, "draw", room="library", card="door-slam-1"))
    assert A in state.no_move and "door-slam-1" in state.hands[A]  # fired, and kept in hand
    cleared = play(library_cleared(), mv(A, "draw", room="library", card="door-slam-1"))
    assert A not in cleared.no_move and "door-slam-1" in cleared.hands[A]  # did not fire


@covers("EH-NO-MOVE", "legal", "illegal")
def test_door_slam_keeps_you_in_your_room_this_action_phase() -> None:
    state = play(new(), mv(A, "move", room="library"), mv(A, "draw", room="library", card="door-slam-1"))
    state = to_action(state)
    refused(state, mv(A, "move", room=MAIN_ROOM), "EH-NO-MOVE")
    refused(state, mv(A, "follow", target=B), "EH-NO-MOVE")
    play(state, mv(B, "move", room="library"))
    # the card holds for one action phase only
    state = play(state, mv(A, "play", card="key-1", target=A), mv(B, "play", card="amulet-1", target=B))
    state = play(state, mv(C, "play", card="rope-1", target=C), mv(D, "play", card="fuse-1", target=D))
    state = play(state, mv("eli", "play", card="lamp-1", target="eli"), mv("fay", "play", card="gear-1", target="fay"))
    state = play(state, mv(None, "resolve"), mv(None, "clear", puzzle="locked-chest", by=["key-1"]), mv(None, "end_round"))
    state = play(state, mv(None, "penalty", card="lights-out"))  # no one may move next action phase
    state = to_action(state)
    refused(state, mv(A, "move", room=MAIN_ROOM), "EH-NO-MOVE")
    assert state.no_move == frozenset(state.alive)


def test_following_despite_door_slam_is_a_setting() -> None:
    state = play(new({"follow_blocked_by_no_move": False}), mv(A, "move", room="library"))
    state = to_action(play(state, mv(A, "draw", room="library", card="door-slam-1")))
    play(state, mv(A, "follow", target=B))


@covers("EH-OWED", "legal", "illegal")
@covers("EH-DISCARD", "legal", "illegal")
def test_a_pit_makes_you_discard_before_the_phase_ends() -> None:
    state = play(new({"deck_order_known": False}), mv(A, "move", room="library"), mv(A, "draw", room="library", card="pit"))
    assert state.owed(A) == 1
    refused(state, mv(None, "end_explore"), "EH-OWED")
    refused(state, mv(B, "discard", card="crowbar-1"), "EH-DISCARD")  # ben owes nothing
    refused(state, mv(A, "discard", card="crowbar-1"), "EH-HAND")
    state = play(state, mv(A, "discard", card="pit"))
    assert "pit" in state.discard and state.owed(A) == 0
    refused(state, mv(A, "discard", card="key-1"), "EH-DISCARD")
    play(state, mv(None, "end_explore"))


@covers("EH-OWED", "illegal")
@covers("EH-PENALTY", "legal", "illegal")
def test_an_alarm_calls_for_a_penalty_card_now() -> None:
    state = play(new(), mv(A, "move", room="kitchen"), mv(A, "draw", room="kitchen", card="alarm"))
    assert state.penalties_due == 1
    refused(state, mv(None, "end_explore"), "EH-OWED")
    refused(state, mv(None, "penalty", card="clock-1"), "EH-PENALTY")  # not the top card
    state = play(state, mv(None, "penalty", card="lights-out"), mv(None, "end_explore"))
    assert state.no_move == frozenset(state.alive)  # Lights Out: no one moves this action phase
    refused(state, mv(None, "penalty", card="clock-1"), "EH-PENALTY")  # none is due


# -- the discard pile --------------------------------------------------------------------------------


@covers("EH-DISCARD-DRAW", "legal", "illegal")
def test_drawing_from_the_discard_pile_sees_three_and_keeps_one() -> None:
    state = new()
    refused(state, mv(B, "draw_discard", seen=["key-1"], keep="key-1"), "EH-DISCARD-DRAW")  # the pile is empty
    state = library_cleared()
    assert set(state.discard) == {"key-1", "amulet-1", "candle-1", "barricade-1"}
    refused(state, mv(B, "draw_discard", seen=["key-1", "amulet-1"], keep="key-1"), "EH-DISCARD-DRAW")  # 3 to see
    refused(state, mv(B, "draw_discard", seen=["key-1", "amulet-1", "fuse-2"], keep="key-1"), "EH-DISCARD-DRAW")
    state = play(state, mv(B, "draw_discard", seen=["key-1", "amulet-1", "candle-1"], keep="candle-1"))
    assert "candle-1" in state.hands[B] and "candle-1" not in state.discard and "key-1" in state.discard
    refused(state, mv(B, "draw_discard", seen=["key-1", "amulet-1", "barricade-1"], keep="key-1"), "EH-DRAW-LIMIT")


@covers("EH-DISCARD-DRAW", "legal", "illegal")
def test_an_effect_drawing_several_cards_sees_three_separate_cards_for_each() -> None:
    state = library_cleared()
    took = play(state, mv(A, "draw_discard", seen=["key-1", "amulet-1", "candle-1"], keep="key-1"))
    assert took.draw_credit.get(A, 0) == 0 and took.draws.get(A, 0) == 0  # the chest's draw, not anna's own
    # two draws for one effect (as Scavenge gives): the second look is at cards not seen for the first
    state = state.but(draw_credit={B: 2})
    state = play(state, mv(B, "draw_discard", seen=["amulet-1", "candle-1", "barricade-1"], keep="amulet-1"))
    refused(state, mv(B, "draw_discard", seen=["candle-1"], keep="candle-1"), "EH-DISCARD-DRAW")
    state = play(state, mv(B, "draw_discard", seen=["key-1"], keep="key-1"))  # only one unseen card is left
    assert B not in state.draw_credit and {"amulet-1", "key-1"} <= set(state.hands[B])


@covers("EH-DISCARD-ROOM", "legal", "illegal")
def test_the_discard_pile_is_in_the_main_room() -> None:
    state = library_cleared()
    state = play(state, mv(A, "draw_discard", seen=["key-1", "amulet-1", "candle-1"], keep="key-1"))  # on credit
    refused(state, mv(A, "draw_discard", seen=["amulet-1", "candle-1", "barricade-1"], keep="amulet-1"), "EH-DISCARD-ROOM")
    play(state, mv(B, "draw_discard", seen=["amulet-1", "candle-1", "barricade-1"], keep="amulet-1"))  # ben is there
    anywhere = library_cleared().but(options=state.options.__class__(discard_draw_anywhere=True))
    anywhere = play(anywhere, mv(A, "draw_discard", seen=["key-1", "amulet-1", "candle-1"], keep="key-1"))
    play(anywhere, mv(A, "draw_discard", seen=["amulet-1", "candle-1", "barricade-1"], keep="amulet-1"))


def test_a_trap_from_the_discard_pile_fires_only_if_set_to() -> None:
    base = library_cleared().but(discard=("door-slam-2", "key-1", "amulet-1"))
    took = play(base, mv(B, "draw_discard", seen=["door-slam-2", "key-1", "amulet-1"], keep="door-slam-2"))
    assert B not in took.no_move
    fires = base.but(options=base.options.__class__(traps_fire_from_discard=True))
    took = play(fires, mv(B, "draw_discard", seen=["door-slam-2", "key-1", "amulet-1"], keep="door-slam-2"))
    assert B in took.no_move


# -- trades --------------------------------------------------------------------------------------


@covers("EH-TRADE-ROOM", "legal", "illegal")
def test_trades_are_between_players_in_one_room() -> None:
    state = new()
    refused(state, mv(A, "trade", to=A, card="key-1"), "EH-TRADE-ROOM")
    refused(state, mv(A, "trade", to="zed", card="key-1"), "EH-TRADE-ROOM")
    state = play(state, mv(B, "move", room="library"))
    refused(state, mv(A, "trade", to=B, card="key-1"), "EH-TRADE-ROOM")
    state = play(state, mv(A, "trade", to=C, card="key-1"))
    assert "key-1" in state.hands[C] and "key-1" not in state.hands[A]


@covers("EH-HAND", "legal", "illegal")
def test_you_give_and_play_only_cards_you_hold() -> None:
    state = new()
    refused(state, mv(A, "trade", to=C, card="crowbar-1"), "EH-HAND")
    play(state, mv(B, "trade", to=C, card="crowbar-1"))


@covers("EH-TRADE-ONCE", "legal", "illegal")
def test_a_card_is_traded_at_most_once_a_round() -> None:
    state = play(new(), mv(A, "trade", to=B, card="key-1"))
    refused(state, mv(B, "trade", to=C, card="key-1"), "EH-TRADE-ONCE")
    play(state, mv(B, "trade", to=C, card="crowbar-1"))


@covers("EH-TRADE-LIMIT", "legal", "illegal")
def test_trades_per_explore_is_a_setting() -> None:
    state = play(new(), mv(A, "trade", to=B, card="key-1"))
    refused(state, mv(A, "trade", to=B, card="key-2"), "EH-TRADE-LIMIT")
    free = play(new({"trades_per_explore": None}), mv(A, "trade", to=B, card="key-1"))
    free = play(free, mv(A, "trade", to=B, card="key-2"), mv(A, "trade", to=C, card="dagger-1"))
    assert free.hands[A] == ("betray-1",)


# -- the hand limit -------------------------------------------------------------------------------


def six_cards() -> State:
    """anna holds six cards in the main room."""
    free = new({"trades_per_explore": None})
    state = play(free, mv(B, "trade", to=A, card="crowbar-1"), mv(C, "trade", to=A, card="rope-1"))
    assert len(state.hands[A]) == 6
    return state


@covers("EH-HAND-LIMIT", "legal", "illegal")
def test_no_more_than_five_cards_at_the_end_of_explore() -> None:
    state = six_cards()
    v = refused(state, mv(None, "end_explore"), "EH-HAND-LIMIT")
    assert "anna" in v.why
    state = play(state, mv(A, "stash", card="rope-1", room=MAIN_ROOM, position=0), mv(None, "end_explore"))
    assert "rope-1" in state.discard  # the main room's "deck" is its discard pile


@covers("EH-STASH", "legal", "illegal")
def test_excess_cards_go_anywhere_into_your_rooms_deck() -> None:
    refused(new(), mv(A, "stash", card="key-1", room=MAIN_ROOM, position=0), "EH-STASH")  # only 4 cards
    state = play(new({"trades_per_explore": None}), mv(A, "move", room="library"), mv(B, "move", room="library"))
    state = play(state, mv(C, "move", room="library"), mv(B, "trade", to=A, card="crowbar-1"), mv(C, "trade", to=A, card="rope-1"))
    refused(state, mv(A, "stash", card="rope-1", room="kitchen", position=0), "EH-STASH")
    refused(state, mv(A, "stash", card="rope-1", room="library", position=5), "EH-STASH")
    refused(state, mv(A, "stash", card="lamp-3", room="library", position=0), "EH-HAND")
    state = play(state, mv(A, "stash", card="rope-1", room="library", position=2))
    assert state.decks["library"] == ("door-slam-1", "key-3", "rope-1", "pit", "lamp-2")
    refused(state, mv(A, "stash", card="key-1", room="library", position=0), "EH-STASH")  # back to five
