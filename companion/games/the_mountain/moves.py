"""The Mountain's moves, one frozen dataclass per verb (NOTATION.md "The Mountain").

``discard {cards}``, ``draw {card, from}``, ``act {cards, targets, choose?, from_hand?}``,
``skip {target}``, ``end_turn {}``. Names are checked here (a bad card or position name is a
notation error); everything else is a rule, judged by the engine.

``from`` is a Python keyword, so the draw's field is ``from_`` in Python and ``"from"`` in the
notation; :class:`MountainCodec` renames it on the way in and out.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from companion.core import JsonObject, Move
from companion.core.picks import FieldSpec, Pick
from companion.core.errors import NotationError
from .cards import RANKS, SLOTS, SUITS, check_card, check_position
from .picks import PILE, PYRAMID_SLOT
from companion.core.codec import MoveCodec

logger = logging.getLogger(__name__)

HAND_MOST = 5
"""The most cards a hand holds (Nightmare mode holds 4): a list drawn from the hand is never longer."""


def _check_cards(cards: tuple[str, ...], field_name: str) -> None:
    for card in cards:
        check_card(card)
    if len(set(cards)) != len(cards):
        raise ValueError(f"{field_name} names a card twice")


def parse_choice(choice: str) -> tuple[str, str]:
    """``"rank:7"`` -> ("rank", "7"); ``"suit:H"`` -> ("suit", "H"); ValueError otherwise."""
    kind, _, value = choice.partition(":")
    if (kind == "rank" and value in RANKS) or (kind == "suit" and value in SUITS):
        return kind, value
    raise ValueError(f'choose "{choice}" must be "rank:R" (R = A 2..10 J Q K) or "suit:S" (S = S H D C)')


@dataclass(frozen=True, kw_only=True)
class Discard(Move):
    """Start of the turn: put cards you do not want from your hand on the discard pile."""

    verb: ClassVar[str] = "discard"
    picks = {"cards": FieldSpec.list_of(Pick.HAND_CARD, 1, HAND_MOST, ordered=False)}
    cards: tuple[str, ...]

    def __post_init__(self) -> None:
        if not self.cards:
            raise ValueError("cards must name at least one card")
        _check_cards(self.cards, "cards")


@dataclass(frozen=True, kw_only=True)
class Draw(Move):
    """Take one card into the hand: the card tapped from the stock, or the health pile's top."""

    verb: ClassVar[str] = "draw"
    picks = {"card": FieldSpec.one(Pick.UNSEEN_CARD), "from_": FieldSpec.one(PILE)}
    """The card is tapped on a grid of the cards the player has not seen (the stock, as the player can
    only know it), plus the health pile's drawable top; ``from`` is the pile: stock or health."""
    card: str
    from_: Literal["stock", "health"]

    def __post_init__(self) -> None:
        check_card(self.card)


@dataclass(frozen=True, kw_only=True)
class Act(Move):
    """Spend a set of 2 or 3 cards of one suit on that suit's action.

    ``targets``: positions in removal order (Clubs, Diamonds, Hearts; optional for Spades).
    ``choose``: Spades only, ``"rank:7"`` or ``"suit:H"``; a list of two for a triple (it acts twice).
    ``from_hand``: Hearts only, the action cards that heal when the mountain has too few options.
    """

    verb: ClassVar[str] = "act"
    picks = {
        # Up to a whole hand, so that a set of the wrong size can still be entered on purpose (TM-SET).
        "cards": FieldSpec.list_of(Pick.HAND_CARD, 1, HAND_MOST, ordered=False),
        "targets": FieldSpec.list_of(PYRAMID_SLOT, 0, SLOTS),
        # One word ("rank:7"), or for a triple a pair of them, offered as one value (entry.choose_value).
        "choose": FieldSpec.one(Pick.WORD, optional=True, ask="Name a rank or a suit for the Spades"),
        "from_hand": FieldSpec.list_of(Pick.HAND_CARD, 1, 3, optional=True),
    }
    cards: tuple[str, ...]
    targets: tuple[str, ...] = ()
    choose: str | tuple[str, ...] | None = None
    from_hand: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        _check_cards(self.cards, "cards")
        for target in self.targets:
            check_position(target)
        for choice in self.choices:
            parse_choice(choice)
        if self.from_hand is not None:
            _check_cards(self.from_hand, "from_hand")

    @property
    def choices(self) -> tuple[str, ...]:
        if self.choose is None:
            return ()
        return (self.choose,) if isinstance(self.choose, str) else self.choose


@dataclass(frozen=True, kw_only=True)
class ActCard(Move):
    """One card of a set's action as the table sees it (issue 21): a card of the set, or a mountain
    card the action removes, tapped on the discard reader. The act is held pending until its last
    card, whose tap is the ``act`` itself; a card no legal act could go on with is refused at once.

    Made by the readers, never needed in a file: a whole ``act`` says the same."""

    verb: ClassVar[str] = "act_card"
    # The set's cards come first (a mountain card may follow; ``every`` offers the whole deck).
    picks = {"card": FieldSpec.one(Pick.HAND_CARD)}
    card: str

    def __post_init__(self) -> None:
        check_card(self.card)


@dataclass(frozen=True, kw_only=True)
class TakeBack(Move):
    """The act begun at the table is taken back (issue 21): a card of its set tapped on the hand pad
    again. Its cards go back to the hand and the mountain, and nothing is pending."""

    verb: ClassVar[str] = "take_back"


@dataclass(frozen=True, kw_only=True)
class Skip(Move):
    """No set played this turn: remove any single exposed card (Single Removal)."""

    verb: ClassVar[str] = "skip"
    picks = {"target": FieldSpec.one(PYRAMID_SLOT)}
    target: str

    def __post_init__(self) -> None:
        check_position(self.target)


@dataclass(frozen=True, kw_only=True)
class EndTurn(Move):
    """The threats attack; the engine discards one health per exposed or half-exposed threat."""

    verb: ClassVar[str] = "end_turn"


MOVE_TYPES: tuple[type[Move], ...] = (Discard, Draw, Act, ActCard, TakeBack, Skip, EndTurn)


class MountainCodec(MoveCodec):
    """The generic codec, with the draw's ``from`` field spelled as the notation spells it."""

    def from_json(self, obj: Any) -> Move:
        if isinstance(obj, dict) and obj.get("do") == Draw.verb:
            if "from_" in obj:
                raise NotationError('draw has an unknown field "from_"')
            obj = {("from_" if key == "from" else key): value for key, value in obj.items()}
            try:
                return super().from_json(obj)
            except NotationError as exc:
                raise NotationError(exc.message.replace('"from_"', '"from"'), exc.line) from exc
        return super().from_json(obj)

    def to_json(self, move: Move) -> JsonObject:
        out = super().to_json(move)
        if isinstance(move, Draw):
            return {("from" if key == "from_" else key): value for key, value in out.items()}
        return out
