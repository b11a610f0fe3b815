"""Copies of one card are one value on a page (issue 22): "7 START ×3", never start-1, start-2, start-3.

A reader's tag names one copy, so the engine keeps each copy's own name (:meth:`Game.copies`); a person
means the card. The builder offers each card once, standing for the copies the actor could mean, and the
value it sends is a copy that makes the move meant where one does (the first legal one); a copy no
legal move takes is still the first, for an illegal move on purpose (the session settles the entry
again with what it knows: :mod:`companion.contract.copies`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from companion.entry.offer import Offered

Twins = Callable[[str], Sequence[str]]
"""The copies of a card, itself included (empty for a card without copies): :meth:`Game.copies`."""


def card_key(value: Any, twins: Twins) -> str:
    """What a value is to a person: a card with copies is its first copy, any other value itself."""
    if isinstance(value, str):
        same = twins(value)
        if same:
            return repr(same[0])
    return repr(value)


def as_one(offered: Iterable[Offered], twins: Twins) -> tuple[Offered, ...]:
    """The values offered with each card's copies as one value, in the order the first copy came:
    legal if any copy is, naming the first legal copy, counting the copies offered. Copies the game
    labels apart stay apart: a card in two places is two things to a person ("7 START (top of pile
    1)", "7 START (half on pile 2)")."""
    groups: dict[tuple[str, str], list[Offered]] = {}
    for one in offered:
        groups.setdefault((card_key(one.choice.value, twins), one.choice.label), []).append(one)
    out = []
    for group in groups.values():
        if len(group) == 1:
            out.append(group[0])
            continue
        meant = next((one for one in group if one.legal), group[0])
        out.append(Offered(meant.choice, meant.legal, count=len(group)))
    return tuple(out)


def distinct(values: Iterable[Any], twins: Twins) -> set[str]:
    """The values as a person tells them apart (copies of one card are one)."""
    return {card_key(v, twins) for v in values}
