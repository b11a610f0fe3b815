"""Copies of one card are one thing at the table (issue 22).

A deck may hold identical cards (Escape Master's eight start cards, its four Wisdom cards, Escape
House's Betray cards). The engine tracks each copy by its own name, because a reader's tag identifies
one copy; but to the rules, and to a person entering a move by hand, the copies are interchangeable.
So a move a person enters naming a copy that is not where the move needs it, when an identical copy
is, is the same move made with that copy: :func:`settle` finds it. A move that is legal as named is
kept as named, and a move no copy makes legal is kept as named too (its refusal names what was entered).
"""

from __future__ import annotations

import dataclasses
import itertools
import logging
import re
from collections.abc import Callable, Sequence
from typing import Any

from companion.core import Move, Verdict

log = logging.getLogger(__name__)

SETTLE_LIMIT = 256
"""Most moves tried with other copies in place (a move names a handful of cards, each with a few copies)."""

Twins = Callable[[str], Sequence[str]]
"""The cards identical to a card (itself included, in deck order); empty for a card with no copies
(or a value that is not a card)."""


def _slots(move: Move, twins: Twins) -> list[tuple[str, int | None, list[str]]]:
    """Each card a move names that has copies: (field, index in a list field or None, the values it may take)."""
    out: list[tuple[str, int | None, list[str]]] = []
    for f in dataclasses.fields(move):
        if f.name in ("by", "do", "t"):
            continue
        value = getattr(move, f.name)
        if isinstance(value, str):
            same = [c for c in twins(value) if c != value]
            if same:
                out.append((f.name, None, [value, *same]))
        elif isinstance(value, tuple):
            for i, item in enumerate(value):
                if isinstance(item, str):
                    same = [c for c in twins(item) if c != item]
                    if same:
                        out.append((f.name, i, [item, *same]))
    return out


def _with(move: Move, slots: list[tuple[str, int | None, list[str]]], picked: tuple[str, ...]) -> Move:
    changes: dict[str, Any] = {}
    for (name, index, _), card in zip(slots, picked):
        if index is None:
            changes[name] = card
        else:
            items = list(changes.get(name, getattr(move, name)))
            items[index] = card
            changes[name] = tuple(items)
    return dataclasses.replace(move, **changes)


def settle(move: Move, twins: Twins, judge: Callable[[Move], Verdict]) -> Move:
    """``move`` made with the copies that make it legal, if naming other copies of the same cards
    does; else ``move`` as named. ``judge`` is the engine's own (no side effects)."""
    slots = _slots(move, twins)
    if not slots or judge(move).ok:
        return move
    tried = itertools.islice(itertools.product(*(values for _, _, values in slots)), 1, SETTLE_LIMIT + 1)
    for picked in tried:
        try:
            other = _with(move, slots, picked)
        except ValueError as exc:  # the move's own shape refuses it (a card named twice): not a way to make it
            log.debug("not a way to make %s: %s", move, exc)
            continue
        if judge(other).ok:
            log.debug("%s names another copy of the same card: made as %s", move, other)
            return other
    return move



_WORD = re.compile(r"[\w-]+")


def in_words(text: str, name: Callable[[str], str]) -> str:
    """``text`` with each card it names as a person names it (:meth:`Game.card_name`): a refusal
    naming ``start-3`` reads "7 START". ``name`` gives back any other word as it is."""
    return _WORD.sub(lambda m: name(m.group(0)), text)
