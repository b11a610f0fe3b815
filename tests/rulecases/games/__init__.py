"""What the rule-case search knows of each game, in a module named after the game's package
(``tests/rulecases/games/everest.py`` for ``companion.games.everest``): the settings its playouts
run in, the settings hunted with many more seeds, and the finders of its rules that never refuse a
move. A game with no module here is searched in its spec's own playout, with no effect finders
(its cases for such rules are written by hand)."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from companion.core import Header, Move
from companion.games import get_spec

from ..search import EffectFinder

Playout = Callable[[int, int], tuple[Header, list[Move]]]
"""A seeded game: ``(seed, moves) -> (header, moves)``."""

TWO = ("anna", "ben")
THREE = ("anna", "ben", "carl")
FOUR = ("anna", "ben", "carl", "dora")


@dataclass(frozen=True)
class GameKnowledge:
    settings: Mapping[str, Playout]
    """The settings the playouts run in, by name (the name goes into each case's origin)."""
    hunts: tuple[str, ...] = ()
    """Settings played again with many more seeds, walked for effects only (a forced trip home, a
    push while falling: rare, and cheap to look for without the slips)."""
    effects: Mapping[str, EffectFinder] = field(default_factory=dict)
    """Per rule that never refuses a move, the finder of a step that shows what it does."""


def knowledge(game_id: str) -> GameKnowledge:
    spec = get_spec(game_id)
    name = f"{__name__}.{spec.package.rsplit('.', 1)[-1]}"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as e:
        if e.name != name:
            raise
        playout = spec.playout
        return GameKnowledge({"playout": lambda seed, moves: playout(seed, moves)})
    found: GameKnowledge = module.KNOWLEDGE
    return found
