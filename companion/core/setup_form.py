"""Setting a game up by tapping: what the table tells the companion before the first move.

A live table never types a face-down card. A game declares the few things its setup needs that
are face up or chosen at the table (who deals, the Table Cards, the pyramid) as a
:class:`SetupForm`; the referee's console taps them in from the real things (players, a deck grid,
cube colours). Cards dealt face down are not part of the setup: each player taps their own in,
in the game, with the game's ``dealt`` verb, on their own page (or a reader's hand pad does).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.core.picks import Choice, FieldSpec

JsonValue = Any


@dataclass(frozen=True)
class SetupField:
    """One thing the setup needs: its key in the header's setup, what it is drawn from, and how it reads."""

    name: str
    spec: FieldSpec
    title: str
    default: JsonValue = None
    """What the field is when nobody taps it (a rulebook default), or None if it must be tapped."""
    rotates: bool = False
    """A player who moves one seat on when the same table plays again (the dealer, the Evil Master)."""


@dataclass(frozen=True)
class SetupForm:
    """A game's setup as taps: the fields in the order the table does them, and their values."""

    fields: tuple[SetupField, ...]
    choices: Any = field(compare=False)
    """``choices(players, options, setup_so_far, field_name, every) -> Sequence[Choice]``."""
    build: Any = field(compare=False)
    """``build(players, options, values) -> setup``: the header's setup from the tapped values."""



def _nothing(players: Sequence[str], options: Mapping[str, Any], values: Mapping[str, Any], name: str, every: bool) -> Sequence[Choice]:
    return []


def _empty(players: Sequence[str], options: Mapping[str, Any], values: Mapping[str, Any]) -> dict[str, Any]:
    return {}


NO_SETUP = SetupForm((), _nothing, _empty)
"""A game that needs nothing but its players and options (Everest, with the rulebook's homes)."""
