"""What people see: the public scoreboard, the player's and referee's views, and the prompts."""

from __future__ import annotations

import logging

from companion.core import JsonObject, Prompt
from .cards import POSITIONS, SLOTS, SUITS
from .scoring import score
from .state import MountainState, Phase

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


ACTION_NAMES = {"C": "clubs: chain removal", "S": "spades: suit/rank removal", "D": "diamonds: dual removal", "H": "hearts: heal"}


def _sets_in_hand(state: MountainState) -> list[str]:
    """The suits the hand holds a set of (2 or more) that may still act this turn (TM-SET, TM-TWO-SETS)."""
    if state.skipped or len(state.acted) >= 2:
        return []
    return [s for s in SUITS if s not in state.acted and sum(1 for c in state.hand if c[-1] == s) >= 2]


def prompts(state: MountainState) -> tuple[Prompt, ...]:
    """What the player does next, one prompt per verb that may come now (TM-ORDER)."""
    if state.result is not None:
        return ()
    who = state.player
    sets = "; ".join(ACTION_NAMES[s] for s in _sets_in_hand(state))
    if state.phase is Phase.ACTIONS:
        damage = len(state.geo.attackers(state.mountain))
        attack = Prompt(
            who,
            "end_turn",
            f"{who}: end the turn; the threats attack for {damage}: discard {damage} health from the {state.options.damage_from}",
        )
        if sets:
            return (Prompt(who, "act", f"{who}: play a second set of another suit ({sets}), or end the turn"), attack)
        return (attack,)
    out: list[Prompt] = []
    if state.phase is Phase.DISCARD and state.hand:
        out.append(Prompt(who, "discard", f"{who}: discard the cards you do not want (optional), then draw"))
    short = state.hand_limit - len(state.hand)
    top = f" or the health pile's top ({state.health[0]})" if state.health else ""
    if short > 0 and state.stock:
        plural = "s" if short > 1 else ""
        out.append(Prompt(who, "draw", f"{who}: draw {short} more card{plural} from the stock{top}"))
        return tuple(out)
    if short > 0 and state.health:
        out.append(Prompt(who, "draw", f"{who}: the stock is empty; you may draw from the health pile's top ({state.health[0]})"))
    if sets:
        out.append(Prompt(who, "act", f"{who}: play a set of 2 or 3 cards of one suit ({sets})"))
    out.append(Prompt(who, "skip", f"{who}: {'or ' if sets else ''}skip: remove one exposed card from the mountain"))
    return tuple(out)
