"""What the table sees: the public scoreboard, each player's view, and the prompts.

A plan's contents are secret until every plan is in (EV-SECRET): the scoreboard only says whose
plan is in; a player's own view shows that player's plan; the referee's view shows everything.
"""

from __future__ import annotations

import logging
from typing import Any

from companion.core import JsonObject, Prompt
from companion.games.everest.moves import PlanCoin
from companion.games.everest.rounds import forced_home, heal_barred, sole_on_peak
from companion.games.everest.state import (
    ConflictRolls,
    EverestState,
    OrderChoice,
    Phase,
    RoarChecks,
    RoarReactions,
)

log = logging.getLogger(__name__)


def _coins(plan: tuple[PlanCoin, ...]) -> list[JsonObject]:
    return [{"coin": c.coin, "face": c.face, "dir": c.dir} for c in plan]


def _square(square: tuple[int, int] | None) -> list[int] | None:
    return None if square is None else [square[0], square[1]]


def _name(state: EverestState, seat: int | None) -> str | None:
    return None if seat is None else state.players[seat]


def scoreboard(state: EverestState) -> JsonObject:
    players = state.players
    revealed = state.phase is not Phase.PLAN
    return {
        # NOTATION.md keys
        "positions": {p: _square(state.positions[s]) for s, p in enumerate(players)},
        "damage": {p: state.damage[s] for s, p in enumerate(players)},
        "coins": {p: state.usable(s) for s, p in enumerate(players)},
        "peak": _name(state, sole_on_peak(state.board, state.positions)),
        "round": state.round,
        # extras for the table and the web page
        "phase": state.phase.value,
        "step": state.step + 1 if state.phase is Phase.RESOLVE else None,
        "planned": [p for s, p in enumerate(players) if state.plans[s] is not None] if not revealed else list(players),
        "plans": {p: _coins(state.plans[s] or ()) for s, p in enumerate(players)} if revealed else {},
        "peak_holder": _name(state, state.peak_start),
        "off_board": [p for s, p in enumerate(players) if state.positions[s] is None],
        "homes": {p: list(state.homes[s]) for s, p in enumerate(players)},
        "heights": state.board.grid(),
        "peak_tile": sorted([list(sq) for sq in state.board.peak]),
        "waiting": waiting(state),
        "events": list(state.events),
        "winner": _name(state, state.winner),
    }


def waiting(state: EverestState) -> JsonObject | None:
    """What the game waits for, without a secret: {"verb", "players", "why"}."""
    need = state.need
    names = state.players
    if state.phase is Phase.PLAN:
        owed = [p for s, p in enumerate(names) if state.plans[s] is None and state.usable(s) > 0]
        return {"verb": "plan", "players": owed, "why": "secret plans"}
    if state.phase is Phase.ROUND_END:
        return {"verb": "end_round", "players": [], "why": "the round's actions are done"}
    if isinstance(need, ConflictRolls):
        return {"verb": "roll", "players": [names[s] for s in need.waiting], "why": "conflict"}
    if isinstance(need, RoarChecks):
        return {"verb": "roll", "players": [names[s] for s, _ in need.waiting], "why": "roar check"}
    if isinstance(need, RoarReactions):
        return {"verb": "roll", "players": [names[s] for s in need.waiting], "why": "roar reaction"}
    if isinstance(need, OrderChoice):
        return {"verb": "order", "players": [names[need.chooser]], "why": "conflict"}
    return None


def view(state: EverestState, player: str | None) -> JsonObject:
    out = scoreboard(state)
    if player is None:
        out["plans"] = {p: (_coins(plan) if plan is not None else None) for p, plan in zip(state.players, state.plans)}
        out["aside"] = {p: state.aside[s] for s, p in enumerate(state.players)}
        out["aside_named"] = {p: sorted(state.aside_known[s]) for s, p in enumerate(state.players)}
        out["need"] = _need(state)
        return out
    seat = state.seat(player)
    out["you"] = player
    if seat is not None:
        plan = state.plans[seat]
        out["plan"] = _coins(plan) if plan is not None else None
        out["aside_named"] = sorted(state.aside_known[seat])
    return out


def _need(state: EverestState) -> Any:
    need = state.need
    if need is None:
        return None
    return {"kind": type(need).__name__, "detail": repr(need)}


def prompts(state: EverestState, owed: tuple[int, ...], rollers: tuple[int, ...]) -> tuple[Prompt, ...]:
    names = state.players
    if state.phase is Phase.PLAN:
        return tuple(
            Prompt(names[s], "plan", f"{names[s]}: plan {min(3, state.usable(s))} coins in secret ({state.usable(s)} usable)")
            for s in owed
        )
    if state.phase is Phase.ROUND_END:
        return (Prompt(None, "end_round", _end_round_text(state)),)
    need = state.need
    if isinstance(need, OrderChoice):
        acting = ", ".join(names[s] for s in need.seats)
        what = "runaways" if need.kind == "runaway" else "actions"
        return (
            Prompt(
                names[need.chooser],
                "order",
                f"{names[need.chooser]}: you have the high roll; name the order of the {what} of {acting} "
                "(snowballs still fly together)",
            ),
        )
    return tuple(Prompt(names[s], "roll", f"{names[s]}: roll your die: {_roll_reason(state, s)}") for s in rollers)


def _roll_reason(state: EverestState, seat: int) -> str:
    need = state.need
    names = state.players
    if isinstance(need, ConflictRolls):
        acting = ", ".join(names[s] for s in need.seats)
        return f"the {'runaways' if need.kind == 'runaway' else 'actions'} of {acting} conflict; the high roller orders them"
    if isinstance(need, RoarChecks):
        roarer = dict(need.waiting)[seat]
        return f"your yeti stands beside {names[roarer]}'s roar; a blank means it is affected"
    if isinstance(need, RoarReactions):
        affect = next(a for a in need.affected if a.seat == seat)
        ace = "an ace counts as a blank" if affect.ace_blank else "an ace roars back"
        return f"your yeti is startled by {names[affect.roarer]}'s roar: 2-5 it runs away, {ace}, a blank shivers"
    return "asked by the engine"  # pragma: no cover


def _end_round_text(state: EverestState) -> str:
    names = state.players
    parts = ["end the round"]
    forced = [names[s] for s in range(len(names)) if forced_home(state, s)]
    edge = [names[s] for s in sorted(state.off_edge)]
    if forced:
        parts.append(f"forced home to heal: {', '.join(forced)}")
    if edge:
        parts.append(f"back home from off the edge (no healing): {', '.join(edge)}")
    damaged = [f"{names[s]} {state.damage[s]}" for s in range(len(names)) if state.damage[s] and not forced_home(state, s)]
    if damaged:
        parts.append(f"damage to set aside: {', '.join(damaged)}")
    may = [names[s] for s in range(len(names)) if not heal_barred(state, s) and not forced_home(state, s)]
    if may:
        parts.append(f"may go home to heal: {', '.join(may)}")
    return "; ".join(parts)
