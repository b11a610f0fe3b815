"""What people see: the public scoreboard, the player's and referee's views, and the prompts."""

from __future__ import annotations

import logging

from companion.core import JsonObject, Prompt
from companion.games.the_mountain.cards import POSITIONS, SLOTS
from companion.games.the_mountain.scoring import score
from companion.games.the_mountain.state import MountainState, Phase

logger = logging.getLogger(__name__)


def scoreboard(state: MountainState) -> JsonObject:
    """NOTATION.md's keys, then the public extras (the mountain and the health pile lie face up).

    Never a card of the hand or the stock.
    """
    geo = state.geo
    return {
        "health": len(state.health),
        "threats_left": state.threats_left,
        "removed": state.removed,
        "score": score(state),
        "hand_size": len(state.hand),
        "hand_limit": state.hand_limit,
        "nightmare": state.options.nightmare,
        "turn": state.turn,
        "phase": "over" if state.result is not None else state.phase.value,
        "acted": list(state.acted),
        "skipped": state.skipped,
        "attack": len(geo.attackers(state.mountain)),
        "last_damage": state.last_damage,
        "stock": len(state.stock),
        "discard": len(state.discard),
        "health_pile": list(state.health),
        "mountain": {POSITIONS[s]: state.mountain[s] for s in range(SLOTS)},
        "slots": {POSITIONS[s]: geo.state_of(state.mountain, s) for s in range(SLOTS)},
        "result": state.result,
    }


def view(state: MountainState, player: str | None) -> JsonObject:
    """The player sees the scoreboard and their hand; the referee (None) also sees the piles."""
    out = scoreboard(state)
    if player is None or player == state.player:
        out["hand"] = list(state.hand)
    if player is None:
        out["stock_cards"] = sorted(state.stock)
        out["discard_pile"] = list(state.discard)
    return out


def prompts(state: MountainState) -> tuple[Prompt, ...]:
    """What the player does next (the table needs no other person)."""
    if state.result is not None:
        return ()
    who = state.player
    if state.phase is Phase.ACTIONS:
        damage = len(state.geo.attackers(state.mountain))
        attack = Prompt(
            who,
            "end_turn",
            f"end the turn: the threats attack for {damage}; discard {damage} health from the {state.options.damage_from}",
        )
        if len(state.acted) == 1:
            return (Prompt(who, "act", "play a second set of another suit, or end the turn"), attack)
        return (attack,)
    short = state.hand_limit - len(state.hand)
    if short > 0 and state.stock:
        return (Prompt(who, "draw", f"draw {short} more card{'s' if short > 1 else ''}: tap each on the hand pad"),)
    return (Prompt(who, "act", "play a set of 2 or 3 cards of one suit, or remove one exposed card (skip)"),)
