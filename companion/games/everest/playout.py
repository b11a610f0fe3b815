"""A simulator: random legal Everest games (randomness lives here, never in the engine).

Yeti lean towards the peak so that games sometimes end; dice, orders and healing are random.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Mapping
from typing import Any

from companion.core import Header, Move
from .board import DIRECTIONS, Direction
from .engine import GAME_INSTANCE as GAME
from .rounds import plans_needed, roll_waiting
from . import dice
from .moves import COINS, EndRound, Face, Heal, Order, Plan, PlanCoin, Roll
from .rounds import forced_home, heal_barred
from .state import EverestState, OrderChoice, Phase

log = logging.getLogger(__name__)

PLAYERS = ("red", "blue", "green", "yellow")


def _towards_peak(state: EverestState, seat: int, rng: random.Random) -> Direction:
    here = state.positions[seat]
    if here is None or rng.random() < 0.3:
        return rng.choice(DIRECTIONS)
    x, y = here
    options: list[Direction] = []
    if x < 4:
        options.append("E")
    if x > 5:
        options.append("W")
    if y < 3:
        options.append("N")
    if y > 4:
        options.append("S")
    return rng.choice(options or list(DIRECTIONS))


def _plan(state: EverestState, seat: int, rng: random.Random) -> Plan:
    pool = [c for c in COINS if c not in state.aside_known[seat]]
    coins = rng.sample(pool, min(3, state.usable(seat)))
    plan = []
    for coin in coins:
        face: Face = "suit" if rng.random() < 0.2 else "value"
        plan.append(PlanCoin(coin, face, _towards_peak(state, seat, rng)))
    return Plan(by=state.players[seat], coins=tuple(plan))


def legal_move(state: EverestState, rng: random.Random) -> Move:
    """A random legal move in ``state`` (the game must not be over)."""
    names = state.players
    if state.phase is Phase.PLAN:
        return _plan(state, rng.choice(plans_needed(state)), rng)
    if state.phase is Phase.ROUND_END:
        may = [s for s in range(len(names)) if not heal_barred(state, s) and not forced_home(state, s) and s not in state.heal_chosen]
        if may and rng.random() < 0.1:
            return Heal(by=names[rng.choice(may)])  # one player's own entry
        return EndRound(heal=tuple(names[s] for s in may if rng.random() < 0.1))
    need = state.need
    if isinstance(need, OrderChoice):
        sequence = [names[s] for s in need.seats]
        rng.shuffle(sequence)
        return Order(by=names[need.chooser], sequence=tuple(sequence))
    seat = rng.choice(roll_waiting(state))
    ask = dice.asked(state, seat)
    assert ask is not None
    purpose, roarer = ask
    return Roll(by=names[seat], value=rng.choice(COINS), purpose=purpose, roarer=None if roarer is None else names[roarer])


def illegal_move(state: EverestState, rng: random.Random) -> Move | None:
    """A move that ``check`` rejects here, or None if the tries found none."""
    names = state.players
    candidates: list[Move] = [
        Roll(by=rng.choice(names), value=rng.choice(COINS)),
        Plan(by=rng.choice(names), coins=(PlanCoin("5", "value", "N"),)),
        Order(by=rng.choice(names), sequence=tuple(names)),
        EndRound(heal=()),
    ]
    rng.shuffle(candidates)
    for move in candidates:
        if not GAME.check(state, move).ok:
            return move
    return None


def random_playout(
    seed: int,
    max_moves: int = 1000,
    illegal_every: int | None = None,
    options: Mapping[str, Any] | None = None,
) -> tuple[Header, list[Move]]:
    """A whole game (or as much as ``max_moves`` allows) chosen by ``random.Random(seed)``.

    With ``illegal_every`` = N, every Nth move is an attempt ``check`` refuses (it is in the list and
    a replay reports it illegal); ``options`` go into the header.
    """
    rng = random.Random(seed)
    header = Header("everest", PLAYERS, dict(options or {}), {})
    state = GAME.new_state(header)
    moves: list[Move] = []
    while len(moves) < max_moves and GAME.outcome(state) is None:
        if illegal_every and (len(moves) + 1) % illegal_every == 0:
            bad = illegal_move(state, rng)
            if bad is not None:
                moves.append(bad)
                continue
        move = legal_move(state, rng)
        verdict, state = GAME.play(state, move)
        if not verdict.ok:  # pragma: no cover - the simulator only picks legal moves
            raise AssertionError(f"playout chose an illegal move {move}: {verdict.why}")
        moves.append(move)
    return header, moves
