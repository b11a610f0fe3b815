"""What the table sees: the public scoreboard, each player's view, and the prompts.

A plan's contents are secret until every plan is in (EV-SECRET): the scoreboard only says whose
plan is in; a player's own view shows that player's plan; the referee's view shows everything.
"""

from __future__ import annotations

import logging
from typing import Any

from companion.core import JsonObject, Prompt
from . import dice
from .moves import COINS, PlanCoin
from .rounds import coins_to_set_aside, forced_home, heal_barred, sole_on_peak
from .state import (
    ConflictRolls,
    EverestState,
    OrderChoice,
    Phase,
    RoarChecks,
    RoarReactions,
)
from .views_conflict import conflict

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
        "set_aside": {p: {"count": state.aside[s], "coins": _named(state, s)} for s, p in enumerate(players)},
        "homes": {p: list(state.homes[s]) for s, p in enumerate(players)},
        "heights": state.board.grid(),
        "peak_tile": sorted([list(sq) for sq in state.board.peak]),
        "waiting": waiting(state),
        "conflict": conflict(state),
        "events": list(state.events),
        "winner": _name(state, state.winner),
    }


def _named(state: EverestState, seat: int) -> list[str]:
    """The set-aside coins the table named, in coin order (the rest of the count is unnamed)."""
    return [coin for coin in COINS if coin in state.aside_known[seat]]


def waiting(state: EverestState) -> JsonObject | None:
    """What the game waits for, without a secret: {"verb", "players", "why"}."""
    need = state.need
    names = state.players
    if state.phase is Phase.PLAN:
        owed = [p for s, p in enumerate(names) if state.plans[s] is None and state.usable(s) > 0]
        return {"verb": "plan", "players": owed, "why": "secret plans"}
    if state.phase is Phase.ROUND_END:
        return {"verb": "end_round", "players": [], "why": "the round's actions are done"}
    if isinstance(need, (ConflictRolls, RoarChecks, RoarReactions)):
        rollers = dice.rollers(state)
        why = "conflict" if isinstance(need, ConflictRolls) else "roar check" if isinstance(need, RoarChecks) else "roar reaction"
        return {"verb": "roll", "players": [names[s] for s in rollers], "why": why, "rolls": _rolls(state, rollers)}
    if isinstance(need, OrderChoice):
        return {"verb": "order", "players": [names[need.chooser]], "why": "conflict"}
    return None


def _rolls(state: EverestState, rollers: tuple[int, ...]) -> JsonObject:
    """Each awaited roll, by player: what it is for (the notation's ``purpose`` and ``roarer``)."""
    out: JsonObject = {}
    for seat in rollers:
        ask = dice.asked(state, seat)
        assert ask is not None
        purpose, roarer = ask
        out[state.players[seat]] = {
            "purpose": purpose,
            "roarer": _name(state, roarer),
            "for": dice.purpose_text(state, purpose, roarer),
        }
    return out


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
        return (Prompt(None, "end_round", _end_round_text(state)),) + _choice_prompts(state)
    need = state.need
    if isinstance(need, OrderChoice):
        board = conflict(state)
        assert board is not None
        actions = "; ".join(f"{a['player']}: {a['action']}" for a in board["actions"])
        what = "the runaways" if need.kind == "runaway" else f"the actions of coin {need.step + 1} (snowballs still fly together)"
        return (
            Prompt(
                names[need.chooser],
                "order",
                f"{names[need.chooser]}: you have the high roll; name the order of {what}: {actions} — {board['why']}",
            ),
        )
    return tuple(Prompt(names[s], "roll", f"{names[s]}: roll your die for {_roll_reason(state, s)}") for s in rollers)


def _roll_reason(state: EverestState, seat: int) -> str:
    need = state.need
    ask = dice.asked(state, seat)
    assert ask is not None
    purpose, roarer = ask
    wanted = dice.purpose_text(state, purpose, roarer)
    if isinstance(need, ConflictRolls):
        why = f" — {need.witness.why}" if need.witness is not None else ""
        return f"{wanted}; the high roller orders them{why}"
    if purpose == "check":
        return f"{wanted}: a blank means your yeti is affected"
    affects = need.affected if isinstance(need, RoarReactions) else need.hits if isinstance(need, RoarChecks) else ()
    ace_blank = any(a.seat == seat and a.ace_blank for a in affects)
    ace = "an ace counts as a blank" if ace_blank else "an ace roars back"
    return f"{wanted}: 2-5 your yeti runs away, {ace}, a blank shivers"


def _choice_prompts(state: EverestState) -> tuple[Prompt, ...]:
    """One optional prompt per player who may still choose at the round's end (heal or set_aside)."""
    out = []
    for seat, name in enumerate(state.players):
        if forced_home(state, seat) or seat in state.heal_chosen:
            continue
        due = coins_to_set_aside(state, seat, False)
        coins = f"the {due} coin{'s' if due != 1 else ''} to set aside"
        if heal_barred(state, seat):  # EV-EDGE-HOME: no healing, but it may still name its coins
            if due:
                out.append(Prompt(name, "set_aside", f"{name}: you may name {coins} (optional)"))
            continue
        aside = f", or name {coins}" if due else ""
        out.append(Prompt(name, "heal", f"{name}: you may send your yeti home to heal{aside} (optional)"))
    return tuple(out)


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
