"""Where the search walks: each game's seeded playouts (its ``playout.py``, in the option settings
and table sizes that reach its rules) and the acceptance games in its package (``GameSpec.acceptance_files``).

A source is ``(origin, header, moves)``; ``origin`` names it so that a maintainer can replay the
game a case was cut from (``escape-master:bp8:s3`` is seed 3 of that setting).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from companion.core import Header, Move
from companion.games import get_game, get_spec
from companion.log.notation import read_notation
from companion.games.escape_house import playout as escape_house
from companion.games.escape_master import playout as escape_master
from companion.games.everest import playout as everest
from companion.games.horrible_mountain_2 import playout as horrible_mountain_2
from companion.games.horrible_mountain_2.moves import Dealt
from companion.games.the_mountain import playout as the_mountain

Source = tuple[str, Header, list[Move]]

_Playout = Callable[[int, int], tuple[Header, list[Move]]]

TWO = ("anna", "ben")
THREE = ("anna", "ben", "carl")
FOUR = ("anna", "ben", "carl", "dora")


def _em(players: tuple[str, ...], options: Mapping[str, Any] | None) -> _Playout:
    return lambda seed, n: escape_master.random_playout(seed, n, illegal_every=3, players=players, options=options)


def _hm2(variant: bool, live: bool) -> _Playout:
    def playout(seed: int, n: int) -> tuple[Header, list[Move]]:
        header, moves = horrible_mountain_2.random_playout(seed, n, illegal_every=3, variant=variant)
        return _hm2_live(header, moves) if live else (header, moves)

    return playout


def _hm2_live(header: Header, moves: list[Move]) -> tuple[Header, list[Move]]:
    """The same game at a live table: the hands left out of the setup, each card tapped in (``dealt``)."""
    setup = {k: v for k, v in header.setup.items() if k != "hands"}
    dealt: list[Move] = [Dealt(by=p, card=c) for p in header.players for c in header.setup["hands"][p]]
    return Header(header.game, header.players, header.options, setup), dealt + moves


def _tm(options: Mapping[str, Any]) -> _Playout:
    return lambda seed, n: the_mountain.random_playout(seed, n, illegal_every=3, options=options)


def _ev(options: Mapping[str, Any]) -> _Playout:
    return lambda seed, n: everest.random_playout(seed, n, illegal_every=3, options=options)


def _ev_two(seed: int, n: int) -> tuple[Header, list[Move]]:
    """Everest's playout for two yeti (``random_playout`` seats four): shorter rounds, shorter cases."""
    rng = random.Random(seed)
    game = get_game("everest")
    header = Header("everest", TWO, {}, {})
    state = game.new_state(header)
    moves: list[Move] = []
    while len(moves) < n and game.outcome(state) is None:
        if len(moves) % 3 == 2:
            bad = everest.illegal_move(state, rng)
            if bad is not None:
                moves.append(bad)
                continue
        move = everest.legal_move(state, rng)
        verdict, state = game.play(state, move)
        if not verdict.ok:
            raise AssertionError(f"everest's playout chose a move the engine refuses: {move} ({verdict.why})")
        moves.append(move)
    return header, moves


def _eh(players: int, live: bool) -> _Playout:
    def playout(seed: int, n: int) -> tuple[Header, list[Move]]:
        header, moves = escape_house.random_playout(seed, n, illegal_every=3, players=players, teamwork=0.9)
        return escape_house.as_live_table(header, moves, random.Random(seed)) if live else (header, moves)

    return playout


PLAYOUTS: dict[str, dict[str, _Playout]] = {
    "escape-master": {
        "two": _em(TWO, None),
        "bp8": _em(TWO, {"breaking_point": 8}),
        "fixed1": _em(TWO, {"fixed_rounds": 1}),
        "strict": _em(TWO, {"wisdom_on_wisdom": False, "early_end_doom_pile": True, "breaking_point": 100}),
        "three": _em(THREE, None),
        "three-fixed2": _em(THREE, {"fixed_rounds": 2}),
        "teams": _em(FOUR, {"teams": [["anna", "carl"], ["ben", "dora"]], "breaking_point": 100}),
    },
    "horrible-mountain-2": {
        "plain": _hm2(False, False),
        "variant": _hm2(True, False),
        "live": _hm2(False, True),
    },
    "the-mountain": {
        "plain": _tm({}),
        "nightmare": _tm({"nightmare": True}),
    },
    "everest": {
        "two": _ev_two,
        "plain": _ev({}),
        "notches": _ev({"notches": "table"}),
    },
    "escape-house": {
        "six": _eh(6, False),
        "live": _eh(6, True),
    },
}
"""Per game, the settings its playouts run in."""


HUNTS: dict[str, tuple[str, ...]] = {
    "escape-master": ("bp8", "fixed1"),
    "horrible-mountain-2": ("plain",),
    "the-mountain": ("plain", "nightmare"),
    "everest": ("two", "plain"),
    "escape-house": ("six",),
}
"""Per game, the settings played again with many more seeds, walked for effects only (a forced
trip home, a push while falling: rare, and cheap to look for without the slips)."""


def settings(game_id: str) -> Mapping[str, _Playout]:
    """The settings a game's playouts run in: those above, or its spec's own playout for a game
    this file does not know (a new game's cases can be generated before anyone tunes its settings)."""
    if game_id in PLAYOUTS:
        return PLAYOUTS[game_id]
    playout = get_spec(game_id).playout
    return {"playout": lambda seed, moves: playout(seed, moves)}


def acceptance_games(game_id: str) -> Iterator[Source]:
    for path in get_spec(game_id).acceptance_files():
        with path.open(encoding="utf-8") as handle:
            record = read_notation(handle)
        yield f"{game_id}:{path.name}", record.header, [move for _, move in record.moves]


def sources(game_id: str, seeds: int, moves: int) -> Iterator[Source]:
    """The acceptance games, then ``seeds`` playouts of up to ``moves`` moves in every setting."""
    yield from acceptance_games(game_id)
    for seed in range(seeds):
        for name, playout in settings(game_id).items():
            header, played = playout(seed, moves)
            yield f"{game_id}:{name}:s{seed}", header, played


def hunts(game_id: str, first: int, seeds: int, moves: int) -> Iterator[Source]:
    """``seeds`` more playouts per hunting setting, from seed ``first`` on (after the sources' own)."""
    for seed in range(first, first + seeds):
        for name in HUNTS.get(game_id, ()):
            header, played = settings(game_id)[name](seed, moves)
            yield f"{game_id}:{name}:s{seed}", header, played
