"""Reading a whole game in the notation (``shared/NOTATION.md``, documented in ``docs/notation.md``):
the header line and every move line, each read by its game's codec (:mod:`companion.core.codec`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, TextIO

from companion.core import Header, Move
from companion.core.errors import NotationError
from companion.games import get_game


def parse_header(obj: Any) -> Header:
    if not isinstance(obj, dict):
        raise NotationError("the header must be a JSON object")
    game = obj.get("game")
    if not isinstance(game, str):
        raise NotationError('the header needs "game", a game id')
    players = obj.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) and p for p in players):
        raise NotationError('the header needs "players", a list of player names')
    if len(set(players)) != len(players):
        raise NotationError("the header names a player twice")
    for key in ("options", "setup"):
        if key in obj and not isinstance(obj[key], dict):
            raise NotationError(f'the header field "{key}" must be an object')
    unknown = [k for k in obj if k not in ("game", "players", "options", "setup")]
    if unknown:
        raise NotationError(f'the header has an unknown field "{unknown[0]}"')
    return Header(game, tuple(players), dict(obj.get("options", {})), dict(obj.get("setup", {})))


@dataclass(frozen=True)
class NotationFile:
    """A whole game read from JSON Lines: the header and the moves, with their line numbers."""

    header: Header
    moves: tuple[tuple[int, Move], ...]
    start: Any = field(default=None, compare=False, repr=False)
    """The game's state before the first move (built once, while checking the header's setup)."""


_scan: Callable[[str, int], tuple[Any, int]] = getattr(json.JSONDecoder(), "scan_once")  # (not in the stubs)
"""The C scanner under ``json.loads``, for a line already stripped: what ``loads`` does for it
without its whitespace look-ups (a game file is read at start-up and by ``companion replay``)."""


def _loads(text: str) -> Any:
    """``json.loads(text)`` for a stripped line; anything the scanner does not take whole goes to
    ``json.loads`` itself, which then raises its own error."""
    try:
        value, end = _scan(text, 0)
    except (StopIteration, ValueError):
        return json.loads(text)
    return value if end == len(text) else json.loads(text)


def _json_lines(lines: Iterable[str]) -> Iterator[tuple[int, Any]]:
    for number, raw in enumerate(lines, start=1):
        text = raw.strip()
        if not text:
            continue
        try:
            yield number, _loads(text)
        except json.JSONDecodeError as exc:
            raise NotationError(f"not valid JSON ({exc.msg} at column {exc.colno})", number) from exc
        except RecursionError as exc:
            raise NotationError("JSON nested too deeply", number) from exc


def read_notation(handle: TextIO) -> NotationFile:
    """Read a whole notation file, or raise one :class:`NotationError` naming the line."""
    rows = _json_lines(handle)
    try:
        first = next(rows)
    except StopIteration:
        raise NotationError("the file is empty; the first line must be the header", 1) from None
    line, obj = first
    try:
        header = parse_header(obj)
        game = get_game(header.game)
        start = game.new_state(header)  # the setup itself must be readable
    except NotationError as exc:
        raise exc.at_line(line) from exc
    moves: list[tuple[int, Move]] = []
    for line, obj in rows:
        try:
            moves.append((line, game.codec.from_json(obj)))
        except NotationError as exc:
            raise exc.at_line(line) from exc
    return NotationFile(header, tuple(moves), start)
