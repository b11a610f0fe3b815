"""A simulator: whole random games that the engine must find legal (benchmarks, the demo, tests).

Randomness lives here, never in the engine: the "shuffles" are choices of which card is tapped.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from companion.core import Header, Move
from . import entry
from .cards import COLOURS, DECK, RANKS, SLOTS, rank, sort_cards
from .engine import HorribleMountain2
from .moves import Discard, Draw, Place, Swap, TakeTable
from .state import State

GAME = HorribleMountain2()
PLAYERS = ("anna", "ben")


def random_header(rng: random.Random, variant: bool = False) -> Header:
    """A dealt table, following the rulebook's setup steps 2-8 with ``rng`` as the shuffle."""
    deck = list(DECK)
    rng.shuffle(deck)
    table: dict[int, str] = {}
    rest: list[str] = []
    for card in deck:  # setup step 2: reveal until one of each rank
        if rank(card) not in table and len(table) < len(RANKS):
            table[rank(card)] = card
        else:
            rest.append(card)
    rng.shuffle(rest)
    colours = list(COLOURS)
    rng.shuffle(colours)
    evil = rng.choice(PLAYERS)
    return Header(
        game=GAME.id,
        players=PLAYERS,
        options={"once_per_game_actions": variant},
        setup={
            "evil_master": evil,
            "table": [table[r] for r in RANKS],
            "hands": {PLAYERS[0]: rest[0:3], PLAYERS[1]: rest[3:6]},
            "cubes": {PLAYERS[0]: colours[0:2], PLAYERS[1]: colours[2:4]},
            "centre": colours[4],
        },
    )


def legal_moves(state: State) -> Iterator[Move]:
    """Every move worth trying now, by the player whose turn it is (the same moves a page offers:
    ``entry.candidates``); draws and refills range over every card the Draw Pile may hold."""
    return entry.candidates(state, state.current)


def _legal(state: State) -> list[Move]:
    return [m for m in legal_moves(state) if GAME.check(state, m).ok]


def _illegal_attempt(state: State, rng: random.Random) -> Move | None:
    """Something a careless table might do: out of turn, a seen card, a wrong rank, a cube not held."""
    me, other = state.current, state.names[1 - state.turn]
    seen = sort_cards(set(state.table) | state.hands[0] | state.hands[1])
    candidates: list[Move] = [
        Draw(by=other, card=rng.choice(sort_cards(state.draw_pile) or seen)),
        Draw(by=me, card=rng.choice(seen)),
        Swap(by=me, card=rng.choice(seen), slot=rng.choice(SLOTS)),
        TakeTable(by=me, cube=rng.choice(COLOURS), replacement=rng.choice(seen)),  # type: ignore[arg-type]
        Discard(by=me, card=rng.choice(seen)),
        Place(by=me, slots=(1, 3)),
    ]
    rng.shuffle(candidates)
    for move in candidates:
        if not GAME.check(state, move).ok:
            return move
    return None


def random_playout(
    seed: int, max_moves: int = 1000, illegal_every: int | None = None, variant: bool = False
) -> tuple[Header, list[Move]]:
    """A whole random game (until it ends or ``max_moves`` moves), legal except the attempts asked for.

    Every ``illegal_every``-th move is an illegal attempt that the engine must refuse; the game goes
    on from the state before it, as in a replay.
    """
    rng = random.Random(seed)
    header = random_header(rng, variant)
    state = GAME.new_state(header)
    moves: list[Move] = []
    while len(moves) < max_moves and GAME.outcome(state) is None:
        if illegal_every and (len(moves) + 1) % illegal_every == 0:
            attempt = _illegal_attempt(state, rng)
            if attempt is not None:
                moves.append(attempt)
                continue
        options = _legal(state)
        # Drawing is what ends the game; favour it a little so games are of table length.
        draws = [m for m in options if isinstance(m, Draw)]
        move = rng.choice(draws) if draws and rng.random() < 0.4 else rng.choice(options)
        moves.append(move)
        state = GAME.apply(state, move)
    return header, moves
