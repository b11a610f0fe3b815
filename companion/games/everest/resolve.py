"""Carrying out the revealed plans coin by coin, as a resumable machine (EV-SIMULTANEOUS).

``advance`` works through the agenda until it needs a person: die rolls after a conflict or a roar,
or the high roller's order. ``rolled`` and ``ordered`` feed that answer in and advance again. Every
function takes a frozen state and returns a new one; the work happens on a :class:`Scratch` copy.
"""

from __future__ import annotations

import logging
from operator import attrgetter, itemgetter
from typing import Any, Literal, cast

from companion.core.frozen import replaced
from .board import Board, indices, squares_of
from .conflicts import Kind, Part, Unit, find_conflict
from .dice import conflict_text
from .moves import DIE_FACES, PlanCoin
from .movement import Scratch, move, snowballs, still_throwing
from .reaches import table
from .roars import Done, check_rolled, early_reaction, reaction_rolled, start_wave
from .rounds import finished
from .state import (
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
    RESOLVE,
    Roar,
    RoarChecks,
    RoarReactions,
    Runner,
    StepStart,
    Witness,
    evolved,
)
from .witness import explain

log = logging.getLogger(__name__)

STEPS = 3


class _Work:
    """The mutable working copy of one resolution pass."""

    __slots__ = ("state", "plans", "names", "t", "agenda", "need", "step")

    def __init__(self, state: EverestState) -> None:
        self.state = state
        self.plans = state.plans
        self.names = state.players
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
        plan = self.plans[seat]
        if plan is None or step >= len(plan):
            return None
        return plan[step]

    def done(self, **changes: Any) -> EverestState:
        """The next state: the work done, plus ``changes``; the end of the actions if nothing is left
        (all in one ``evolve``, as it happens at least once per move)."""
        positions = squares_of(self.t.pos)
        events = self.state.events + tuple(self.t.events)
        work = {
            "positions": positions,
            "damage": tuple(self.t.damage),
            "off_edge": frozenset(self.t.off),
            "agenda": tuple(self.agenda),
            "need": self.need,
            "step": self.step,
            "events": events,
        }
        work.update(changes)
        if self.need is None and not self.agenda:
            work.update(finished(self.state, positions, events))
        return replaced(self.state, work)


_LABEL = attrgetter("label")  # how the reveal names a coin (PlanCoin.label)
_SEAT = itemgetter(0)  # the seat of a (seat, coin, reach) of _start_step
_STEP_STARTS: tuple[Item, ...] = tuple(StepStart(i) for i in range(STEPS))
"""The agenda of a revealed round, built once (frozen values, compared by value only)."""


def reveal(state: EverestState, plans: tuple[tuple[PlanCoin, ...] | None, ...] | None = None) -> EverestState:
    """Every plan is in (``plans``, if not yet in ``state``): show them and start carrying them out
    (EV-SECRET, EV-SIMULTANEOUS)."""
    given = state.plans if plans is None else plans
    shown: tuple[tuple[PlanCoin, ...], ...]
    if None in given:  # a player with no usable coins made no plan (EV-DAZED): rare, only then rebuilt
        shown = tuple([p if p is not None else () for p in given])
    else:
        shown = cast("tuple[tuple[PlanCoin, ...], ...]", given)  # (no None in it, as just asked)
    lines = []  # (a loop, not a comprehension: one function call fewer, every round)
    for name, plan in zip(state.players, shown):
        lines.append(f"{name}: {', '.join(map(_LABEL, plan)) or 'stands dazed'}")
    w = _Work(state)
    w.plans = shown
    w.agenda = list(_STEP_STARTS)
    w.t.events.append("EV-SECRET: the plans are revealed: " + "; ".join(lines))
    _run(w)
    return w.done(phase=RESOLVE, plans=shown)


def _run(w: _Work) -> None:
    # Dispatch on the exact class (agenda items are never subclassed), most frequent first: a
    # step's own actions are done by _start_step, so the queued ones come from orders and roars.
    agenda = w.agenda
    t = w.t
    plans = w.plans
    while w.need is None and agenda:
        item = agenda.pop(0)
        if type(item) is StepStart:
            _start_step(w, item.step)
        elif type(item) is DoAction:
            seat, step = item.seat, item.step
            plan = plans[seat]
            if plan is None or step >= len(plan) or seat in t.off:
                continue
            coin = plan[step]
            if coin.kind == "roar":
                _roar(w, (seat,), step)
            else:
                move(t, seat, coin.dir, coin.mp)
        elif type(item) is DoSnowballs:
            throws = []
            for seat in item.seats:
                thrown = w.coin(seat, item.step)
                if thrown is not None and seat not in t.off:
                    throws.append((seat, thrown.dir))
            snowballs(t, throws)
        elif type(item) is DoRoars:
            _roar(w, item.seats, item.step)
        elif type(item) is DoRunaway:
            _runaway(w, item.runners)
        elif type(item) is DoRun:
            runner = item.runner
            if runner.seat not in t.off:
                move(t, runner.seat, runner.dir, runner.mp, "runs away", "EV-RUNAWAY")
        else:  # pragma: no cover - the agenda holds only the items above
            raise TypeError(f"not an agenda item: {item!r}")


