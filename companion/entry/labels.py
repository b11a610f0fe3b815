"""A move in a few words, as its one-tap button reads ("play 7 START · pile 2"): each value by the
label its button has on the page, a value no button labels in words, never data (issue 22)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from companion.contract.game import Game
from companion.core import Move
from companion.core.picks import Choice, FieldSpec
from companion.entry.forms import field_specs

Domain = Callable[[str | None, FieldSpec, type[Move], str, bool], list[Choice]]
"""A field's values as the builder offers them (:meth:`companion.entry.builder.Builder.choices`)."""


def describe(game: Game[Any], move: Mapping[str, Any], choices: Domain) -> str:
    """``move`` (a form) in a few words, with the labels its values have on the page."""
    move_type = game.codec.by_verb[str(move["do"])]
    parts = [str(move["do"]).replace("_", " ")]
    for name, spec in field_specs(move_type):
        value = move.get(name)
        if value is None:
            continue
        labels = {repr(c.value): c.label for c in choices(move.get("by"), spec, move_type, name, True)}
        if spec.per_player and isinstance(value, dict):  # "anna: none; ben: robot-2 teen-4"
            parts.append("; ".join(
                f"{who}: {' '.join(labels.get(repr(v), words(v)) for v in held) or 'none'}"
                for who, held in value.items() if isinstance(held, list)
            ))
        elif isinstance(value, list):  # an empty list reads "none", never an empty tail ("set aside · ")
            parts.append(" ".join(labels.get(repr(v), words(v)) for v in value) or "none")
        else:
            parts.append(labels.get(repr(value), words(value)))
    return " · ".join(parts)


def words(value: Any) -> str:
    """A value no choice labels, in words rather than data: a record's values, a list's items."""
    if isinstance(value, dict):
        return " ".join(words(v) for v in value.values())
    if isinstance(value, list):
        return " ".join(words(v) for v in value)
    return str(value)
