"""Take-away, the toy game: a real game package kept with the tests, found by the registry through
``COMPANION_GAMES=tests.toy_game`` (tests/conftest.py sets it). It holds everything a game package
holds (engine, example table, playout, panel, docs, acceptance games, rule cases), so the contract
test proves the spine runs a game it has never heard of, not only five it was written for."""

from __future__ import annotations

import random

from companion.contract.spec import ExampleTable, GameSpec
from companion.core.nouns import Header, Move

from .engine import GAME, Peek, Take, ToyGame
from .secrets import SECRETS


def example(rng: random.Random) -> ExampleTable:
    return ExampleTable(Header(GAME.id, ("anna", "ben"), {}, {}))


def random_playout(seed: int, max_moves: int = 1000, illegal_every: int | None = None) -> tuple[Header, list[Move]]:
    """A seeded game of take-away: each turn takes 1 to 3; every ``illegal_every``th move takes too many."""
    rng = random.Random(seed)
    header = Header(GAME.id, ("anna", "ben", "cleo")[: rng.choice((2, 3))], {"pile": rng.randint(10, 40)}, {})
    state = GAME.new_state(header)
    moves: list[Move] = []
    while len(moves) < max_moves and GAME.outcome(state) is None:
        by = state.players[state.turn]
        if illegal_every and (len(moves) + 1) % illegal_every == 0:
            moves.append(Take(by=by, n=state.most + 1))
            continue
        move: Move = Peek(by=by, card=rng.choice(("ace", "king"))) if rng.random() < 0.1 else Take(by=by, n=rng.randint(1, min(state.most, state.left)))
        verdict, state = GAME.play(state, move)
        assert verdict.ok, verdict
        moves.append(move)
    return header, moves


SPEC = GameSpec(game=GAME, package=__name__, example=example, playout=random_playout, secrets=SECRETS)

__all__ = ["GAME", "SPEC", "Peek", "Take", "ToyGame", "random_playout"]
