"""Reading and writing the game notation (``shared/NOTATION.md``, documented in ``docs/notation.md``).

Moves are frozen dataclasses; this module turns them into JSON objects and back, generically,
from their type hints, so every game gets the same strictness: an unknown verb, a missing or
unknown field, or a value of the wrong type is a :class:`NotationError` naming the field.
A move class may validate further in ``__post_init__`` by raising ``ValueError``; the message is
kept and the line is added.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import math
import types
import typing
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Literal, TextIO, TypeVar, Union, get_args, get_origin, get_type_hints

from companion.core import Header, JsonObject, Move
from companion.errors import NotationError

T = TypeVar("T")

ENVELOPE = ("by", "do", "t")

_hints_cache: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    hints = _hints_cache.get(cls)
    if hints is None:
        hints = get_type_hints(cls)
        _hints_cache[cls] = hints
    return hints


def _type_name(tp: Any) -> str:
    origin = get_origin(tp)
    if tp is type(None):
        return "null"
    if origin is Literal:
        return " or ".join(json.dumps(a) for a in get_args(tp))
    if origin in (Union, types.UnionType):
        return " or ".join(_type_name(a) for a in get_args(tp))
    if origin in (tuple, list):
        return "a list"
    if origin in (dict, Mapping) or tp in (dict, Mapping):
        return "an object"
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return " or ".join(json.dumps(m.value) for m in tp)
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return "an object"
    return {str: "a string", int: "a whole number", float: "a number", bool: "true or false"}.get(
        tp, getattr(tp, "__name__", str(tp))
    )


def value_from_json(tp: Any, value: Any, where: str) -> Any:
    """Convert one JSON value to the Python type ``tp``; ``where`` names it in the message."""
    origin = get_origin(tp)
    if tp is Any:
        return value
    if tp is type(None):
        if value is None:
            return None
    elif origin is Literal:
        for allowed in get_args(tp):
            if type(allowed) is type(value) and allowed == value:
                return value
    elif origin in (Union, types.UnionType):
        deeper: NotationError | None = None
        for arg in get_args(tp):
            try:
                return value_from_json(arg, value, where)
            except NotationError as exc:
                # An arm that matched the shape but failed inside says more than "must be X or Y".
                if exc.message.startswith((f"{where}[", f"{where}.", f"{where} field", f"{where}: ")):
                    deeper = deeper or exc
        if deeper is not None:
            raise deeper
    elif origin is tuple:
        args = get_args(tp)
        if isinstance(value, list):
            if len(args) == 2 and args[1] is Ellipsis:
                return tuple(value_from_json(args[0], v, f"{where}[{i}]") for i, v in enumerate(value))
            if len(args) == len(value):
                return tuple(value_from_json(a, v, f"{where}[{i}]") for i, (a, v) in enumerate(zip(args, value)))
            raise NotationError(f"{where} must be a list of {len(args)}, not {len(value)}")
    elif origin is list:
        (arg,) = get_args(tp)
        if isinstance(value, list):
            return [value_from_json(arg, v, f"{where}[{i}]") for i, v in enumerate(value)]
    elif origin in (dict, Mapping, typing.Mapping) or tp in (dict, Mapping):
        args = get_args(tp) or (str, Any)
        if isinstance(value, dict):
            return {k: value_from_json(args[1], v, f"{where}.{k}") for k, v in value.items()}
    elif isinstance(tp, type) and issubclass(tp, enum.Enum):
        try:
            return tp(value)
        except ValueError:
            pass
    elif isinstance(tp, type) and dataclasses.is_dataclass(tp):
        if isinstance(value, dict):
            return dataclass_from_json(tp, value, where)
    elif tp is bool:
        if isinstance(value, bool):
            return value
    elif tp is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    elif tp is float:
        if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
            return float(value)
    elif tp is str:
        if isinstance(value, str):
            return value
    else:  # pragma: no cover - a move class with a type this reader does not know is a bug
        raise TypeError(f"notation cannot read values of type {tp!r} ({where})")
    raise NotationError(f"{where} must be {_type_name(tp)}, not {json.dumps(value)}")


def dataclass_from_json(cls: type[T], obj: Mapping[str, Any], where: str, skip: Iterable[str] = ()) -> T:
    """Build dataclass ``cls`` from a JSON object: required fields present, no unknown fields."""
    hints = _hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls) if f.init}  # type: ignore[arg-type]
    skipped = set(skip)
    unknown = [k for k in obj if k not in fields and k not in skipped]
    if unknown:
        raise NotationError(f"{where} has an unknown field {json.dumps(unknown[0])}")
    kwargs: dict[str, Any] = {}
    for name, f in fields.items():
        if name in obj:
            kwargs[name] = value_from_json(hints[name], obj[name], f'{where} field "{name}"')
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            raise NotationError(f'{where} is missing the field "{name}"')
    try:
        return cls(**kwargs)
    except NotationError:
        raise
    except (ValueError, TypeError) as exc:
        raise NotationError(f"{where}: {exc}") from exc


def value_to_json(value: Any) -> Any:
    if isinstance(value, enum.Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclass_to_json(value)
    if isinstance(value, (tuple, list)):
        return [value_to_json(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): value_to_json(v) for k, v in value.items()}
    return value


def dataclass_to_json(obj: Any) -> JsonObject:
    """A dataclass as a JSON object; optional fields left at None are omitted."""
    out: JsonObject = {}
    for f in dataclasses.fields(obj):
        if not f.init:
            continue
        value = getattr(obj, f.name)
        if value is None and f.default is None:
            continue
        out[f.name] = value_to_json(value)
    return out


class MoveCodec:
    """Reads and writes one game's moves: ``{"by": P, "do": VERB, ...fields, "t": seconds}``."""

    def __init__(self, game: str, move_types: Iterable[type[Move]]) -> None:
        self.game = game
        self.by_verb: dict[str, type[Move]] = {}
        for cls in move_types:
            if not cls.verb or cls.verb in self.by_verb:
                raise ValueError(f"{game}: move class {cls.__name__} needs a verb of its own")
            self.by_verb[cls.verb] = cls

    def from_json(self, obj: Any) -> Move:
        if not isinstance(obj, dict):
            raise NotationError("a move must be a JSON object")
        verb = obj.get("do")
        if not isinstance(verb, str):
            raise NotationError('a move needs a "do" field naming its verb')
        cls = self.by_verb.get(verb)
        if cls is None:
            known = ", ".join(sorted(self.by_verb))
            raise NotationError(f'unknown verb "{verb}" for {self.game} (known: {known})')
        if "by" in obj and obj["by"] is not None and not isinstance(obj["by"], str):
            raise NotationError(f'{verb}: "by" must be a player name')
        t = obj.get("t")
        if t is not None and (isinstance(t, bool) or not isinstance(t, (int, float)) or not math.isfinite(t)):
            raise NotationError(f'{verb}: "t" must be a number of seconds')
        body = {k: v for k, v in obj.items() if k != "do"}
        return dataclass_from_json(cls, body, verb)

    def to_json(self, move: Move) -> JsonObject:
        out: JsonObject = {}
        if move.by is not None:
            out["by"] = move.by
        out["do"] = move.verb
        for name, value in dataclass_to_json(move).items():
            if name not in ("by", "t"):
                out[name] = value
        if move.t is not None:
            out["t"] = move.t
        return out


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


