"""Setting up Everest from a notation header: the mountain, the home bases, the yeti at home."""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from typing import Any

from companion.core.errors import SetupError
from .board import Board, Square, make_board, square_text
from .options import EverestOptions
from .rounds import sole_on_peak
from .state import EverestState

log = logging.getLogger(__name__)


def _square(value: Any, player: str) -> Square:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise SetupError(f"setup homes: {player}'s home must be [x, y], not {json.dumps(value)}")
    return (value[0], value[1])


def _homes(players: tuple[str, ...], options: EverestOptions, board: Board, raw: Any) -> tuple[Square, ...]:
    if raw is None:
        if len(options.homes) < len(players):
            raise SetupError(f"options homes names {len(options.homes)} squares for {len(players)} players")
        homes: tuple[Square, ...] = tuple((h[0], h[1]) for h in options.homes[: len(players)])
        where = "options homes"
    else:
        if not isinstance(raw, dict):
            raise SetupError('setup "homes" must be an object {player: [x, y]}')
        unknown = [p for p in raw if p not in players]
        if unknown:
            raise SetupError(f'setup homes names "{unknown[0]}", who is not playing')
        missing = [p for p in players if p not in raw]
        if missing:
            raise SetupError(f"setup homes gives no home to {missing[0]}")
        homes = tuple(_square(raw[p], p) for p in players)
        where = "setup homes"
    for player, home in zip(players, homes):
        if not board.on_board(home):
            raise SetupError(f"{where}: {player}'s home {square_text(home)} is not on the board")
    if len(set(homes)) != len(homes):
        raise SetupError(f"{where}: two yeti cannot share a home")
    return homes


def new_state(players: tuple[str, ...], options: EverestOptions, setup: Mapping[str, Any]) -> EverestState:
    unknown = [k for k in setup if k != "homes"]
    if unknown:
        raise SetupError(f'Everest setup has an unknown field "{unknown[0]}" (only "homes")')
    board = make_board(options.notches)
    homes = _homes(players, options, board, setup.get("homes"))
    n = len(players)
    return EverestState(
        players=players,
        options=options,
        board=board,
        homes=homes,
        positions=homes,
        damage=(0,) * n,
        aside=(0,) * n,
        aside_known=(frozenset(),) * n,
        heal_barred_through=(0,) * n,
        plans=(None,) * n,
        peak_start=sole_on_peak(board, homes),
    )
