"""What a move field's values are drawn from: the declarations a tap page is built from."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

JsonValue = Any  # companion.core's alias; core imports this module, so it cannot import core


class Pick(str, enum.Enum):
    """Where the values of a move field come from, as the table sees it."""

    HAND_CARD = "hand_card"
    """A card in the actor's own hand."""
    UNSEEN_CARD = "unseen_card"
    """A card the actor takes face down (a draw): picked from a deck grid only the actor sees. Which
    cards are still face down is never judged for a player: a player's page offers every card the
    player has not seen, so the offer cannot tell where another card is."""
    PUBLIC_CARD = "public_card"
    """A face-up card on the table (a pile's top, a Table Card, a room's puzzle)."""
    PYRAMID_SLOT = "pyramid_slot"
    """A position in The Mountain's pyramid (``"r-i"``)."""
    SLOT = "slot"
    """A numbered Table Card slot."""
    PILE = "pile"
    """A central pile (or ``"new"``)."""
    PLAYER = "player"
    """A player at the table."""
    ROOM = "room"
    """An Escape House room."""
    CUBE = "cube"
    """A cube colour."""
    COIN = "coin"
    """An Everest coin."""
    PLANNED_COIN = "planned_coin"
    """A coin laid in an Everest plan: which coin, face up or down, and its direction."""
    DIRECTION = "direction"
    """A compass direction."""
    NUMBER = "number"
    """A whole number in a range."""
    WORD = "word"
    """One of a fixed set of words (a die face, ``stock`` or ``health``, ...)."""


@dataclass(frozen=True)
class FieldSpec:
    """A move field's domain: one value of ``pick``, or a list of ``least``..``most`` of them."""

    pick: Pick
    many: bool = False
    least: int = 1
    most: int = 1
    ordered: bool = True
    """For a list: does the order of the values matter (removal order) or not (a set of cards)?"""
    optional: bool = False
    free: bool = False
    """Never judged value by value (a secret plan of three coins is too large to propose whole):
    every value is offered, and the engine judges the finished move."""
    per_player: bool = False
    """A mapping from each player to a list of ``least``..``most`` values (a deal, a count of hands):
    built a player at a time, that player's values one tap each."""

    @classmethod
    def one(cls, pick: Pick, optional: bool = False) -> "FieldSpec":
        return cls(pick, optional=optional)

    @classmethod
    def list_of(cls, pick: Pick, least: int, most: int, ordered: bool = True, optional: bool = False) -> "FieldSpec":
        return cls(pick, many=True, least=least, most=most, ordered=ordered, optional=optional)


    @classmethod
    def by_player(cls, pick: Pick, least: int, most: int, optional: bool = False) -> "FieldSpec":
        return cls(pick, many=True, least=least, most=most, ordered=False, optional=optional, per_player=True)


@dataclass(frozen=True)
class Choice:
    """One value a page offers for a field: what it is, how it reads, and the card to draw, if any."""

    value: JsonValue
    label: str
    card: str | None = None

    def to_json(self) -> dict[str, JsonValue]:
        out: dict[str, JsonValue] = {"value": self.value, "label": self.label}
        if self.card is not None:
            out["card"] = self.card
        return out
