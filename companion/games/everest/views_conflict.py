"""The conflict the table is resolving, as the scoreboard shows it (EV-CONFLICT, EV-ORDER).

While every player rolls and then while the high roller orders, the scoreboard carries
``conflict``: the yeti whose actions are in conflict, every action the high roller orders (exactly
what an order entry lists: "the order for all the actions"), two orders that end differently and
why, the dice so far, and one line for the page ("conflict: red, blue, green — roll"). It is null
otherwise.
"""

from __future__ import annotations

import logging

from companion.core import JsonObject
from .moves import DIE_FACES
from .state import ConflictRolls, EverestState, OrderChoice, Runner

log = logging.getLogger(__name__)


def _action(state: EverestState, seat: int, step: int, runners: tuple[Runner, ...]) -> str:
    for runner in runners:
        if runner.seat == seat:
            return f"run away {runner.mp} {runner.dir}"
    plan = state.plans[seat] or ()
    return plan[step].label if step < len(plan) else "stands dazed"


def conflict(state: EverestState) -> JsonObject | None:
    need = state.need
    if not isinstance(need, (ConflictRolls, OrderChoice)):
        return None
    names = state.players
    witness = need.witness
    yeti = [names[s] for s in (witness.group if witness else need.seats)]
    if isinstance(need, ConflictRolls):
        awaiting = "roll"
        line = f"conflict: {', '.join(yeti)} — roll"
        rolls: JsonObject = {names[s]: DIE_FACES[v] for s, v in need.rolled}
        chooser = None
    else:
        awaiting = "order"
        line = f"conflict: {', '.join(yeti)} — {names[need.chooser]} orders"
        rolls = {}
        chooser = names[need.chooser]
    return {
        "kind": need.kind,
        "coin": need.step + 1,
        "yeti": yeti,
        "actions": [{"player": names[s], "action": _action(state, s, need.step, need.runners)} for s in need.seats],
        "orders": [[names[s] for s in witness.first], [names[s] for s in witness.second]] if witness else [],
        "why": witness.why if witness else "",
        "awaiting": awaiting,
        "rolls": rolls,
        "chooser": chooser,
        "line": line,
    }
