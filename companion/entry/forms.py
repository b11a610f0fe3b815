"""A move as the builder handles it, and how moves agree with a draft.

A move's *form* is its verb, its player and its fields by their own names as plain JSON (lists, never
tuples): what the builder compares with the values a page has tapped so far. Each move class's fields
and their declared domains are read once here.
"""

from __future__ import annotations

import dataclasses
import enum
import types
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

from companion.core import JsonObject, Move
from companion.core.codec import value_to_json
from companion.core.picks import FieldSpec
from companion.entry.draft import DraftError

ENVELOPE = ("by", "t")


def field_specs(move_type: type[Move]) -> list[tuple[str, FieldSpec]]:
    """The fields a person fills in, in declaration order, with their domains."""
    found = _SPECS.get(move_type)
    if found is None:
        found = _SPECS[move_type] = _read_field_specs(move_type)
    return list(found)


_SPECS: dict[type[Move], tuple[tuple[str, FieldSpec], ...]] = {}
_HINTS: dict[type[Move], dict[str, Any]] = {}
"""Per move class, read once: a class never changes (and there are only so many)."""


def _read_field_specs(move_type: type[Move]) -> tuple[tuple[str, FieldSpec], ...]:
    out = []
    for f in dataclasses.fields(move_type):
        if f.name in ENVELOPE:
            continue
        spec = move_type.picks.get(f.name)
        if spec is None:  # every game's test checks its declarations; a page still gets an answer
            raise DraftError(f"{move_type.verb}.{f.name} cannot be tapped in (its game declares no values for it)")
        out.append((f.name, spec))
    return tuple(out)


def hints(move_type: type[Move]) -> dict[str, Any]:
    """A move class's field types (``get_type_hints`` reads annotations anew on every call)."""
    found = _HINTS.get(move_type)
    if found is None:
        found = _HINTS[move_type] = get_type_hints(move_type)
    return found


def norm(value: Any) -> Any:
    """JSON values compare as lists, never tuples."""
    if isinstance(value, (list, tuple)):
        return [norm(v) for v in value]
    if isinstance(value, dict):
        return {k: norm(v) for k, v in value.items()}
    return value


def list_matches(spec: FieldSpec, partial: Sequence[Any], full: Any, exact: bool) -> bool:
    if not isinstance(full, list):
        return False
    if spec.ordered:
        return full == list(partial) if exact else full[: len(partial)] == list(partial)
    if exact and len(full) != len(partial):
        return False
    if full[: len(partial)] == list(partial):  # tapped in the move's own order: no counting needed
        return True
    have, want = Counter(map(repr, full)), Counter(map(repr, partial))
    return have == want if exact else not (want - have)



def matches(spec: FieldSpec, have: Any, want: Any, exact: bool) -> bool:
        if want is None:
            return have is None
        if spec.per_player:
            return isinstance(have, dict) and set(have) == set(want) and all(
                list_matches(spec, want[k], have[k], exact=True) for k in want
            )
        if spec.many:
            return list_matches(spec, want, have, exact)
        return bool(have == want)


def next_values(spec: FieldSpec, name: str, partial: list[Any], moves: Iterable[JsonObject]) -> dict[str, Any]:
    """The values that some move in ``moves`` takes next for field ``name`` (after ``partial``, for a
    list), by their ``repr``: one pass over the moves, whatever the size of the domain."""
    out: dict[str, Any] = {}
    for m in moves:
        have = m.get(name)
        if not spec.many:
            out.setdefault(repr(have), have)
        elif not isinstance(have, list):
            continue
        elif spec.ordered:
            if len(have) > len(partial) and have[: len(partial)] == partial:
                out.setdefault(repr(have[len(partial)]), have[len(partial)])
        else:
            rest = Counter(map(repr, have))
            rest.subtract(map(repr, partial))
            if all(n >= 0 for n in rest.values()):
                out.update((repr(v), v) for v in have if rest[repr(v)] > 0)
    return out


def move_form(move: Move) -> JsonObject:
    """A move as the builder handles it: its verb, its player and its fields by their own names
    (the notation may spell a field otherwise: The Mountain's ``from_`` is ``"from"``)."""
    form: JsonObject = {"do": move.verb, "by": move.by}
    for name in _field_names(type(move)):
        value = getattr(move, name)
        if value is not None:
            form[name] = form_value(value)
    return form


def form_value(value: Any) -> Any:
    """A field's value as in a form: plain JSON, lists never tuples. Plain values and lists of them
    (nearly every field) are taken as they are, without the codec's general walk: the builder makes
    the form of every candidate it judges."""
    kind = type(value)
    if kind is str or kind is int or kind is bool or kind is float or value is None:
        return value
    if kind is tuple or kind is list:
        return [form_value(v) for v in value]
    return norm(value_to_json(value))


def _field_names(move_type: type[Move]) -> tuple[str, ...]:
    """A move class's own fields (not the envelope), read once per class."""
    found = _NAMES.get(move_type)
    if found is None:
        found = _NAMES[move_type] = tuple(f.name for f in dataclasses.fields(move_type) if f.name not in ENVELOPE)
    return found


_NAMES: dict[type[Move], tuple[str, ...]] = {}


def agrees(move: Move, given: Sequence[tuple[str, FieldSpec, Any]]) -> bool:
    """Whether a move has the values of the fields a draft has complete (as its form would)."""
    return all(matches(spec, form_value(getattr(move, name)), value, exact=True) for name, spec, value in given)


def mentions(move: Mapping[str, Any], card: str) -> bool:
    for key, value in move.items():
        if key in ("do", "by"):
            continue
        if value == card or isinstance(value, list) and card in value:
            return True
    return False


def written_length(move_type: type[Move], name: str) -> int | None:
    """How many values a list field's notation holds when that is fixed (a ``tuple[str, str]`` holds
    two, and a move with another count cannot even be written), else None."""
    tp = hints(move_type)[name]
    while get_origin(tp) in (Union, types.UnionType):
        tp = next(a for a in get_args(tp) if a is not type(None))
    if get_origin(tp) is not tuple:
        return None
    args = get_args(tp)
    return None if Ellipsis in args else len(args)


def base_type(move_type: type[Move], name: str) -> Any:
    """A field's value type under its Optional and list wrappers."""
    tp = hints(move_type)[name]
    while get_origin(tp) in (Union, types.UnionType, tuple, list):
        args = [a for a in get_args(tp) if a is not type(None) and a is not Ellipsis]
        if not args:
            break
        tp = args[0]
    return tp


def words(tp: Any) -> list[Any] | None:
    """The values of a Literal or an Enum type, or None."""
    if get_origin(tp) is Literal:
        return list(get_args(tp))
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return [m.value for m in tp]
    return None
