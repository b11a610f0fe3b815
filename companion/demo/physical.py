"""The physical table the runner plays on: which card lies where (face up or down), the cubes in each
zone and the pawns on each grid, changed only by a sensor plan's actions.

It is honest about the table: a card lies in one place at a time and stays where it was put until it
is taken, and only a card that lies on a zone can be taken off it. An action that breaks this is a
mistake in the plan (:class:`PlanError`), never a misread: the runner stops and names it.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from companion.contract.sensors import Action, Cubes, Enter, Pawns, Press, Put, Take, Tap
from companion.core import Zone
from companion.core.errors import CompanionError

log = logging.getLogger(__name__)


class PlanError(CompanionError):
    """A sensor plan asked the table for something no table can do (a card taken from where it is
    not, a card put down twice, a zone the layout does not have)."""


@dataclass(frozen=True)
class Lying:
    """A card lying on a zone, face up or face down."""

    card: str
    face_up: bool


class PhysicalTable:
    """What lies where on the reference table (its zones are the plan's layout)."""

    def __init__(self, zones: Iterable[Zone]) -> None:
        self.zones: dict[str, Zone] = {z.name: z for z in zones}
        self.cards: dict[str, list[Lying]] = {}
        """Per zone, the cards lying there, bottom first."""
        self.cubes: dict[str, tuple[str, ...]] = {}
        self.pawns: dict[str, dict[str, tuple[int, int]]] = {}
        self._where: dict[str, str] = {}

    def zone(self, name: str, action: Action) -> Zone:
        found = self.zones.get(name)
        if found is None:
            raise PlanError(f"{action}: the table has no zone {name!r} (the plan's layout: {', '.join(sorted(self.zones))})")
        return found

    def where(self, card: str) -> str | None:
        """The zone ``card`` lies on, or None (in a hand, in a pile no reader watches, in the box)."""
        return self._where.get(card)

    def on(self, zone: str) -> tuple[Lying, ...]:
        return tuple(self.cards.get(zone, ()))

    def apply(self, action: Action) -> None:
        """Change the table as ``action`` does (an entry or a button changes nothing on it)."""
        if isinstance(action, Put):
            self.put(action.zone, action.card, action.face_up, action)
        elif isinstance(action, Take):
            self.take(action.zone, action.card, action)
        elif isinstance(action, Tap):
            self.zone(action.zone, action)
            if action.card in self._where:
                raise PlanError(f"{action}: {action.card} lies on {self._where[action.card]}; a tapped card comes from a hand or a pile no reader watches")
        elif isinstance(action, Cubes):
            self.zone(action.zone, action)
            self.cubes[action.zone] = tuple(action.colours)
        elif isinstance(action, Pawns):
            self.zone(action.zone, action)
            self.pawns[action.zone] = dict(action.squares)
        elif isinstance(action, Press):
            self.zone(action.zone, action)
        elif not isinstance(action, Enter):  # pragma: no cover - Action is a closed union
            raise PlanError(f"{action!r} is not an action")

    def put(self, zone: str, card: str, face_up: bool, action: Action) -> None:
        self.zone(zone, action)
        there = self._where.get(card)
        if there is not None:
            raise PlanError(f"{action}: {card} already lies on {there}; take it off first")
        self.cards.setdefault(zone, []).append(Lying(card, face_up))
        self._where[card] = zone

    def take(self, zone: str, card: str, action: Action) -> None:
        self.zone(zone, action)
        lying = self.cards.get(zone, [])
        for i, item in enumerate(lying):
            if item.card == card:
                del lying[i]
                del self._where[card]
                return
        there = self._where.get(card)
        raise PlanError(f"{action}: {card} does not lie on {zone}" + (f" (it lies on {there})" if there else " (it lies on no zone)"))

    def snapshot(self) -> Mapping[str, tuple[Lying, ...]]:
        return {zone: tuple(cards) for zone, cards in self.cards.items() if cards}