def _json_lines(lines: Iterable[str]) -> Iterator[tuple[int, Any]]:
    for number, raw in enumerate(lines, start=1):
        text = raw.strip()
        if not text:
            continue
        try:
            yield number, json.loads(text)
        except json.JSONDecodeError as exc:
            raise NotationError(f"not valid JSON ({exc.msg} at column {exc.colno})", number) from exc
        except RecursionError as exc:
            raise NotationError("JSON nested too deeply", number) from exc


def read_notation(handle: TextIO) -> NotationFile:
    """Read a whole notation file, or raise one :class:`NotationError` naming the line."""
    # Imported here: the registry imports the games, which import this module.
    from companion.games import get_game

    rows = _json_lines(handle)
    try:
        first = next(rows)
    except StopIteration:
        raise NotationError("the file is empty; the first line must be the header", 1) from None
    line, obj = first
    try:
        header = parse_header(obj)
        game = get_game(header.game)
        game.new_state(header)  # the setup itself must be readable
    except NotationError as exc:
        raise exc.at_line(line) from exc
    moves: list[tuple[int, Move]] = []
    for line, obj in rows:
        try:
            moves.append((line, game.codec.from_json(obj)))
        except NotationError as exc:
            raise exc.at_line(line) from exc
    return NotationFile(header, tuple(moves))