def _start_step(w: _Work, step: int) -> None:
    """Find the step's actions and whether they conflict (EV-CONFLICT); with no conflict, carry them
    out in the canonical order: moves, then the snowballs, then the roars together (any order ends
    the same, so this one will).

    One pass over the seats finds the actions and what each could touch (reaches.reach); the
    units for conflicts.find_conflict (each move and roar alone, every snowball as one) are built
    only when two of those touch. The canonical actions are done here and now rather than queued
    as DoAction, DoSnowballs and DoRoars items and popped straight back off the agenda: the result
    is the same, because only a roar can stop for dice and the roars come last.
    """
    w.step = step
    t = w.t
    names = w.names
    plans = w.plans
    board = t.board
    memo = board.memo  # reaches.reach's table, read here first: this runs for every coin
    off, pos = t.off, t.pos
    moves: list[tuple[int, PlanCoin, int]] = []  # (seat, coin, its reach)
    throws: list[Part] = []
    roars: list[tuple[int, PlanCoin, int]] = []
    seen = 0  # the squares the moves and roars so far could touch (reaches.reach)
    thrown = 0  # the same for the snowballs, which fly together as one unit
    touching = False
    for seat, plan in enumerate(plans):
        here = pos[seat]
        if seat in off or here is None:
            continue  # EV-EDGE: its remaining actions are cancelled
        if plan is None or step >= len(plan):
            t.events.append(f"EV-DAZED: coin {step + 1}: {names[seat]}'s yeti stands there and looks dazed")
            continue
        coin = plan[step]
        kind = coin.kind
        if kind == "snowball":
            throws.append((seat, coin.dir, 0))
            thrown |= (memo.get(coin.label) or _coin_table(board, coin))[here]
            continue
        squares = (memo.get(coin.label) or _coin_table(board, coin))[here]
        (moves if kind == "move" else roars).append((seat, coin, squares))
        if seen & squares:
            touching = True
        seen |= squares
    # Only units whose reaches touch can change each other (conflicts.find_conflict): with none
    # touching, which is most steps, no order can matter and the units need not be built.
    if touching or seen & thrown:
        # (listed moves, roars, snowballs: the answer does not depend on the order of the units)
        # (a loop, not comprehensions: each is a function call in 3.11, and this runs for most steps)
        units: list[Unit] = []
        reaches: list[int] = []
        for seat, coin, squares in moves:
            units.append(("move", ((seat, coin.dir, coin.mp),)))
            reaches.append(squares)
        for seat, coin, squares in roars:
            units.append(("roar", ((seat, coin.dir, 0),)))
            reaches.append(squares)
        if throws:
            units.append(("snowballs", tuple(throws)))
            reaches.append(thrown)
        found = find_conflict(t, units, reaches)
        if found is not None:
            seats = tuple(sorted([seat for _, parts in units for seat, _, _ in parts]))
            witness = explain(t, found)
            who = ", ".join([names[s] for s in witness.group])
            t.events.append(
                f"EV-CONFLICT: coin {step + 1}: the actions of {who} conflict ({witness.why}); "
                f"every player rolls, the high roller orders all the actions of coin {step + 1}"
            )
            w.need = _conflict_rolls(names, "actions", step, seats, (), witness)
            return
    # What _run does for DoAction, DoSnowballs and DoRoars: a yeti pushed off the edge by an
    # earlier action of this step does nothing (EV-EDGE).
    for seat, coin, _ in moves:
        if seat not in off:
            move(t, seat, coin.dir, coin.mp)
    if throws:
        snowballs(t, still_throwing(throws, off))
    if roars:
        _roar(w, tuple(map(_SEAT, roars)), step)


def _conflict_rolls(
    names: tuple[str, ...], kind: Literal["actions", "runaway"], step: int, seats: tuple[int, ...], runners: tuple[Runner, ...], witness: Witness
) -> ConflictRolls:
    """EV-CONFLICT: every player rolls, the high roller orders; what the rolls are for is said once
    (``ConflictRolls.said``), not again for each roll."""
    said = conflict_text(names, kind, step, seats, witness)
    return ConflictRolls(kind, step, seats, runners, tuple(range(len(names))), witness=witness, said=said)


