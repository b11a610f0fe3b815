"""Checks every phase shares: who acts, when, and what they hold."""

from __future__ import annotations

from companion.core import Move, Verdict
from companion.contract.players import not_a_player
from .state import MAIN_ROOM, Phase, State


PLAYER_RULE = "EH-PLAYER"
"""A move by someone not at the table (the game's own id, cited by old logs)."""


def room_name(room: str) -> str:
    return "the main room" if room == MAIN_ROOM else f"the {room}"


def card_name(state: State, card: str) -> str:
    """How a verdict names a card: its name and id ("Key (key-2)")."""
    name = state.cards.name_of(card)
    return card if name == card else f"{name} ({card})"


def living_actor(state: State, move: Move) -> Verdict | None:
    """EH-PLAYER / EH-SACRIFICED: the move names a living player of this game."""
    if move.by in state.where:  # the living players are exactly ``where``'s keys: nothing to refuse
        return None
    refused = not_a_player(PLAYER_RULE, state.players, move)
    if refused is not None:
        return refused
    why = why_sacrificed(state, move.by)
    if why is not None:
        return Verdict.illegal("EH-SACRIFICED", why, "undo it at the table")
    return None


def why_sacrificed(state: State, player: str | None) -> str | None:
    """EH-SACRIFICED: why a player of this game takes no further part (out of the house), or None."""
    if player is None or player in state.where:
        return None
    return f"{player} was sacrificed and takes no further part"


def in_phase(state: State, move: Move, *phases: Phase) -> Verdict | None:
    """EH-PHASE: the verb belongs to one of ``phases`` (and the round is not waiting for a penalty)."""
    if state.closing:
        return Verdict.illegal(
            "EH-PHASE", f"the round is over but for its penalty card; no {move.verb} now", "draw the penalty card first"
        )
    if state.phase not in phases:
        allowed = " or ".join(p.value for p in phases)
        return Verdict.illegal(
            "EH-PHASE",
            f"a {move.verb} belongs to the {allowed} phase, and this is the {state.phase.value} phase",
            "take it back",
        )
    return None


def holds(state: State, player: str, card: str) -> Verdict | None:
    """EH-HAND: the card is in the player's hand."""
    if card not in state.hands.get(player, ()):
        return Verdict.illegal("EH-HAND", f"{player} does not hold {card_name(state, card)}", "take the card back")
    return None


def valid_room(state: State, room: str) -> Verdict | None:
    """EH-ROOM: the room exists."""
    if not state.is_room(room):
        known = ", ".join((MAIN_ROOM,) + state.rooms)
        return Verdict.illegal("EH-ROOM", f'there is no room "{room}" (rooms: {known})', "enter one of the rooms")
    return None
