"""What a move field's values are drawn from: the declarations a tap page is built from."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

JsonValue = Any  # companion.core's alias; core imports this module, so it cannot import core


@dataclass(frozen=True)
class Pick:
    """Where the values of a move field come from, as the table sees it: a declaration, open to every game.

    Core declares the kinds any game may use (``Pick.HAND_CARD`` ... ``Pick.WORD``, all in
    :data:`GENERIC`); a game declares its own (a pyramid slot, a room, a coin) in its own package.
    What the builder does with a field keys on the properties declared here, never on which pick
    it is. A game's ``choices`` answers for the picks it uses.
    """

    value: str
    """The pick's name in an offer's JSON, which the pages key on (``"hand_card"``, ``"pyramid_slot"``)."""
    doc: str = field(default="", compare=False)
    never_judged_for_players: bool = False
    """The values are not judged for a player's page: every value is offered as possible, so that
    which ones are legal cannot tell the player what they must not know (a card taken face down)."""
    once_in_a_list: bool = False
    """A list of these holds each value at most once (the cards of one hand, the players named)."""
    of_players: bool = False
    """The values are the players at the table: offered as such when the game lists none itself."""
    own_to_each_player: bool = False
    """Each player has their own values of this kind (a yeti's coins), not one set shared out (a deal's
    cards): in a mapping of players to values, what one player's part names is still the next's to name."""
    parts: tuple[Part, ...] = field(default=(), compare=False)
    """For a value that is a record (a planned coin: which coin, which side up, which way): its parts in
    the order a page asks them, one tap each. Empty: a value is one tap."""

    HAND_CARD: ClassVar[Pick]
    UNSEEN_CARD: ClassVar[Pick]
    PUBLIC_CARD: ClassVar[Pick]
    PLAYER: ClassVar[Pick]
    NUMBER: ClassVar[Pick]
    WORD: ClassVar[Pick]


Pick.HAND_CARD = Pick("hand_card", "A card in the actor's own hand.", once_in_a_list=True)
Pick.UNSEEN_CARD = Pick(
    "unseen_card",
    "A card the actor takes face down (a draw): picked from a deck grid only the actor sees. Which "
    "cards are still face down is never judged for a player: a player's page offers every card the "
    "player has not seen, so the offer cannot tell where another card is.",
    never_judged_for_players=True,
)
Pick.PUBLIC_CARD = Pick("public_card", "A face-up card on the table (a pile's top, a Table Card, a room's puzzle).")
Pick.PLAYER = Pick("player", "A player at the table.", once_in_a_list=True, of_players=True)
Pick.NUMBER = Pick("number", "A whole number in a range.")
Pick.WORD = Pick("word", "One of a fixed set of words (a die face, ``stock`` or ``health``, ...).")

GENERIC: tuple[Pick, ...] = (Pick.HAND_CARD, Pick.UNSEEN_CARD, Pick.PUBLIC_CARD, Pick.PLAYER, Pick.NUMBER, Pick.WORD)
"""The picks core declares, for any game."""


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
    ask: str = field(default="", compare=False)
    """What the page asks for this field, in words ("Name a rank or a suit"); empty: "Pick <field>"."""
    full_at_most: bool = False
    """``most`` bounds what the notation can write (a plan of four coins is no plan at all), so the
    list is complete once it holds ``most`` values. Otherwise ``most`` is what the rules allow: a list
    is complete only when the person says so, and may be entered longer on purpose."""

    @classmethod
    def one(cls, pick: Pick, optional: bool = False, ask: str = "") -> "FieldSpec":
        return cls(pick, optional=optional, ask=ask)

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


@dataclass(frozen=True)
class Part:
    """One part of a record a field's values are made of (a planned coin's coin, its face, its direction).

    A page takes such a value a part at a time: it asks :attr:`ask`, shows the part's values that some
    offered value has, in words, and the last part's tap is the whole value's tap."""

    key: str
    """The record's key this part fills (``"dir"``)."""
    ask: str
    """What the page asks, in words ("Which way does it point?")."""
    values: tuple[Choice, ...]
    """Every value of the part, in the order a page shows them, each labelled in words."""
    hint: str = ""
    """How a page may draw the part: ``"compass"`` lays the values out as they point on the board
    (:attr:`places`); empty: a row of buttons."""
    places: tuple[tuple[int, int], ...] = ()
    """With a hint that places values: where each of :attr:`values` points on the board as the players
    see it drawn, (right, up) in squares."""

    def to_json(self) -> dict[str, JsonValue]:
        out: dict[str, JsonValue] = {"key": self.key, "ask": self.ask, "values": [v.to_json() for v in self.values]}
        if self.hint:
            out["hint"] = self.hint
        if self.places:
            out["places"] = [list(p) for p in self.places]
        return out