def _coin_table(board: Board, coin: PlanCoin) -> list[int]:
    """reaches.table for what ``coin`` does, kept in the board's memo under the coin's label too
    (a label names one kind, direction and MP; its hash is the string's own, kept)."""
    kind: Kind = "snowballs" if coin.kind == "snowball" else coin.kind
    found = board.memo[coin.label] = table(board, kind, coin.dir, coin.mp)
    return found


def _roar(w: _Work, seats: tuple[int, ...], step: int) -> None:
    roars = []
    for seat in seats:
        coin = w.coin(seat, step)
        if coin is None or seat in w.t.off:
            continue
        roars.append(Roar(seat, coin.dir))
        w.t.events.append(f"EV-ROAR: {w.state.players[seat]}'s yeti roars {coin.dir}")
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
    runners = tuple([r for r in runners if r.seat not in w.t.off])
    units: list[Unit] = [("move", ((r.seat, r.dir, r.mp),)) for r in runners]
    found = find_conflict(w.t, units)
    if found is not None:
        witness = explain(w.t, found)
        names = ", ".join([w.state.players[s] for s in witness.group])
        w.t.events.append(
            f"EV-CONFLICT: the runaways of {names} conflict ({witness.why}); every player rolls, the high roller orders them"
        )
        seats = tuple([r.seat for r in runners])
        w.need = _conflict_rolls(w.state.players, "runaway", w.step, seats, runners, witness)
        return
    w.agenda[0:0] = [DoRun(r) for r in sorted(runners, key=lambda r: r.seat)]


def rolled(state: EverestState, seat: int, value: int, said: str | None = None) -> EverestState:
    """A die roll the engine asked for (``state.need`` waits for ``seat``); ``said``: the event line
    announcing the roll, if the caller has one.

    Most rolls only bring the engine to its next question (more dice, or the high roller's order):
    then nothing on the mountain moves, so only ``need`` and ``events`` change and no scratch copy
    is made. Only when a roar resolution is done does the agenda go on.
    """
    need = state.need
    names = state.players
    events: list[str] = [] if said is None else [said]
    nxt: Need | Done
    if isinstance(need, ConflictRolls):
        got = need.rolled + ((seat, value),)
        waiting = need.waiting  # (seats, each once)
        if seat in waiting:
            at = waiting.index(seat)
            waiting = waiting[:at] + waiting[at + 1 :]
        if waiting:
            nxt = evolved(need, rolled=got, waiting=waiting)
        else:
            top = max([v for _, v in got])
            tied = tuple(sorted([s for s, v in got if v == top]))
            dice_said = ", ".join([f"{names[s]} {DIE_FACES[v]}" for s, v in sorted(got)])
            if len(tied) > 1:
                events.append(f"EV-CONFLICT: {', '.join([names[s] for s in tied])} tie for the high roll ({dice_said}) and roll again")
                nxt = evolved(need, rolled=(), waiting=tied)
            else:
                acting = ", ".join([names[s] for s in need.seats])
                events.append(f"EV-ORDER: {names[tied[0]]} has the high roll ({dice_said}) and chooses the order of {acting}")
                nxt = OrderChoice(tied[0], need.kind, need.step, need.seats, need.runners, need.witness)
    elif isinstance(need, RoarChecks):
        if seat in [yeti for yeti, _ in need.waiting]:
            nxt = check_rolled(need, seat, value, indices(state.positions), names, events)
        else:
            nxt = early_reaction(need, seat, value, names, events)
    elif isinstance(need, RoarReactions):
        nxt = reaction_rolled(need, seat, value, indices(state.positions), names, events)
    else:  # pragma: no cover - check() only lets a roll through when a roll is awaited
        raise ValueError("no roll is awaited")
    if not isinstance(nxt, Done):
        return replaced(state, {"need": nxt, "events": state.events + tuple(events)})
    w = _Work(state)
    w.t.events.extend(events)
    _after_roll(w, nxt)
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
        coins = [(seat, w.coin(seat, need.step)) for seat in sequence]
        throwers = tuple([seat for seat, coin in coins if coin is not None and coin.kind == "snowball"])
        for seat, coin in coins:
            assert coin is not None
            if coin.kind == "snowball":
                if seat == throwers[0]:
                    items.append(DoSnowballs(throwers, need.step))  # EV-SNOWBALL-TOGETHER
            elif coin.kind == "roar":
                items.append(DoRoars((seat,), need.step))
            else:
                items.append(DoAction(seat, need.step))
    w.t.events.append("EV-ORDER: " + ", ".join([state.players[s] for s in sequence]) + " act in that order")
    w.need = None
    w.agenda[0:0] = items
    _run(w)
    return w.done()
