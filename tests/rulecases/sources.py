"""Where the search walks: each game's seeded playouts (in the option settings and table sizes that
reach its rules: :mod:`tests.rulecases.games`) and the acceptance games in its package (``GameSpec.acceptance_files``).

A source is ``(origin, header, moves)``; ``origin`` names it so that a maintainer can replay the
game a case was cut from (``escape-master:bp8:s3`` is seed 3 of that setting).
"""

from __future__ import annotations

from collections.abc import Iterator

from companion.core import Header, Move
from companion.games import get_spec
from companion.log.notation import read_notation

from .games import knowledge

Source = tuple[str, Header, list[Move]]


def acceptance_games(game_id: str) -> Iterator[Source]:
    for path in get_spec(game_id).acceptance_files():
        with path.open(encoding="utf-8") as handle:
            record = read_notation(handle)
        yield f"{game_id}:{path.name}", record.header, [move for _, move in record.moves]


def sources(game_id: str, seeds: int, moves: int) -> Iterator[Source]:
    """The acceptance games, then ``seeds`` playouts of up to ``moves`` moves in every setting."""
    yield from acceptance_games(game_id)
    for seed in range(seeds):
        for name, playout in knowledge(game_id).settings.items():
            header, played = playout(seed, moves)
            yield f"{game_id}:{name}:s{seed}", header, played


def hunts(game_id: str, first: int, seeds: int, moves: int) -> Iterator[Source]:
    """``seeds`` more playouts per hunting setting, from seed ``first`` on (after the sources' own)."""
    known = knowledge(game_id)
    for seed in range(first, first + seeds):
        for name in known.hunts:
            header, played = known.settings[name](seed, moves)
            yield f"{game_id}:{name}:s{seed}", header, played
