"""A frozen dataclass copied with some fields changed, at a cost the engines' hot paths can pay."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

T = TypeVar("T")

_new = object.__new__
_set = object.__setattr__  # a frozen dataclass's own __setattr__ refuses


def replaced(value: T, changes: Mapping[str, Any]) -> T:
    """``dataclasses.replace(value, **changes)`` for a frozen dataclass with no ``__post_init__``
    (nothing is checked or derived on the way): a new instance over a copy of ``value``'s
    ``__dict__``. ``replace`` goes through ``__init__`` and one ``object.__setattr__`` per field,
    several times this cost, and every move of every engine makes at least one new state. Field
    names are not checked here: a caller that takes them from outside checks them first."""
    new = _new(type(value))
    fields = value.__dict__.copy()  # (a whole-dict copy is one C call; field by field is not)
    fields.update(changes)
    _set(new, "__dict__", fields)
    return new
