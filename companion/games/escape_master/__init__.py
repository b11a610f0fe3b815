"""Escape Master (Zily Creative Works): a real-time shedding card game, refereed from the readers.

``SPEC`` declares the game (id ``escape-master``); GAME.md is its rules catalogue, options, notation
and sensors.
"""

from __future__ import annotations

import random

from companion.contract.spec import ExampleTable, GameSpec
from companion.core.nouns import Header

from . import playout
from .secrets import SECRETS
from .engine import EscapeMaster

GAME = EscapeMaster()


def example(rng: random.Random) -> ExampleTable:
    """Three players; only the first dealer is set up: each player taps the ten cards dealt to them."""
    return ExampleTable(Header(GAME.id, ("anna", "ben", "cleo"), {}, {"dealer": "anna"}))


SPEC = GameSpec(game=GAME, package=__name__, example=example, playout=playout.random_playout, secrets=SECRETS)

__all__ = ["GAME", "SPEC", "EscapeMaster"]
