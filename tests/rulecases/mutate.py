"""Moves one step away from a given move: one field changed, as a player's slip would change it.

Every move is handled as its notation (a JSON object), so a mutation is whatever the codec reads;
what the engine then makes of it is the search's business. A field's other values come from the
values seen in the game's playouts and from the game's own pick domains (``Game.choices`` with
``every``: the whole deck, every slot).
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Iterable, Iterator
from typing import Any

from companion.contract.game import Game
from companion.core import Move, canonical_json
from companion.core.errors import NotationError

_ENVELOPE = ("by", "do", "t")
STRANGER = "zoe"
"""A name no header in the search seats: a move by someone who is not playing."""
NONESUCH = "nonesuch"
"""A word no game knows: a card, room or pile that is not there."""
KEEP = 24
"""Other values tried per field at most (the first seen): an Everest plan has been seen in thousands
of spellings, and every one of them tried at every state costs more than it finds."""


class Domains:
    """The values each (verb, field) has been seen to take, and each list field's elements."""

    def __init__(self) -> None:
        self.values: dict[tuple[str, str], dict[str, Any]] = defaultdict(dict)
        self.elements: dict[tuple[str, str], dict[str, Any]] = defaultdict(dict)

    def learn(self, game: Game[Any], moves: Iterable[Move]) -> None:
        for move in moves:
            obj = game.codec.to_json(move)
            for name, value in obj.items():
                if name in _ENVELOPE:
                    continue
                key = (move.verb, name)
                if len(self.values[key]) < KEEP:
                    self.values[key].setdefault(canonical_json(value), value)
                if isinstance(value, list):
                    for element in value:
                        if len(self.elements[key]) < KEEP:
                            self.elements[key].setdefault(canonical_json(element), element)


def _fields(cls: type[Move]) -> list[str]:
    return [f.name for f in dataclasses.fields(cls) if f.name not in _ENVELOPE]


def _picked(game: Game[Any], state: Any, move: Move, name: str) -> list[Any]:
    spec = type(move).picks.get(name)
    if spec is None or spec.per_player:
        return []
    choices = game.choices(state, None, move.by, spec.pick, True)
    return [c.value for c in choices or ()]


def _list_variants(value: list[Any], pool: list[Any]) -> Iterator[list[Any]]:
    for i in range(len(value)):
        yield value[:i] + value[i + 1 :]
        for other in pool:
            if other != value[i]:
                yield value[:i] + [other] + value[i + 1 :]
    for other in pool:
        yield value + [other]
    if len(value) > 1:
        yield list(reversed(value))
    if value:
        yield value + [value[0]]


def _field_variants(value: Any, seen: list[Any], pool: list[Any]) -> Iterator[Any]:
    if isinstance(value, str):
        yield NONESUCH
    if isinstance(value, bool):
        yield not value
    elif isinstance(value, int):
        yield value - 1
        yield value + 1
    if isinstance(value, list):
        yield from _list_variants(value, pool)
    for other in seen:
        if other != value:
            yield other
    if not isinstance(value, list):
        for other in pool:
            if other != value:
                yield other
    yield None


def mutations(game: Game[Any], state: Any, move: Move, domains: Domains, players: Iterable[str]) -> Iterator[Move]:
    """Every move the codec reads that differs from ``move`` in one field (``by`` included: every
    player, nobody, and a stranger to the table)."""
    obj = game.codec.to_json(move)
    tried = {repr(obj)}

    def read(changed: dict[str, Any]) -> Move | None:
        text = repr(changed)  # the keys keep their order, so equal moves read alike
        if text in tried:
            return None
        tried.add(text)
        try:
            return game.codec.from_json(changed)
        except NotationError:
            return None

    for who in [*players, STRANGER, None]:
        out = read({k: v for k, v in obj.items() if k != "by"} | ({"by": who} if who is not None else {}))
        if out is not None:
            yield out
    for name in _fields(type(move)):
        key = (move.verb, name)
        picked = _picked(game, state, move, name)
        seen = list(domains.values[key].values())
        value = obj.get(name)
        pool = list(domains.elements[key].values()) + picked if isinstance(value, list) else picked
        for variant in _field_variants(value, seen, pool):
            changed = dict(obj)
            if variant is None:
                changed.pop(name, None)
            else:
                changed[name] = variant
            out = read(changed)
            if out is not None:
                yield out


def distance(game: Game[Any], a: Move, b: Move) -> int:
    """How many notation fields two moves differ in (a different verb counts as far apart)."""
    if a.verb != b.verb:
        return 1000
    ja, jb = game.codec.to_json(a), game.codec.to_json(b)
    ja.pop("t", None)
    jb.pop("t", None)
    return sum(1 for k in set(ja) | set(jb) if ja.get(k) != jb.get(k))
