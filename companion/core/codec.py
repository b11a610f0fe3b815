"""Moves and options to JSON and back: the codec under the game notation (``shared/NOTATION.md``).

Moves are frozen dataclasses; this module turns them into JSON objects and back, generically,
from their type hints, so every game gets the same strictness: an unknown verb, a missing or
unknown field, or a value of the wrong type is a :class:`NotationError` naming the field.
A move class may validate further in ``__post_init__`` by raising ``ValueError``; the message is
kept and the line is added.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import json
import math
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, NoReturn, TypeVar, Union, get_args, get_origin, get_type_hints

from companion.core import JsonObject, Move
from companion.core.errors import NotationError

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


Converter = Callable[[Any, str], Any]


def value_from_json(tp: Any, value: Any, where: str) -> Any:
    """Convert one JSON value to the Python type ``tp``; ``where`` names it in the message."""
    return converter(tp)(value, where)


_SCALARS: dict[Any, tuple[Callable[[Any], bool], Callable[[Any], Any]]] = {
    bool: (lambda v: v is True or v is False, bool),
    int: (lambda v: type(v) is int, int),  # not a bool: True is not a count
    float: (lambda v: type(v) in (int, float) and math.isfinite(v), float),
    str: (lambda v: type(v) is str, str),
}
"""A plain value's type: what a JSON value must be to be read as one, and how it is read."""


def _refuse(name: str, value: Any, where: str) -> NoReturn:
    raise NotationError(f"{where} must be {name}, not {json.dumps(value)}")


@functools.lru_cache(maxsize=None)
def converter(tp: Any) -> Converter:
    """A function reading JSON values of type ``tp``, built once per type (reading is on the hot path)."""
    origin = get_origin(tp)
    name = _type_name(tp)
    if tp is Any:
        return lambda value, where: value
    if tp is type(None):

        def none(value: Any, where: str) -> None:
            if value is not None:
                _refuse(name, value, where)

        return none
    if origin is Literal:
        allowed = get_args(tp)

        def literal(value: Any, where: str) -> Any:
            for option in allowed:
                if type(option) is type(value) and option == value:
                    return value
            _refuse(name, value, where)

        return literal
    if origin in (Union, types.UnionType):
        args = get_args(tp)
        # An optional field (``X | None``) reads null at once, and a value that is not null skips
        # the null arm: that arm refuses it, saying nothing the final refusal does not (a refusal
        # raises, and most optional fields are absent or null). Whichever arm takes null returns
        # None, except an enum's (an enum may have a member whose value is null).
        nullable = type(None) in args and not any(isinstance(a, type) and issubclass(a, enum.Enum) for a in args)
        arms = [converter(arg) for arg in args if not (nullable and arg is type(None))]

        def union(value: Any, where: str) -> Any:
            if value is None and nullable:
                return None
            deeper: NotationError | None = None
            for arm in arms:
                try:
                    return arm(value, where)
                except NotationError as exc:
                    # An arm that matched the shape but failed inside says more than "must be X or Y".
                    if exc.message.startswith((f"{where}[", f"{where}.", f"{where} field", f"{where}: ")):
                        deeper = deeper or exc
            if deeper is not None:
                raise deeper
            _refuse(name, value, where)

        return union
    if origin is tuple:
        args = get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            item = converter(args[0])

            def tuple_of(value: Any, where: str) -> Any:
                if not isinstance(value, list):
                    _refuse(name, value, where)
                return tuple([item(v, f"{where}[{i}]") for i, v in enumerate(value)])

            return tuple_of
        items = [converter(a) for a in args]

        def fixed_tuple(value: Any, where: str) -> Any:
            if not isinstance(value, list):
                _refuse(name, value, where)
            if len(value) != len(items):
                raise NotationError(f"{where} must be a list of {len(items)}, not {len(value)}")
            return tuple([c(v, f"{where}[{i}]") for i, (c, v) in enumerate(zip(items, value))])

        return fixed_tuple
    if origin is list:
        item = converter(get_args(tp)[0])

        def list_of(value: Any, where: str) -> Any:
            if not isinstance(value, list):
                _refuse(name, value, where)
            return [item(v, f"{where}[{i}]") for i, v in enumerate(value)]

        return list_of
    if origin in (dict, Mapping, typing.Mapping) or tp in (dict, Mapping):
        args = get_args(tp) or (str, Any)
        entry = converter(args[1])

        def mapping(value: Any, where: str) -> Any:
            if not isinstance(value, dict):
                _refuse(name, value, where)
            return {k: entry(v, f"{where}.{k}") for k, v in value.items()}

        return mapping
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        enum_type = tp

        def enumerated(value: Any, where: str) -> Any:
            try:
                return enum_type(value)
            except (ValueError, TypeError):
                _refuse(name, value, where)

        return enumerated
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        cls = tp
        if getattr(cls, "__dataclass_params__").frozen:
            return _interning(cls, name)

        def nested(value: Any, where: str) -> Any:
            if not isinstance(value, dict):
                _refuse(name, value, where)
            return dataclass_from_json(cls, value, where)

        return nested
    scalar = _SCALARS.get(tp)
    if scalar is not None:
        accepts, convert = scalar

        def plain(value: Any, where: str) -> Any:
            if accepts(value):
                return convert(value)
            _refuse(name, value, where)

        return plain
    raise TypeError(f"notation cannot read values of type {tp!r}")  # a move class with a type we do not read


