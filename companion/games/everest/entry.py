"""Everest by tapping: the moves worth offering, and each field's values as a seat sees them.

A plan is secret and large (three coins, each face up or down, each a direction): its coins are
offered as tiles (:data:`.picks.PLANNED_COIN`) and not judged one by one, so the engine's own check
decides the finished plan. Rolls, orders, heals and set-aside coins are small: one tap each.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations, permutations

from companion.core import Move
from companion.core.picks import Choice, Pick
from . import dice
from .picks import ARROWS, COIN, PLANNED_COIN
from .rounds import coins_to_set_aside, forced_home, heal_barred, plans_needed, roll_waiting
from .moves import COINS, DIE_FACES, MAX_PLAN, EndRound, Heal, Order, Plan, PlanCoin, Roll, SetAside
from .state import EverestState, OrderChoice, Phase

DIRECTIONS = ("N", "E", "S", "W")
ORDERS_OFFERED = 24
"""Every order of up to four actions is offered whole (4! = 24)."""


def candidates(state: EverestState, by: str | None) -> Iterator[Move]:
    names = state.players
    if by is None:
        if state.phase is Phase.ROUND_END:
            yield EndRound()
        return
    if by not in names:
        return
    seat = names.index(by)
    if state.phase is Phase.PLAN:
        if seat in plans_needed(state):
            # One plan stands for all (the coins are a free field, not judged one by one): the
            # engine judges the finished plan.
            usable = [c for c in COINS if c not in state.aside_known[seat]][: min(MAX_PLAN, state.usable(seat))]
            yield Plan(by=by, coins=tuple(PlanCoin(c, "value", "N") for c in usable))
        return
    if state.phase is Phase.ROUND_END:
        if not heal_barred(state, seat) and not forced_home(state, seat) and seat not in state.heal_chosen:
            yield Heal(by=by)
        # Each way to name the coins the round's damage sets aside (EV-DAMAGE; none when unhurt), so
        # that the coins step offers the yeti's own coins rather than nothing.
        usable = [c for c in COINS if c not in state.aside_known[seat]]
        for coins in combinations(usable, min(coins_to_set_aside(state, seat, False), len(usable))):
            yield SetAside(by=by, coins=coins)
        return
    need = state.need
    if isinstance(need, OrderChoice):
        if need.chooser == seat:
            for sequence in list(permutations([names[s] for s in need.seats]))[:ORDERS_OFFERED]:
                yield Order(by=by, sequence=sequence)
        return
    if seat in roll_waiting(state):
        ask = dice.asked(state, seat)
        purpose, roarer = ask if ask is not None else (None, None)
        for value in DIE_FACES:
            yield Roll(by=by, value=value, purpose=purpose, roarer=None if roarer is None else names[roarer])


def planned_label(coin: str, face: str, way: str) -> str:
    """A planned coin as the table says it, as the revealed plans read: "move 2 ↑ N", "roar → E",
    "snowball (3) ← W" (a snowball names its coin: the coin is spent either way)."""
    arrow = f"{ARROWS[way]} {way}"
    if face == "suit":
        return f"snowball ({coin}) {arrow}"
    if coin == "blank":
        return f"roar {arrow}"
    return f"move {1 if coin == 'ace' else coin} {arrow}"


def choices(state: EverestState, viewer: str | None, by: str | None, pick: Pick, every: bool) -> Sequence[Choice] | None:
    names = state.players
    if pick is PLANNED_COIN:
        seat = names.index(by) if by in names else None
        usable = [c for c in COINS if every or seat is None or c not in state.aside_known[seat]]
        return [
            Choice({"coin": coin, "face": face, "dir": way}, planned_label(coin, face, way))
            for coin in usable
            for face in ("value", "suit")
            for way in DIRECTIONS
        ]
    if pick is COIN:
        return [Choice(c, c) for c in COINS]
    if pick is Pick.PLAYER:
        return [Choice(p, p) for p in names]
    return None
