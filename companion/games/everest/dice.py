"""Which die roll the engine asks of whom, and what for (EV-ROLL).

Three purposes, as the notation's ``roll {purpose, roarer}`` names them: ``"conflict"`` (every
player, EV-CONFLICT), ``"check"`` (a yeti beside a roar but not in the pointed square: a blank means
affected, EV-ROAR) and ``"reaction"`` (an affected yeti: 2-5 run, ace roar back, blank shiver,
EV-ROAR-REACT), the last two with the roaring yeti. A player has at most one roll asked at a time.
Rolls the rulebook has made "simultaneously" may come in any order: a yeti in a pointed square may
roll its reaction while the others still roll their checks.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Literal

from .state import ConflictRolls, EverestState, RoarChecks, RoarReactions, Witness

log = logging.getLogger(__name__)

Purpose = Literal["conflict", "check", "reaction"]
PURPOSES: tuple[Purpose, ...] = ("conflict", "check", "reaction")


def asked(state: EverestState, seat: int) -> tuple[Purpose, int | None] | None:
    """The roll asked of ``seat`` now, with the roaring yeti for a check or a reaction; None if none."""
    need = state.need
    if isinstance(need, ConflictRolls):
        return ("conflict", None) if seat in need.waiting else None
    if isinstance(need, RoarChecks):
        for yeti, roarer in need.waiting:
            if yeti == seat:
                return ("check", roarer)
        if seat in [s for s, _ in need.early]:
            return None
        for hit in need.hits:
            if hit.seat == seat:
                return ("reaction", hit.roarer)
        return None
    if isinstance(need, RoarReactions):
        if seat in need.waiting:
            for a in need.affected:
                if a.seat == seat:
                    return ("reaction", a.roarer)
    return None


def rollers(state: EverestState) -> tuple[int, ...]:
    """Seats the engine waits on for a die roll, in seat order."""
    need = state.need
    if isinstance(need, (ConflictRolls, RoarReactions)):
        return tuple(sorted(need.waiting))
    if isinstance(need, RoarChecks):
        early = {s for s, _ in need.early}
        hits = [a.seat for a in need.hits if a.seat not in early]
        return tuple(sorted([seat for seat, _ in need.waiting] + hits))
    return ()


def purpose_text(state: EverestState, purpose: Purpose, roarer: int | None) -> str:
    """What a roll is for, in words: "the conflict of coin 2 (anna, ben)", "a roar check beside
    anna's roar", "a reaction to anna's roar"."""
    names = state.players
    need = state.need
    if purpose == "conflict":
        if isinstance(need, ConflictRolls):
            return need.said or conflict_text(names, need.kind, need.step, need.seats, need.witness)
        return "a conflict"
    roaring = names[roarer] if roarer is not None else "a yeti"
    if purpose == "check":
        return f"a roar check beside {roaring}'s roar"
    return f"a reaction to {roaring}'s roar"


def conflict_text(names: Sequence[str], kind: str, step: int, seats: tuple[int, ...], witness: Witness | None) -> str:
    """What the rolls of a conflict (``ConflictRolls``'s fields) are for: "the conflict of the
    actions of coin 2 (anna, ben)"."""
    acting = ", ".join([names[s] for s in (witness.group if witness is not None else seats)])
    what = "runaways" if kind == "runaway" else f"actions of coin {step + 1}"
    return f"the conflict of the {what} ({acting})"
