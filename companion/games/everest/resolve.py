"""Carrying out the revealed plans coin by coin, as a resumable machine (EV-SIMULTANEOUS).

``advance`` works through the agenda until it needs a person: die rolls after a conflict or a roar,
or the high roller's order. ``rolled`` and ``ordered`` feed that answer in and advance again. Every
function takes a frozen state and returns a new one; the work happens on a :class:`Scratch` copy.
"""

from __future__ import annotations

import logging
from dataclasses import replace

from companion.games.everest.board import Direction
from companion.games.everest.conflicts import Kind, Unit, step_units, units_conflict
from companion.games.everest.moves import PlanCoin
from companion.games.everest.movement import Scratch, move, snowballs
from companion.games.everest.roars import Done, check_rolled, reaction_rolled, start_wave
from companion.games.everest.rounds import finish_actions
from companion.games.everest.state import (
    ConflictRolls,
    DoAction,
    DoRoars,
    DoRun,
    DoRunaway,
    DoSnowballs,
    EverestState,
    Item,
    Need,
    OrderChoice,
    Phase,
    Roar,
    RoarChecks,
    RoarReactions,
    Runner,
    StepStart,
)

log = logging.getLogger(__name__)

STEPS = 3


class _Work:
    """The mutable working copy of one resolution pass."""

    def __init__(self, state: EverestState) -> None:
        self.state = state
        self.t = Scratch(
            state.board,
            state.players,
            state.positions,
            state.damage,
            state.off_edge,
            state.options.pushed_fall_damage,
        )
        self.agenda: list[Item] = list(state.agenda)
        self.need: Need | None = state.need
        self.step = state.step

    def coin(self, seat: int, step: int) -> PlanCoin | None:
        plan = self.state.plans[seat]
        if plan is None or step >= len(plan):
            return None
        return plan[step]

    def done(self) -> EverestState:
        state = self.state.evolve(
            positions=tuple(self.t.pos),
            damage=tuple(self.t.damage),
            off_edge=frozenset(self.t.off),
            agenda=tuple(self.agenda),
            need=self.need,
            step=self.step,
            events=self.state.events + tuple(self.t.events),
        )
        if self.need is None and not self.agenda:
            return finish_actions(state)
        return state


def reveal(state: EverestState) -> EverestState:
    """Every plan is in: show them and start carrying them out (EV-SECRET, EV-SIMULTANEOUS)."""
    plans = tuple(p if p is not None else () for p in state.plans)
    shown = "; ".join(f"{state.players[s]}: " + (", ".join(c.text() for c in p) or "stands dazed") for s, p in enumerate(plans))
    state = state.evolve(
        phase=Phase.RESOLVE,
        plans=plans,
        agenda=tuple(StepStart(i) for i in range(STEPS)),
        events=state.events + (f"EV-SECRET: the plans are revealed: {shown}",),
    )
    return advance(state)


def advance(state: EverestState) -> EverestState:
    w = _Work(state)
    _run(w)
    return w.done()


def _run(w: _Work) -> None:
    while w.need is None and w.agenda:
        item = w.agenda.pop(0)
        if isinstance(item, StepStart):
            _start_step(w, item.step)
        elif isinstance(item, DoAction):
            coin = w.coin(item.seat, item.step)
            if coin is None or item.seat in w.t.off:
                continue
            if coin.kind == "roar":
                _roar(w, (item.seat,), item.step)
            else:
                move(w.t, item.seat, coin.dir, coin.mp)
        elif isinstance(item, DoSnowballs):
            throws = []
            for seat in item.seats:
                coin = w.coin(seat, item.step)
                if coin is not None and seat not in w.t.off:
                    throws.append((seat, coin.dir))
            snowballs(w.t, throws)
        elif isinstance(item, DoRoars):
            _roar(w, item.seats, item.step)
        elif isinstance(item, DoRunaway):
            _runaway(w, item.runners)
        else:
            runner = item.runner
            if runner.seat not in w.t.off:
                move(w.t, runner.seat, runner.dir, runner.mp, "runs away", "EV-RUNAWAY")


def _kind(coin: PlanCoin) -> Kind:
    return "snowballs" if coin.kind == "snowball" else coin.kind


def _start_step(w: _Work, step: int) -> None:
    w.step = step
    actions: dict[int, tuple[Kind, Direction, int]] = {}
    for seat in range(len(w.state.players)):
        coin = w.coin(seat, step)
        if seat in w.t.off or w.t.pos[seat] is None:
            continue  # EV-EDGE: its remaining actions are cancelled
        if coin is None:
            w.t.note(f"EV-DAZED: coin {step + 1}: {w.state.players[seat]}'s yeti stands there and looks dazed")
            continue
        actions[seat] = (_kind(coin), coin.dir, coin.mp)
    units = step_units(actions)
    seats = tuple(sorted(actions))
    if units_conflict(w.t, units):
        names = ", ".join(w.state.players[s] for s in seats)
        w.t.note(f"EV-CONFLICT: coin {step + 1}: the actions of {names} conflict; every player rolls, the high roller orders them")
        w.need = ConflictRolls("actions", step, seats, (), tuple(range(len(w.state.players))))
        return
    w.agenda[0:0] = _canonical(actions, step)


