"""The Everest state: the yeti on the mountain, the coins, the plans, and the resolution machine.

Resolution is a small resumable machine: ``agenda`` holds the work still to do this round (steps,
actions, roars, runaways) and ``need`` what the engine waits for before it can go on (die rolls or an
order). Both are plain frozen values, so a paused state is as immutable and replayable as any other.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar, Union

from companion.core.frozen import Replaceable, replaced
from .board import Board, Direction, Square
from .moves import PlanCoin
from .options import EverestOptions


class Phase(str, enum.Enum):
    PLAN = "plan"  # players are making their secret plans
    RESOLVE = "resolve"  # the plans are revealed and being carried out coin by coin
    ROUND_END = "round_end"  # every action is done; waiting for end_round (healing, damage)
    OVER = "over"  # a yeti won


# The phases as plain module names for the hot paths: reading a member off an Enum class goes
# through a descriptor in CPython 3.11 (ten times a global read), and every move checks the phase.
PLAN, RESOLVE, ROUND_END, OVER = Phase.PLAN, Phase.RESOLVE, Phase.ROUND_END, Phase.OVER


# -- the agenda: work still to do this round ---------------------------------------------------


@dataclass(frozen=True)
class StepStart:
    """Start coin ``step`` (0-based) of every plan: find the actions and whether they conflict."""

    step: int


@dataclass(frozen=True)
class DoAction:
    """Carry out one yeti's move or roar of this step (skipped if its actions were cancelled)."""

    seat: int
    step: int


@dataclass(frozen=True)
class DoSnowballs:
    """Every snowball of this step, thrown at once (EV-SNOWBALL-TOGETHER)."""

    seats: tuple[int, ...]
    step: int


@dataclass(frozen=True)
class DoRoars:
    """Roars of this step that happen at the same time (EV-ROAR)."""

    seats: tuple[int, ...]
    step: int


@dataclass(frozen=True)
class Runner:
    """A yeti running away from ``roarer``: ``mp`` movement points in ``dir`` (EV-ROAR-REACT)."""

    seat: int
    dir: Direction
    mp: int
    roarer: int


@dataclass(frozen=True)
class DoRunaway:
    """The runaways of one roar resolution, carried out like an action turn (EV-RUNAWAY)."""

    runners: tuple[Runner, ...]


@dataclass(frozen=True)
class DoRun:
    """One runaway move, in the order the high roller chose."""

    runner: Runner


Item = Union[StepStart, DoAction, DoSnowballs, DoRoars, DoRunaway, DoRun]


# -- roars -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Roar:
    """A roar from ``seat`` towards ``dir``; ``back_at`` is set for a roar back at that yeti."""

    seat: int
    dir: Direction
    back_at: int | None = None


@dataclass(frozen=True)
class Affect:
    """Yeti ``seat`` is affected by the roar of ``roarer``; ``ace_blank``: it was roared back at."""

    seat: int
    roarer: int
    ace_blank: bool = False


# -- what the engine waits for --------------------------------------------------------------------------


@dataclass(frozen=True)
class Witness:
    """Why actions conflict (EV-CONFLICT): two orders of all the step's actions that end differently.

    Each order is a tuple of seats (the snowballs of a step, thrown together, put their throwers
    side by side). ``group``: the yeti whose actions are in conflict, those that can change one
    another; the step's other actions cannot touch them (conflicts.find_conflict)."""

    first: tuple[int, ...]
    second: tuple[int, ...]
    group: tuple[int, ...]
    why: str


@dataclass(frozen=True)
class ConflictRolls(Replaceable):
    """Actions conflict (EV-CONFLICT): ``waiting`` players still roll; the high roller will order.

    ``seats`` are the acting yeti of the step (kind "actions") or ``runners`` run away (kind "runaway").
    """

    kind: Literal["actions", "runaway"]
    step: int
    seats: tuple[int, ...]
    runners: tuple[Runner, ...]
    waiting: tuple[int, ...]
    rolled: tuple[tuple[int, int], ...] = ()
    witness: Witness | None = None
    said: str = field(default="", compare=False, repr=False)
    """What the rolls are for, in words (dice.purpose_text), worked out once when the conflict is
    found: every roll's event line says it. Derived from the fields above, so not compared."""


