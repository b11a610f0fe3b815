"""The Mountain (solitaire): a 21-card pyramid of threats, a health pile, sets of one suit as actions.

Rules: shared/rules/the-mountain.md, geometry from rules/GAPS.md. ``SPEC`` declares the game (id
``the-mountain``); GAME.md is its rules catalogue, options, notation and sensors.
"""

from __future__ import annotations

import random

from companion.contract.spec import ExampleTable, GameSpec

from . import playout
from .secrets import SECRETS
from .engine import GAME, TheMountain
from .sensors import MountainPlan


def example(rng: random.Random) -> ExampleTable:
    """The pyramid and the health pile, by a shuffle: they lie face up."""
    return ExampleTable(playout.deal(rng, player="anna"), shuffled=True)


SPEC = GameSpec(game=GAME, package=__name__, example=example, playout=playout.random_playout, secrets=SECRETS, sensors=MountainPlan(GAME, camera=True))

__all__ = ["GAME", "SPEC", "TheMountain"]
