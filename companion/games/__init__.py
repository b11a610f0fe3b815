"""The game registry: game id -> the module that defines it (its ``GAME`` instance).

A new game adds one line here and touches no other game. Modules are imported on first use, so
a game whose module is missing or broken fails alone, with a message naming it.
"""

from __future__ import annotations

import importlib
from typing import Any

from companion.core.errors import UnknownGameError
from companion.contract.game import Game

GAME_MODULES: dict[str, str] = {
    "escape-master": "companion.games.escape_master",
    "horrible-mountain-2": "companion.games.horrible_mountain_2",
    "the-mountain": "companion.games.the_mountain",
    "everest": "companion.games.everest",
    "escape-house": "companion.games.escape_house",
}

_loaded: dict[str, Game[Any]] = {}


def get_game(game_id: str) -> Game[Any]:
    """The game with this id, or :class:`UnknownGameError` naming the ids there are."""
    cached = _loaded.get(game_id)
    if cached is not None:
        return cached
    module_name = GAME_MODULES.get(game_id)
    if module_name is None:
        raise UnknownGameError(f'unknown game "{game_id}" (known: {", ".join(sorted(GAME_MODULES))})')
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name != module_name:
            raise
        raise UnknownGameError(f'the game "{game_id}" is not installed ({module_name} is missing)') from exc
    game: Game[Any] = module.GAME
    if game.id != game_id:
        raise RuntimeError(f"{module_name}.GAME has id {game.id!r}, registered as {game_id!r}")
    _loaded[game_id] = game
    return game

