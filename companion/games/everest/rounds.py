"""The end of the actions and the end of a round: the win, damage, healing, going home.

EV-WIN: sole occupant of the peak tile from the start to the end of a round. EV-DAMAGE: a round's
damage sets that many coins aside. EV-HEAL: going home instead returns every coin. EV-FORCED-HOME:
no coins left, or more damage than coins. EV-EDGE-HOME: off the edge means home with no coins back
and no healing until the end of the next round (option ``edge_no_heal_rounds``).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.core import JsonObject, Outcome, Termination
from companion.core.frozen import replaced
from . import dice
from .board import Board, Square, square_text
from .moves import COINS
from .state import OVER, PLAN, ROUND_END, EverestState

log = logging.getLogger(__name__)


def sole_on_peak(board: Board, positions: Sequence[Square | None]) -> int | None:
    """The yeti alone on the peak tile, or None (nobody there, or more than one)."""
    peak = board.peak
    holder = None
    for seat, here in enumerate(positions):  # (asked at the end of every round's actions)
        if here in peak:
            if holder is not None:
                return None
            holder = seat
    return holder


def finished(state: EverestState, positions: Sequence[Square | None], events: tuple[str, ...]) -> dict[str, Any]:
    """Every coin of the round is done (the yeti now on ``positions``, ``events`` so far): the
    changes to ``state`` that say so — the winner, if any (EV-WIN), else wait for end_round."""
    holder = sole_on_peak(state.board, positions)
    if state.peak_start is not None and holder == state.peak_start:
        name = state.players[holder]
        return {
            "phase": OVER,
            "winner": holder,
            "events": events + (f"EV-WIN: {name}'s yeti held the peak alone from the start to the end of the round",),
        }
    return {"phase": ROUND_END}


@dataclass(frozen=True)
class Result:
    """The end of an Everest game: whose yeti held the peak (EV-WIN)."""

    winner: str

    def to_json(self) -> JsonObject:
        return {"winner": self.winner}


def outcome(state: EverestState) -> Outcome | None:
    """EV-WIN: the game is over once a yeti has held the peak alone for a whole round."""
    if state.winner is None:
        return None
    name = state.players[state.winner]
    return Outcome(Termination.GOAL, (name,), Result(name))


def heal_barred(state: EverestState, seat: int) -> bool:
    """EV-EDGE-HOME: a yeti that went off the edge cannot heal until the end of the next round."""
    return seat in state.off_edge or state.heal_barred_through[seat] >= state.round


def forced_home(state: EverestState, seat: int) -> bool:
    """EV-FORCED-HOME: a yeti with no coins left, or more damage than coins, goes home to heal."""
    return state.damage[seat] >= state.usable(seat) and not heal_barred(state, seat)


def coins_to_set_aside(state: EverestState, seat: int, healing: bool) -> int:
    """How many coins the round's damage sets aside (EV-DAMAGE); none for a yeti that heals."""
    if healing:
        return 0
    if seat in state.off_edge and state.options.edge_sets_aside_all:
        return state.usable(seat)
    return min(state.damage[seat], state.usable(seat))


_NOBODY: frozenset[int] = frozenset()


