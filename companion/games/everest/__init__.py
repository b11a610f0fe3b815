"""Everest, a piecepack game for four yeti by Mark A. Biggar: ``SPEC`` declares it (id ``everest``);
GAME.md is its rules catalogue, options, notation and sensors."""

from __future__ import annotations

import random

from companion.contract.spec import ExampleTable, GameSpec
from companion.core.nouns import Header

from . import playout
from .secrets import SECRETS
from .engine import GAME_INSTANCE as GAME
from .engine import Everest
from .sensors import EverestPlan


def example(rng: random.Random) -> ExampleTable:
    """Four yeti at the rulebook's homes: nothing else to set up."""
    return ExampleTable(Header(GAME.id, ("anna", "ben", "cleo", "dan"), {}, {}))


SPEC = GameSpec(game=GAME, package=__name__, example=example, playout=playout.random_playout, secrets=SECRETS, sensors=EverestPlan(GAME))

__all__ = ["GAME", "SPEC", "Everest"]
