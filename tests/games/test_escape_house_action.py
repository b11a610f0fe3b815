"""The action phase: rooms and follows, one card face down with a token, the reveal, sacrifices."""

from __future__ import annotations

from companion.games.escape_house.state import MAIN_ROOM, Phase
from tests.games.test_escape_house_support import (
    A,
    B,
    C,
    D,
    E,
    F_,
    covers,
    loose,
    mv,
    new,
    play,
    refused,
    resolved,
    to_action,
)

ALL_PLAY = (
    mv(A, "play", card="key-1", target=A),
    mv(B, "play", card="crowbar-1", target=B),
    mv(C, "play", card="rope-1", target=C),
    mv(D, "play", card="fuse-1", target=D),
    mv(E, "play", card="lamp-1", target=E),
    mv(F_, "play", card="gear-1", target=F_),
)


@covers("EH-FOLLOW", "legal", "illegal")
def test_a_follower_goes_where_the_leader_goes() -> None:
    state = to_action(loose())
    refused(state, mv(A, "follow", target=A), "EH-FOLLOW")
    refused(state, mv(A, "follow", target="zed"), "EH-FOLLOW")
    state = play(state, mv(B, "follow", target=A), mv(C, "follow", target=B))
    refused(state, mv(A, "follow", target=C), "EH-FOLLOW")  # a circle
    refused(state, mv(B, "move", room="kitchen"), "EH-MOVE-ONCE")  # ben chose to follow
    state = play(state, mv(A, "move", room="library"))
    assert state.follows == {B: A, C: B}
    state = play(state, mv(D, "play", card="fuse-1", target=D))  # the first card settles the follows
    assert state.where[B] == "library" and state.where[C] == "library" and state.follows == {}
    refused(state, mv(E, "follow", target=A), "EH-MOVE-FIRST")


@covers("EH-MOVE-FIRST", "illegal")
def test_no_moving_once_cards_are_played() -> None:
    state = play(to_action(loose()), mv(A, "play", card="key-1", target=A))
    refused(state, mv(B, "move", room="library"), "EH-MOVE-FIRST")


@covers("EH-PLAY", "legal", "illegal")
def test_one_card_face_down_with_a_living_players_token() -> None:
    state = to_action(loose())
    refused(state, mv(A, "play", card="key-1", target="zed"), "EH-PLAY")
    refused(state, mv(A, "play", card="crowbar-1", target=B), "EH-HAND")
    state = play(state, mv(A, "play", card="key-1", target=B))
    assert "key-1" not in state.hands[A] and state.played[0].room == MAIN_ROOM
    refused(state, mv(A, "play", card="key-2", target=B), "EH-PLAY")
    # a card that needs no target still carries a token; a sacrificed player's token is out of the house
    state = resolved(state, mv(C, "play", card="betray-3", target=B))
    state = play(state, mv(None, "clear", puzzle="front-door", by=["betray-3"]), mv(None, "end_round"))
    state = to_action(state)
    refused(state, mv(A, "play", card="key-2", target=B), "EH-PLAY")


@covers("EH-NO-PLAY", "legal", "illegal")
def test_a_cobweb_keeps_a_card_in_your_hand_this_action_phase() -> None:
    state = play(new(), mv(A, "move", room="study"), mv(A, "draw", room="study", card="cobweb-2"))
    state = to_action(state)
    refused(state, mv(A, "play", card="key-1", target=A), "EH-NO-PLAY")
    assert A not in state.must_play()  # the reveal does not wait for anna
    state = play(state, *ALL_PLAY[1:], mv(None, "resolve"))
    assert A not in state.no_play  # it held for one action phase


@covers("EH-REVEAL", "legal", "illegal")
def test_cards_are_revealed_when_everyone_has_played() -> None:
    state = to_action(new())
    state = play(state, *ALL_PLAY[:5])
    refused(state, mv(None, "resolve"), "EH-REVEAL")
    refused(state, mv(A, "reveal", card="key-1"), "EH-REVEAL")
    state = play(state, ALL_PLAY[5])
    refused(state, mv(A, "reveal", card="key-2"), "EH-REVEAL")  # not played
    refused(state, mv(B, "reveal", card="key-1"), "EH-PLAYER")  # anna played it
    state = play(state, mv(A, "reveal", card="key-1"))
    assert state.played[0].revealed
    refused(state, mv(A, "reveal", card="key-1"), "EH-REVEAL")
    state = play(state, mv(None, "resolve"))
    assert state.phase is Phase.RESOLVE and all(p.revealed for p in state.played)


