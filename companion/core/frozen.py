"""A frozen dataclass copied with some fields changed, at a cost the engines' hot paths can pay.

How CPython 3.11 reads a field matters as much as how the copy is made. An instance built by
``__init__`` keeps its fields in an array beside the object, with the key table shared by every
instance of its class; the first read of ``__dict__`` turns them into a dict that still shares that
table (a "split" dict), and ``dict.copy`` of a split dict is split again. The interpreter does not
specialise an attribute read on an object with a split dict: each read of a field then takes the
generic path (about 370 machine instructions, measured with callgrind) instead of a few dozen. So a
chain of copies made by :func:`replaced` from an instance built by ``__init__`` would be slow to
read from the second state on. :class:`Replaceable` gives each instance, as it is built, an
ordinary dict of its own; ``dict.copy`` of that is a single clone and stays ordinary.

A class default that is an enum member has the same effect on its field (the interpreter does not
specialise a read that meets an instance of a Python class on the class): such a field takes its
default through ``default_factory``, which leaves no class attribute.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

T = TypeVar("T")

_new = object.__new__
_set = object.__setattr__  # a frozen dataclass's own __setattr__ refuses


def replaced(value: T, changes: Mapping[str, Any]) -> T:
    """``dataclasses.replace(value, **changes)`` for a frozen dataclass whose ``__post_init__``, if
    any, derives nothing (:class:`Replaceable`'s): a new instance over a copy of ``value``'s
    ``__dict__``. ``replace`` goes through ``__init__`` and one ``object.__setattr__`` per field,
    several times this cost, and every move of every engine makes at least one new state. Field
    names are not checked here: a caller that takes them from outside checks them first."""
    new = _new(type(value))
    fields = value.__dict__.copy()  # (a whole-dict copy is one C call; field by field is not)
    fields.update(changes)
    _set(new, "__dict__", fields)
    return new


class Replaceable:
    """A base for a frozen dataclass whose instances are copied with :func:`replaced`: each instance
    built by ``__init__`` gets an ordinary dict of its own (the module docstring says why), so that
    its copies' fields are read at full speed. A subclass with a ``__post_init__`` of its own calls
    this one too."""

    __slots__ = ()

    def __post_init__(self) -> None:
        _set(self, "__dict__", dict(self.__dict__))
