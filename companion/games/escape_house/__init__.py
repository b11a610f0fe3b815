"""Escape House (6-8 players): a semi-cooperative escape through a house of puzzles.

The card list is data (``*_set.json`` in this package, loaded by :func:`load_card_set`). ``SPEC``
declares the game (id ``escape-house``); GAME.md is its rules catalogue, options and notation.
"""

from __future__ import annotations

import random

from companion.contract.spec import ExampleTable, GameSpec
from companion.core.nouns import Header

from . import playout
from .secrets import SECRETS
from .cards import Kind
from .cardset import load_card_set, shipped_sets
from .engine import GAME, EscapeHouse
from .options import EscapeHouseOptions
from .sensors import EscapeHousePlan


def example(rng: random.Random) -> ExampleTable:
    """A live table of six: the card set and the face-up main puzzle (by a shuffle); the hands are
    tapped in, and the decks and face-down puzzles stay unknown until they turn up."""
    face_up = rng.choice(load_card_set("example").ids(Kind.MAIN))
    players = ("anna", "ben", "cleo", "dan", "eve", "finn")
    return ExampleTable(Header(GAME.id, players, {}, {"card_set": "example", "main": [face_up]}), shuffled=True, hands_tapped=True)


SPEC = GameSpec(
    game=GAME, package=__name__, example=example, playout=playout.random_playout, secrets=SECRETS, sensors=EscapeHousePlan(GAME)
)

__all__ = ["GAME", "SPEC", "EscapeHouse", "EscapeHouseOptions", "load_card_set", "shipped_sets"]