def end_round(state: EverestState, heal: frozenset[int], named: Mapping[int, frozenset[str]]) -> EverestState:
    """Apply end_round: set coins aside or heal, send yeti home, and start the next round."""
    n = len(state.players)
    aside = list(state.aside)
    known = list(state.aside_known)
    barred = list(state.heal_barred_through)
    positions = list(state.positions)
    going_home: list[int] = []
    events: list[str] = []
    damage, off_edge, through = state.damage, state.off_edge, state.heal_barred_through
    for seat, name in enumerate(state.players):
        hurt, usable, off = damage[seat], 6 - state.aside[seat], seat in off_edge  # (state.usable)
        if not hurt and seat not in heal and not off and usable > 0:
            continue  # unhurt, on the board, not healing, coins left: nothing below applies to it
        # heal_barred and forced_home, worked out once per yeti (forced_home is "damage >= usable
        # and not barred"), read off the state here: this runs at the end of every round.
        barred_now = off or through[seat] >= state.round
        forced = not barred_now and hurt >= usable
        if not barred_now and (seat in heal or forced):  # healing
            aside[seat] = 0
            known[seat] = frozenset()
            going_home.append(seat)
            why = "EV-FORCED-HOME" if forced and seat not in heal else "EV-HEAL"
            events.append(f"{why}: {name}'s yeti goes home to heal; all its coins come back")
            continue
        lost = usable if off and state.options.edge_sets_aside_all else min(hurt, usable)  # coins_to_set_aside
        if lost:
            aside[seat] += lost
            coins = named.get(seat, frozenset())
            known[seat] = known[seat] | coins
            which = f" ({', '.join(sorted(coins, key=COINS.index))})" if coins else ""
            events.append(f"EV-DAMAGE: {name} sets aside {lost} coin{'s' if lost != 1 else ''}{which}")
        if off:
            barred[seat] = state.round + state.options.edge_no_heal_rounds - 1
            going_home.append(seat)
            events.append(f"EV-EDGE-HOME: {name}'s yeti comes back home from off the edge, with no coins back")
    for seat in going_home:
        positions[seat] = None
    for seat in going_home:
        _send_home(state, positions, seat, events)
    peak = sole_on_peak(state.board, positions)
    return replaced(state, {  # (a dict, not evolve's keywords: every round ends here)
        "round": state.round + 1,
        "phase": PLAN,
        "positions": tuple(positions),
        "damage": (0,) * n,
        "aside": tuple(aside),
        "aside_known": tuple(known),
        "heal_barred_through": tuple(barred),
        "plans": (None,) * n,
        "off_edge": _NOBODY,
        "peak_start": peak,
        "step": 0,
        "agenda": (),
        "need": None,
        "heal_chosen": _NOBODY,
        "aside_chosen": (),
        "events": tuple(events),
    })


def chosen(state: EverestState, seat: int, coins: tuple[str, ...] | None) -> EverestState:
    """One player's own end-of-round entry: ``heal`` (``coins`` None, EV-HEAL) or ``set_aside``
    naming ``coins`` (EV-DAMAGE, so not healing). A player's latest entry stands; end_round applies
    them all with whatever it carries itself."""
    name = state.players[seat]
    aside = tuple([(s, c) for s, c in state.aside_chosen if s != seat])
    if coins is None:
        line = f"EV-HEAL: {name} chooses to go home and heal at the end of the round"
        return state.evolve(heal_chosen=state.heal_chosen | {seat}, aside_chosen=aside, events=state.events + (line,))
    named = ", ".join(coins) if coins else "no coin"
    line = f"EV-DAMAGE: {name} stays out and names the coins the round's damage sets aside: {named}"
    return state.evolve(
        heal_chosen=state.heal_chosen - {seat},
        aside_chosen=aside + ((seat, frozenset(coins)),),
        events=state.events + (line,),
    )


def _send_home(state: EverestState, positions: list[Square | None], seat: int, events: list[str]) -> None:
    """Put a yeti on its home square. Gap (not in GAPS.md): a yeti standing there is bumped to its own home."""
    while True:
        home = state.homes[seat]
        other = positions.index(home) if home in positions else None  # the first yeti there
        positions[seat] = home
        if other is None or other == seat:
            return
        events.append(
            f"EV-HOME: {state.players[other]}'s yeti stood on {state.players[seat]}'s home {square_text(home)} "
            f"and moves to its own home"
        )
        positions[other] = None
        seat = other


def plans_needed(state: EverestState) -> tuple[int, ...]:
    """Seats that still owe a plan this round (a player with no usable coins plans nothing: EV-DAZED)."""
    return tuple(s for s in range(len(state.players)) if state.plans[s] is None and state.usable(s) > 0)


def roll_waiting(state: EverestState) -> tuple[int, ...]:
    """Seats the engine waits on for a die roll, in seat order (dice.rollers)."""
    return dice.rollers(state)