_PLAIN = frozenset({str, int, bool, type(None)})
INTERNED_MAX = 1024
"""Values remembered per class by :func:`_interning`: a game's small values (Everest's 48 plan
coins) fit many times over, and a file of distinct ones cannot grow the table without end."""


def _interning(cls: type, name: str) -> Converter:
    """Read a nested frozen dataclass, one instance per distinct JSON object of plain values: such
    a value is immutable and equal to any other read from the same object, and the same few come
    back on every line of a file (Everest's plan coins, three in every plan). The key holds each
    value's type, so that ``true`` is never taken for ``1``; an object holding anything else (a
    list, a number with a fraction) is read afresh every time."""
    known: dict[tuple[tuple[tuple[str, Any], ...], tuple[type, ...]], Any] = {}

    def interned(value: Any, where: str) -> Any:
        if not isinstance(value, dict):
            _refuse(name, value, where)
        types_of = tuple(map(type, value.values()))
        if not _PLAIN.issuperset(types_of):
            return dataclass_from_json(cls, value, where)
        key = (tuple(value.items()), types_of)
        found = known.get(key)
        if found is None:
            found = dataclass_from_json(cls, value, where)
            if len(known) < INTERNED_MAX:
                known[key] = found
        return found

    return interned


@dataclass(frozen=True)
class _Plan:
    """How to read one dataclass: its fields' converters, which are required, which names exist."""

    fields: tuple[tuple[str, Converter, bool], ...]
    names: frozenset[str]
    wheres: dict[str, tuple[str, ...]] = dataclasses.field(default_factory=dict, compare=False)
    """How a message names each field (``plan field "coins"``), by the ``where`` of the object: a
    move's is its verb, so these are the same few strings for every move read."""

    def field_wheres(self, where: str) -> tuple[str, ...]:
        known = self.wheres.get(where)
        if known is None:
            known = tuple([f'{where} field "{name}"' for name, _, _ in self.fields])
            if len(self.wheres) < 64:  # (a nested object's ``where`` names its index: keep a few)
                self.wheres[where] = known
        return known


_plans: dict[type, _Plan] = {}


def _plan(cls: type) -> _Plan:
    plan = _plans.get(cls)
    if plan is None:
        hints = _hints(cls)
        entries = []
        for f in dataclasses.fields(cls):
            if not f.init:
                continue
            required = f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
            entries.append((f.name, converter(hints[f.name]), required))
        plan = _Plan(tuple(entries), frozenset(name for name, _, _ in entries))
        _plans[cls] = plan
    return plan


def dataclass_from_json(cls: type[T], obj: Mapping[str, Any], where: str, skip: Iterable[str] = ()) -> T:
    """Build dataclass ``cls`` from a JSON object: required fields present, no unknown fields."""
    plan = _plan(cls)
    for key in obj:
        if key not in plan.names and key not in skip:
            raise NotationError(f"{where} has an unknown field {json.dumps(key)}")
    kwargs: dict[str, Any] = {}
    for (name, read, required), field_where in zip(plan.fields, plan.field_wheres(where)):
        if name in obj:
            kwargs[name] = read(obj[name], field_where)
        elif required:
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


_VERB = ("do",)


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
        return dataclass_from_json(cls, obj, verb, skip=_VERB)

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