def _canonical(actions: dict[int, tuple[Kind, Direction, int]], step: int) -> list[Item]:
    """No conflict: any order ends the same, so moves, then the snowballs, then the roars together."""
    items: list[Item] = []
    throwers: list[int] = []
    roarers: list[int] = []
    for seat in sorted(actions):
        kind = actions[seat][0]
        if kind == "move":
            items.append(DoAction(seat, step))
        elif kind == "snowballs":
            throwers.append(seat)
        else:
            roarers.append(seat)
    if throwers:
        items.append(DoSnowballs(tuple(throwers), step))
    if roarers:
        items.append(DoRoars(tuple(roarers), step))
    return items


def _roar(w: _Work, seats: tuple[int, ...], step: int) -> None:
    roars = []
    for seat in seats:
        coin = w.coin(seat, step)
        if coin is None or seat in w.t.off:
            continue
        roars.append(Roar(seat, coin.dir))
        w.t.note(f"EV-ROAR: {w.state.players[seat]}'s yeti roars {coin.dir}")
    _after_roll(w, start_wave(w.t.pos, roars, ()))


def _after_roll(w: _Work, nxt: RoarChecks | RoarReactions | Done) -> None:
    if isinstance(nxt, Done):
        w.need = None
        if nxt.runners:
            w.agenda.insert(0, DoRunaway(nxt.runners))
    else:
        w.need = nxt


def _runaway(w: _Work, runners: tuple[Runner, ...]) -> None:
    """EV-RUNAWAY: runaways move like an action turn; everybody else is stationary."""
    runners = tuple(r for r in runners if r.seat not in w.t.off)
    units: list[Unit] = [("move", ((r.seat, r.dir, r.mp),)) for r in runners]
    if units_conflict(w.t, units):
        names = ", ".join(w.state.players[r.seat] for r in runners)
        w.t.note(f"EV-CONFLICT: the runaways of {names} conflict; every player rolls, the high roller orders them")
        seats = tuple(r.seat for r in runners)
        w.need = ConflictRolls("runaway", w.step, seats, runners, tuple(range(len(w.state.players))))
        return
    w.agenda[0:0] = [DoRun(r) for r in sorted(runners, key=lambda r: r.seat)]


def rolled(state: EverestState, seat: int, value: int) -> EverestState:
    """A die roll the engine asked for (``state.need`` waits for ``seat``)."""
    w = _Work(state)
    need = w.need
    names = state.players
    if isinstance(need, ConflictRolls):
        got = need.rolled + ((seat, value),)
        waiting = tuple(s for s in need.waiting if s != seat)
        if waiting:
            w.need = replace(need, rolled=got, waiting=waiting)
        else:
            top = max(v for _, v in got)
            tied = tuple(sorted(s for s, v in got if v == top))
            if len(tied) > 1:
                w.t.note(f"EV-CONFLICT: {', '.join(names[s] for s in tied)} tie for the high roll and roll again")
                w.need = replace(need, rolled=(), waiting=tied)
            else:
                w.t.note(f"EV-ORDER: {names[tied[0]]} has the high roll and chooses the order")
                w.need = OrderChoice(tied[0], need.kind, need.step, need.seats, need.runners)
    elif isinstance(need, RoarChecks):
        _after_roll(w, check_rolled(need, seat, value, names, w.t.events))
    elif isinstance(need, RoarReactions):
        _after_roll(w, reaction_rolled(need, seat, value, w.t.pos, names, w.t.events))
    else:  # pragma: no cover - check() only lets a roll through when a roll is awaited
        raise ValueError("no roll is awaited")
    _run(w)
    return w.done()


def ordered(state: EverestState, sequence: tuple[int, ...]) -> EverestState:
    """The high roller's order for the conflicting actions (EV-ORDER); snowballs still fly together."""
    w = _Work(state)
    need = w.need
    assert isinstance(need, OrderChoice)
    items: list[Item] = []
    if need.kind == "runaway":
        by_seat = {r.seat: r for r in need.runners}
        items = [DoRun(by_seat[s]) for s in sequence]
    else:
        throwers = tuple(s for s in sequence if (c := w.coin(s, need.step)) is not None and c.kind == "snowball")
        for seat in sequence:
            coin = w.coin(seat, need.step)
            assert coin is not None
            if coin.kind == "snowball":
                if seat == throwers[0]:
                    items.append(DoSnowballs(throwers, need.step))  # EV-SNOWBALL-TOGETHER
            elif coin.kind == "roar":
                items.append(DoRoars((seat,), need.step))
            else:
                items.append(DoAction(seat, need.step))
    w.t.note("EV-ORDER: " + ", ".join(state.players[s] for s in sequence) + " act in that order")
    w.need = None
    w.agenda[0:0] = items
    _run(w)
    return w.done()
