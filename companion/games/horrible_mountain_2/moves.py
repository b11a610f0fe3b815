"""The moves of Horrible Mountain 2, one frozen dataclass per notation verb (NOTATION.md).

Card names, colours and slot numbers are checked when a move is read (a malformed one is a
notation error naming the field); whether the move is legal is for ``check``.
Extensions to NOTATION.md (documented in GAME.md): ``take_discard``'s
optional ``card`` and ``search_discard``'s optional ``order``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from companion.core import Move
from companion.core.picks import FieldSpec, Pick
from .cards import SLOTS, Colour, card_problem
from .picks import CUBE, SLOT


def _cards_ok(*cards: str) -> None:
    for card in cards:
        problem = card_problem(card)
        if problem:
            raise ValueError(problem)


def _slots_ok(*slots: int) -> None:
    for slot in slots:
        if slot not in SLOTS:
            raise ValueError(f"slot {slot} does not exist; the Table Card slots are 1 to 5")


@dataclass(frozen=True, kw_only=True)
class Place(Move):
    """Setup steps 5-6: put one cube of each of the player's colours on two slots (``cubes`` order)."""

    verb: ClassVar[str] = "place"
    picks = {"slots": FieldSpec.list_of(SLOT, 2, 2)}
    slots: tuple[int, int]

    def __post_init__(self) -> None:
        _slots_ok(*self.slots)


@dataclass(frozen=True, kw_only=True)
class Draw(Move):
    """Draw a Card: the card taken from the face-down Draw Pile (the one tapped on the hand pad)."""

    verb: ClassVar[str] = "draw"
    hidden_fields: ClassVar[tuple[str, ...]] = ("card",)
    picks = {"card": FieldSpec.one(Pick.UNSEEN_CARD)}
    card: str

    def __post_init__(self) -> None:
        _cards_ok(self.card)


@dataclass(frozen=True, kw_only=True)
class Swap(Move):
    """Swap a Card: a card from hand for the Table Card of matching rank on ``slot``."""

    verb: ClassVar[str] = "swap"
    picks = {"card": FieldSpec.one(Pick.HAND_CARD), "slot": FieldSpec.one(SLOT)}
    card: str
    slot: int

    def __post_init__(self) -> None:
        _cards_ok(self.card)
        _slots_ok(self.slot)


@dataclass(frozen=True, kw_only=True)
class TakeTable(Move):
    """Take a Table Card: pay the ``cube`` Control Cube, take the card under its twin, refill the slot."""

    verb: ClassVar[str] = "take_table"
    picks = {"cube": FieldSpec.one(CUBE), "replacement": FieldSpec.one(Pick.UNSEEN_CARD)}
    cube: Colour
    replacement: str
    """The card drawn from the Draw Pile to refill the slot."""

    def __post_init__(self) -> None:
        _cards_ok(self.replacement)


@dataclass(frozen=True, kw_only=True)
class TakeDiscard(Move):
    """Take a Discard: pay the ``cube`` Control Cube, take the top card of the Discard Pile."""

    verb: ClassVar[str] = "take_discard"
    picks = {"cube": FieldSpec.one(CUBE), "card": FieldSpec.one(Pick.PUBLIC_CARD, optional=True)}
    cube: Colour
    card: str | None = None
    """Extension: the card taken. Optional; needed only when the engine does not know the top card
    (after a ``search_discard`` whose new order was not recorded)."""

    def __post_init__(self) -> None:
        if self.card is not None:
            _cards_ok(self.card)


@dataclass(frozen=True, kw_only=True)
class SwapCubes(Move):
    """Swap Cubes: discard two cards to swap the cubes on two Table Cards of the same ranks."""

    verb: ClassVar[str] = "swap_cubes"
    picks = {"cards": FieldSpec.list_of(Pick.HAND_CARD, 2, 2), "slots": FieldSpec.list_of(SLOT, 2, 2, ordered=False)}
    cards: tuple[str, str]
    """Discarded in this order: ``cards[1]`` ends on top of the Discard Pile."""
    slots: tuple[int, int]

    def __post_init__(self) -> None:
        _cards_ok(*self.cards)
        _slots_ok(*self.slots)


