"""Escape From Horrible Mountain 2 (two players): ``SPEC`` declares it (id ``horrible-mountain-2``);
GAME.md is its rules catalogue, options, notation and sensors."""

from __future__ import annotations

import random

from companion.contract.spec import ExampleTable, GameSpec
from companion.core.nouns import Header

from . import playout
from .secrets import SECRETS
from .engine import HorribleMountain2
from .sensors import HorribleMountain2Plan

GAME = HorribleMountain2()


def example(rng: random.Random) -> ExampleTable:
    """A live table: the Evil Master, the Table Cards and the colours by a shuffle; the hands are tapped in."""
    dealt = playout.random_header(rng)
    setup = {k: v for k, v in dealt.setup.items() if k != "hands"}
    return ExampleTable(Header(GAME.id, dealt.players, {}, setup), shuffled=True, hands_tapped=True)


SPEC = GameSpec(
    game=GAME, package=__name__, example=example, playout=playout.random_playout, secrets=SECRETS, sensors=HorribleMountain2Plan(GAME)
)

__all__ = ["GAME", "SPEC", "HorribleMountain2"]
