"""Roars (EV-ROAR, EV-ROAR-REACT, EV-ROAR-BACK): who is affected, and what their dice make them do.

A roar always affects a yeti in the pointed square; one in the other three squares beside the roaring
yeti only if its owner rolls a blank (one check roll per yeti, even beside two roars). Affected yeti
roll together: 2-5 run away with that many MP, an ace roars back, a blank shivers. A yeti roared back
at reads an ace as a blank. Roar-backs make a new wave; a yeti already running rolls no more.
When the waves die out the runaways move like an action turn (EV-RUNAWAY, done by the engine).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

from .board import AROUND, STEP_NAMES, Direction
from .state import Affect, Roar, RoarChecks, RoarReactions, Runner, evolved

_NOBODY: frozenset[int] = frozenset()

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Done:
    """The roar resolution needs no more dice; these yeti run away."""

    runners: tuple[Runner, ...]


Next = RoarChecks | RoarReactions | Done


Positions = Sequence[int | None]
"""Where each yeti stands, as grid indices (board.index), None off the board."""


def _direction(frm: int, to: int) -> Direction:
    return STEP_NAMES[to - frm]


def start_wave(pos: Positions, roars: Sequence[Roar], runners: tuple[Runner, ...]) -> Next:
    """Who the roars affect for sure, and who must roll a check first."""
    running = {r.seat for r in runners} if runners else _NOBODY  # (mostly no runaways)
    hits: dict[int, Affect] = {}
    checks: dict[int, int] = {}
    for roar in roars:
        here = pos[roar.seat]
        if here is None:
            continue
        for name, beside in AROUND[here]:
            if beside not in pos:
                continue
            yeti = pos.index(beside)  # the first yeti there
            if yeti in running:
                continue
            if name == roar.dir:
                if yeti not in hits:
                    hits[yeti] = Affect(yeti, roar.seat, ace_blank=roar.back_at == yeti)
            else:
                checks.setdefault(yeti, roar.seat)
    # Reading (GAME.md): a yeti in the pointed square of one roar and beside another is
    # affected by the pointed roar and rolls no check for the other.
    waiting = tuple(sorted([(y, r) for y, r in checks.items() if y not in hits])) if checks else ()
    affected = tuple(map(hits.__getitem__, sorted(hits)))
    if waiting:
        return RoarChecks(tuple(roars), affected, waiting, runners)
    return _reactions(affected, runners)


def _reactions(
    affected: tuple[Affect, ...],
    runners: tuple[Runner, ...],
    early: tuple[tuple[int, int], ...] = (),
    pos: Positions = (),
    names: Sequence[str] = (),
    events: list[str] | None = None,
) -> Next:
    """The affected yeti roll their reactions; ``early``: those already rolled while the checks were
    still coming in (then ``pos``, ``names`` and ``events`` are needed in case nobody is left to roll)."""
    if not affected:
        return Done(runners)
    done = dict(early)
    waiting = tuple([a.seat for a in affected if a.seat not in done])
    need = RoarReactions(affected, waiting, early, runners)
    if waiting or events is None:
        return need
    return _settle(need, pos, names, events)


def early_reaction(need: RoarChecks, seat: int, value: int, names: Sequence[str], events: list[str]) -> RoarChecks:
    """A yeti in a pointed square rolls its reaction while others still roll their checks: every roll
    of a wave is made "simultaneously" (EV-ROAR), so it is kept until the checks are in."""
    events.append(f"EV-ROAR-REACT: {names[seat]}'s reaction roll is in; it acts with the others once every check is rolled")
    return evolved(need, early=need.early + ((seat, value),))


def check_rolled(
    need: RoarChecks, seat: int, value: int, pos: Positions, names: Sequence[str], events: list[str]
) -> Next:
    """A check roll beside a roar came in: a blank (0) means the yeti is affected."""
    roarer = dict(need.waiting)[seat]
    waiting = tuple([w for w in need.waiting if w[0] != seat])
    hits = need.hits
    if value == 0:
        hits = tuple(sorted(hits + (Affect(seat, roarer),), key=lambda a: a.seat))
        events.append(f"EV-ROAR: {names[seat]} rolls a blank beside {names[roarer]}'s roar: the yeti is affected")
    else:
        events.append(f"EV-ROAR: {names[seat]} rolls no blank beside {names[roarer]}'s roar: not affected")
    if waiting:
        return evolved(need, hits=hits, waiting=waiting)
    return _reactions(hits, need.runners, need.early, pos, names, events)


def reaction_rolled(
    need: RoarReactions, seat: int, value: int, pos: Positions, names: Sequence[str], events: list[str]
) -> Next:
    """A reaction roll came in; once all are in, they act together."""
    rolled = need.rolled + ((seat, value),)
    waiting = tuple([s for s in need.waiting if s != seat])
    if waiting:
        return evolved(need, rolled=rolled, waiting=waiting)
    return _settle(evolved(need, rolled=rolled, waiting=waiting), pos, names, events)


def _settle(need: RoarReactions, pos: Positions, names: Sequence[str], events: list[str]) -> Next:
    """Every reaction of the wave is rolled: they act together, in seat order whatever the order of
    the rolls (EV-ROAR-REACT, EV-ROAR-BACK)."""
    values = dict(need.rolled)
    runners = list(need.runners)
    backs: list[Roar] = []
    for a in need.affected:
        v = values[a.seat]
        yeti, roarer = pos[a.seat], pos[a.roarer]
        if yeti is None or roarer is None:
            continue
        who, at = names[a.seat], names[a.roarer]
        if v >= 2:
            runners.append(Runner(a.seat, _direction(roarer, yeti), v, a.roarer))
            events.append(f"EV-ROAR-REACT: {who}'s yeti rolls {v} and runs away from {at}'s")
        elif v == 1 and not a.ace_blank:
            backs.append(Roar(a.seat, _direction(yeti, roarer), back_at=a.roarer))
            events.append(f"EV-ROAR-BACK: {who}'s yeti rolls an ace and roars back at {at}'s")
        elif v == 1:
            events.append(f"EV-ROAR-BACK: {who}'s yeti rolls an ace, read as a blank when roared back at: it shivers")
        else:
            events.append(f"EV-ROAR-REACT: {who}'s yeti rolls a blank and shivers")
    if backs:
        return start_wave(pos, backs, tuple(runners))
    return Done(tuple(runners))