@dataclass(frozen=True, kw_only=True)
class ClaimCube(Move):
    """Claim a Cube: discard two cards of one rank to take ``cube`` from the Cube Pile."""

    verb: ClassVar[str] = "claim_cube"
    picks = {"cards": FieldSpec.list_of(Pick.HAND_CARD, 2, 2), "cube": FieldSpec.one(CUBE)}
    cards: tuple[str, str]
    """Discarded in this order: ``cards[1]`` ends on top of the Discard Pile."""
    cube: Colour

    def __post_init__(self) -> None:
        _cards_ok(*self.cards)


@dataclass(frozen=True, kw_only=True)
class Discard(Move):
    """Discard down to five, right after taking a sixth card into hand."""

    verb: ClassVar[str] = "discard"
    picks = {"card": FieldSpec.one(Pick.HAND_CARD)}
    card: str

    def __post_init__(self) -> None:
        _cards_ok(self.card)


@dataclass(frozen=True, kw_only=True)
class Examine(Move):
    """Optional Variant, Evil Master, once per game: examine the adventurer's hand."""

    verb: ClassVar[str] = "examine"


@dataclass(frozen=True, kw_only=True)
class SearchDiscard(Move):
    """Optional Variant, adventurer, once per game: take any card from the Discard Pile."""

    verb: ClassVar[str] = "search_discard"
    hidden_fields: ClassVar[tuple[str, ...]] = ("card", "order")
    picks = {
        "card": FieldSpec.one(Pick.PUBLIC_CARD),
        "order": FieldSpec.list_of(Pick.PUBLIC_CARD, 0, 30, optional=True),
    }
    card: str
    order: tuple[str, ...] | None = None
    """Extension: the rest of the Discard Pile as the adventurer reordered it, top card first.
    Left out, the engine no longer knows the order (a later take_discard then names its card)."""

    def __post_init__(self) -> None:
        _cards_ok(self.card)
        if self.order is not None:
            _cards_ok(*self.order)


@dataclass(frozen=True, kw_only=True)
class Dealt(Move):
    """Extension, a live table's deal: one of the three cards dealt to ``by``, tapped on their hand pad
    or picked on their own page. The cubes are placed once both hands are in."""

    verb: ClassVar[str] = "dealt"
    hidden_fields: ClassVar[tuple[str, ...]] = ("card",)
    picks = {"card": FieldSpec.one(Pick.UNSEEN_CARD)}
    card: str

    def __post_init__(self) -> None:
        _cards_ok(self.card)


@dataclass(frozen=True, kw_only=True)
class Half(Move):
    """Extension, a table's two-card action under way: one of the two cards of Swap Cubes or Claim a
    Cube put face up on the Discard Pile. ``swap_cubes`` / ``claim_cube`` naming it first finishes it."""

    verb: ClassVar[str] = "half"
    picks = {"card": FieldSpec.one(Pick.HAND_CARD)}
    card: str

    def __post_init__(self) -> None:
        _cards_ok(self.card)


@dataclass(frozen=True, kw_only=True)
class Withdraw(Move):
    """Extension: a card put down by ``half`` taken back off the Discard Pile into the hand."""

    verb: ClassVar[str] = "withdraw"
    picks = {"card": FieldSpec.one(Pick.PUBLIC_CARD)}
    card: str

    def __post_init__(self) -> None:
        _cards_ok(self.card)


@dataclass(frozen=True, kw_only=True)
class Lift(Move):
    """Extension, a table's Take a Discard under way: the top card of the Discard Pile tapped on the
    hand pad of the player to act, who holds several Control Cubes. ``take_discard`` (the cube the
    camera sees paid) finishes it; ``withdraw`` puts the card back."""

    verb: ClassVar[str] = "lift"
    picks = {"card": FieldSpec.one(Pick.PUBLIC_CARD)}
    card: str

    def __post_init__(self) -> None:
        _cards_ok(self.card)


MOVE_TYPES: tuple[type[Move], ...] = (
    Dealt,
    Place,
    Draw,
    Swap,
    TakeTable,
    TakeDiscard,
    SwapCubes,
    ClaimCube,
    Discard,
    Examine,
    SearchDiscard,
    Half,
    Withdraw,
    Lift,
)