def test_with_must_play_off_a_reveal_closes_the_plays() -> None:
    state = play(to_action(loose()), mv(A, "play", card="key-1", target=A), mv(None, "reveal", card="key-1"))
    refused(state, mv(B, "play", card="crowbar-1", target=B), "EH-REVEAL")


@covers("EH-SACRIFICE", "legal", "illegal")
def test_betray_sacrifices_a_player_in_your_room() -> None:
    state = to_action(loose())
    state = resolved(state, mv(B, "move", room="library"), mv(A, "play", card="betray-1", target=B), mv(C, "play", card="betray-3", target=D))
    assert state.sacrificed == (D,) and B in state.alive  # ben was in another room
    assert state.killers == {"betray-3"} and D not in state.where


@covers("EH-SACRIFICE", "illegal")
def test_an_amulet_protects_its_target() -> None:
    state = resolved(to_action(loose()), mv(A, "play", card="betray-1", target=B), mv(B, "play", card="amulet-1", target=B))
    assert state.sacrificed == () and state.killers == frozenset()


@covers("EH-SACRIFICE", "legal")
def test_ritual_daggers_need_two_but_reach_any_room() -> None:
    one = resolved(to_action(loose()), mv(E, "move", room="attic"), mv(A, "play", card="dagger-1", target=E))
    assert one.sacrificed == ()
    both = resolved(
        to_action(loose()), mv(E, "move", room="attic"), mv(A, "play", card="dagger-1", target=E), mv(C, "play", card="dagger-2", target=E)
    )
    assert both.sacrificed == (E,) and both.killers == {"dagger-1", "dagger-2"}


@covers("EH-SACRIFICE", "legal")
def test_sacrifices_are_simultaneous() -> None:
    state = resolved(to_action(loose()), mv(A, "play", card="betray-1", target=B), mv(B, "play", card="betray-2", target=A))
    assert set(state.sacrificed) == {A, B}


@covers("EH-SACRIFICED", "legal", "illegal")
def test_the_sacrificed_take_no_further_part() -> None:
    state = resolved(to_action(loose()), mv(A, "play", card="betray-1", target=B))
    state = play(state, mv(None, "clear", puzzle="front-door", by=["betray-1"]), mv(None, "end_round"))
    refused(state, mv(B, "move", room="library"), "EH-SACRIFICED")
    refused(state, mv(A, "trade", to=B, card="key-1"), "EH-TRADE-ROOM")
    assert state.hands[B] == () and {"betray-2", "crowbar-1", "amulet-1", "scavenge-1"} <= set(state.discard)
    play(state, mv(A, "move", room="library"))


def test_support_cards_shape_the_next_round() -> None:
    state = resolved(
        to_action(loose()),
        mv(B, "play", card="scavenge-1", target=B),
        mv(E, "play", card="shove", target=A),
        mv(F_, "play", card="pickpocket", target=C),
        mv(D, "play", card="barricade-1", target=D),
    )
    assert state.draw_credit == {B: 2} and A in state.no_move and state.owed(C) == 1 and state.no_penalty
    state = play(state, mv(None, "end_round"))
    assert state.phase is Phase.EXPLORE and state.round == 2 and state.drawn_penalties == ()  # Barricade
    refused(state, mv(None, "end_explore"), "EH-OWED")  # cleo still owes a discard
    state = play(state, mv(C, "discard", card="rope-1"), mv(None, "end_explore"))
    refused(state, mv(A, "move", room="library"), "EH-NO-MOVE")
    assert state.draw_credit == {}  # ben's draws lapse with the explore phase


def test_distract_bars_the_target_next_action_phase() -> None:
    state = resolved(to_action(loose()), mv(E, "play", card="distract", target=A))
    state = to_action(play(state, mv(None, "end_round"), mv(None, "penalty", card="lights-out")))
    refused(state, mv(A, "play", card="key-1", target=A), "EH-NO-PLAY")