@dataclass(frozen=True)
class OrderChoice:
    """The high roller ``chooser`` names the order of the conflicting actions (EV-ORDER)."""

    chooser: int
    kind: Literal["actions", "runaway"]
    step: int
    seats: tuple[int, ...]
    runners: tuple[Runner, ...]
    witness: Witness | None = None


@dataclass(frozen=True)
class RoarChecks(Replaceable):
    """Yeti beside a roar but not in the pointed square roll: a blank means affected (EV-ROAR)."""

    roars: tuple[Roar, ...]
    hits: tuple[Affect, ...]
    waiting: tuple[tuple[int, int], ...]  # (yeti, roarer), one roll per yeti
    runners: tuple[Runner, ...]
    early: tuple[tuple[int, int], ...] = ()
    """Reaction rolls already in from yeti in a pointed square: the rulebook has every roll of a
    wave made "simultaneously", so those yeti need not wait for the checks (seat, value)."""


@dataclass(frozen=True)
class RoarReactions(Replaceable):
    """Affected yeti roll: 2-5 run, ace roar back, blank shiver (EV-ROAR-REACT)."""

    affected: tuple[Affect, ...]
    waiting: tuple[int, ...]
    rolled: tuple[tuple[int, int], ...]
    runners: tuple[Runner, ...]


Need = Union[ConflictRolls, OrderChoice, RoarChecks, RoarReactions]


@dataclass(frozen=True)
class EverestState(Replaceable):
    players: tuple[str, ...]
    options: EverestOptions
    board: Board
    homes: tuple[Square, ...]
    positions: tuple[Square | None, ...]
    """Each yeti's square, None while it is off the board (after going off the edge)."""
    damage: tuple[int, ...]
    """Damage taken this round."""
    aside: tuple[int, ...]
    """How many coins each player has set aside (six coins in all)."""
    aside_known: tuple[frozenset[str], ...]
    """Which of the set-aside coins the table named (end_round ``set_aside``); the rest are unnamed."""
    heal_barred_through: tuple[int, ...]
    """The last round at whose end the yeti may not heal (it went off the edge); 0 for none."""
    round: int = 1
    phase: Phase = field(default_factory=lambda: PLAN)
    """(A factory, not a class default: core.frozen says why; every move reads the phase.)"""
    plans: tuple[tuple[PlanCoin, ...] | None, ...] = ()
    off_edge: frozenset[int] = frozenset()
    """Yeti that went off the edge this round: their remaining actions are cancelled (EV-EDGE)."""
    peak_start: int | None = None
    """The yeti that started this round as the sole occupant of the peak tile (EV-WIN)."""
    step: int = 0
    agenda: tuple[Item, ...] = ()
    need: Need | None = None
    winner: int | None = None
    heal_chosen: frozenset[int] = frozenset()
    """Players who chose, each by their own ``heal`` entry, to go home and heal at this round's end."""
    aside_chosen: tuple[tuple[int, frozenset[str]], ...] = ()
    """Coins players named, each by their own ``set_aside`` entry, for this round's damage."""
    events: tuple[str, ...] = ()
    """What happened this round, each line citing its rule id, for the table and the log."""

    def evolve(self, **changes: Any) -> "EverestState":
        """``dataclasses.replace`` without re-running ``__init__``. The hot paths call
        ``core.frozen.replaced(state, {...})`` themselves: CPython 3.11 does not specialise a method
        call on an object with a dict of its own, and every move makes a new state."""
        return replaced(self, changes)

    def seat(self, player: str | None) -> int | None:
        if player is None:
            return None
        try:
            return self.players.index(player)
        except ValueError:
            return None

    def usable(self, seat: int) -> int:
        return 6 - self.aside[seat]


T = TypeVar("T")


def evolved(value: T, **changes: Any) -> T:
    """``dataclasses.replace(value, **changes)`` for the frozen values of this module, which have no
    ``__post_init__`` to re-run (core.frozen.replaced): most rolls make a new ``need``."""
    return replaced(value, changes)
