"""Cutting a case's lead-up down: drop moves (halves, then quarters, ... then single moves) as long
as every move left is still legal and the case still holds (after Zeller's delta debugging)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from companion.contract.game import Game
from companion.core import Header, Move


def _replay(game: Game[Any], state: Any, moves: Sequence[Move]) -> list[Any] | None:
    """The states after each move, or None if one of them is refused."""
    states = [state]
    for move in moves:
        if not game.judge(state, move).ok:
            return None
        state = game.apply(state, move)
        states.append(state)
    return states


def shrink(game: Game[Any], header: Header, lead: Sequence[Move], holds: Callable[[Any], bool]) -> list[Move]:
    """The shortest lead-up found, of moves taken in order from ``lead``, after which ``holds``
    (given the state) is still true. ``lead`` itself must hold."""
    moves = list(lead)
    states = _replay(game, game.new_state(header), moves)
    if states is None or not holds(states[-1]):
        raise ValueError("the lead-up to shrink does not hold to begin with")
    chunk = max(1, len(moves) // 2)
    while moves and chunk >= 1:
        i = 0
        while i < len(moves):
            rest = _replay(game, states[i], moves[i + chunk :])
            if rest is not None and holds(rest[-1]):
                moves = moves[:i] + moves[i + chunk :]
                states = states[: i + 1] + rest[1:]
            else:
                i += chunk
        chunk //= 2
    return moves
