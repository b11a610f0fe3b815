"""Escape Master's moves: one frozen dataclass per notation verb (NOTATION.md "Escape Master").

A malformed card name is a notation error (ValueError here); a well-formed card that cannot be where
the move says is an illegal move (``check``). Verbs beyond NOTATION.md are extensions for the
readers and the leader/Story bookkeeping; GAME.md documents each one.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import ClassVar, Literal

from companion.core import Move
from companion.core.picks import FieldSpec, Pick
from .cards import SUITS, card_problem
from .picks import PILE

logger = logging.getLogger(__name__)


def _cards_ok(*cards: str) -> None:
    for card in cards:
        problem = card_problem(card)
        if problem:
            raise ValueError(problem)


def _distinct(cards: tuple[str, ...], what: str) -> None:
    if len(set(cards)) != len(cards):
        raise ValueError(f"{what} names a card twice")


def _hands_ok(hands: dict[str, tuple[str, ...]]) -> None:
    for cards in hands.values():
        _cards_ok(*cards)


MANY_CARDS = 30
"""The most cards a list field names (more than any hand holds)."""
MANY_PLAYERS = 7
"""The most other players a list of players names."""

# -- the core verbs (NOTATION.md) -------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class Deal(Move):
    """A new round: the cards dealt face down to each player (the rest is the draw pile)."""

    verb: ClassVar[str] = "deal"
    hidden_fields: ClassVar[tuple[str, ...]] = ("hands",)
    picks = {"hands": FieldSpec.by_player(Pick.UNSEEN_CARD, 0, 20)}
    hands: dict[str, tuple[str, ...]]

    def __post_init__(self) -> None:
        _hands_ok(self.hands)


@dataclass(frozen=True, kw_only=True)
class Start(Move):
    """The dealer's "Start!": from now everyone plays at once."""

    verb: ClassVar[str] = "start"


@dataclass(frozen=True, kw_only=True)
class Play(Move):
    """A card (or a two-card combination, the top card last) onto pile N, or starting a new pile."""

    verb: ClassVar[str] = "play"
    picks = {
        "card": FieldSpec.one(Pick.HAND_CARD, optional=True),
        "cards": FieldSpec.list_of(Pick.HAND_CARD, 2, 2, optional=True),
        "pile": FieldSpec.one(PILE),
    }
    card: str | None = None
    cards: tuple[str, str] | None = None
    pile: int | Literal["new"]

    def __post_init__(self) -> None:
        if (self.card is None) == (self.cards is None):
            raise ValueError('a play names either "card" or "cards" (a combination of two), not both or neither')
        if self.cards is not None:
            _cards_ok(*self.cards)
            _distinct(self.cards, "a combination")
        if self.card is not None:
            _cards_ok(self.card)
        if isinstance(self.pile, int) and self.pile < 1:
            raise ValueError(f'pile {self.pile} does not exist; piles are numbered from 1 (or "new")')

    @property
    def played(self) -> tuple[str, ...]:
        """The cards this play puts down, in order (the last one is the new top)."""
        if self.cards is not None:
            return self.cards
        assert self.card is not None
        return (self.card,)


@dataclass(frozen=True, kw_only=True)
class Draw(Move):
    """A card taken from the face-down draw pile (the one tapped on the hand pad)."""

    verb: ClassVar[str] = "draw"
    hidden_fields: ClassVar[tuple[str, ...]] = ("card",)
    picks = {"card": FieldSpec.one(Pick.UNSEEN_CARD)}
    card: str

    def __post_init__(self) -> None:
        _cards_ok(self.card)


@dataclass(frozen=True, kw_only=True)
class CallDraw(Move):
    """The "Draw!" call: nobody can play, so everyone draws one card, the caller last."""

    verb: ClassVar[str] = "call_draw"


@dataclass(frozen=True, kw_only=True)
class Trap(Move):
    """A trap card played onto an opponent's action pile."""

    verb: ClassVar[str] = "trap"
    picks = {"card": FieldSpec.one(Pick.HAND_CARD), "target": FieldSpec.one(Pick.PLAYER)}
    card: str
    target: str

    def __post_init__(self) -> None:
        _cards_ok(self.card)


@dataclass(frozen=True, kw_only=True)
class Escape(Move):
    """An Escape, on a trap (``trap``, or the player's one active trap) and, for a discard Escape, a card discarded."""

    verb: ClassVar[str] = "escape"
    hidden_fields: ClassVar[tuple[str, ...]] = ("discard",)
    picks = {
        "card": FieldSpec.one(Pick.HAND_CARD),
        "trap": FieldSpec.one(Pick.PUBLIC_CARD, optional=True),
        "discard": FieldSpec.one(Pick.HAND_CARD, optional=True),
    }
    card: str
    trap: str | None = None
    discard: str | None = None

    def __post_init__(self) -> None:
        _cards_ok(self.card, *(c for c in (self.trap, self.discard) if c is not None))
        if self.discard == self.card:
            raise ValueError("an Escape cannot discard itself")


@dataclass(frozen=True, kw_only=True)
class DiscardSpecial(Move):
    """Special cards put from hand straight onto the player's history pile."""

    verb: ClassVar[str] = "discard_special"
    hidden_fields: ClassVar[tuple[str, ...]] = ("cards",)
    picks = {"cards": FieldSpec.list_of(Pick.HAND_CARD, 1, MANY_CARDS, ordered=False)}
    cards: tuple[str, ...]

    def __post_init__(self) -> None:
        if not self.cards:
            raise ValueError("discard_special names at least one card")
        _cards_ok(*self.cards)
        _distinct(self.cards, "discard_special")


@dataclass(frozen=True, kw_only=True)
class Out(Move):
    """The "Escape Master!" call (the second of a team: "Escape Alliance!").

    ``discard`` (extension): the last card(s), discarded through the leader ability that allows it.
    """

    verb: ClassVar[str] = "out"
    picks = {"discard": FieldSpec.list_of(Pick.HAND_CARD, 1, MANY_CARDS, ordered=False, optional=True)}
    discard: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        if self.discard is not None:
            _cards_ok(*self.discard)
            _distinct(self.discard, "out")


@dataclass(frozen=True, kw_only=True)
class EndRound(Move):
    """The count: every card left in a hand is a fault. ``hands`` is the count, if the table took one."""

    verb: ClassVar[str] = "end_round"
    picks = {"hands": FieldSpec.by_player(Pick.HAND_CARD, 0, 40, optional=True)}
    hands: dict[str, tuple[str, ...]] | None = None

    def __post_init__(self) -> None:
        if self.hands is not None:
            _hands_ok(self.hands)


# -- extensions (GAME.md) -------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class Dealt(Move):
    """One card dealt to ``by``, tapped on their hand pad while a round is being dealt."""

    verb: ClassVar[str] = "dealt"
    hidden_fields: ClassVar[tuple[str, ...]] = ("card",)
    picks = {"card": FieldSpec.one(Pick.UNSEEN_CARD)}
    card: str

    def __post_init__(self) -> None:
        _cards_ok(self.card)


@dataclass(frozen=True, kw_only=True)
class Half(Move):
    """The first card of a combination, put on pile N; ``play {cards: [it, second]}`` completes it."""

    verb: ClassVar[str] = "half"
    picks = {"card": FieldSpec.one(Pick.HAND_CARD), "pile": FieldSpec.one(PILE)}
    card: str
    pile: int

    def __post_init__(self) -> None:
        _cards_ok(self.card)
        if self.pile < 1:
            raise ValueError(f"pile {self.pile} does not exist; piles are numbered from 1")


@dataclass(frozen=True, kw_only=True)
class Withdraw(Move):
    """A half combination taken back off its pile into the hand."""

    verb: ClassVar[str] = "withdraw"
    picks = {"card": FieldSpec.one(Pick.PUBLIC_CARD)}
    card: str

    def __post_init__(self) -> None:
        _cards_ok(self.card)


@dataclass(frozen=True, kw_only=True)
class Discard(Move):
    """A card put face down on the history pile with a discard the player holds (discard Escape, Story 11)."""

    verb: ClassVar[str] = "discard"
    hidden_fields: ClassVar[tuple[str, ...]] = ("card",)
    picks = {"card": FieldSpec.one(Pick.HAND_CARD)}
    card: str

    def __post_init__(self) -> None:
        _cards_ok(self.card)


@dataclass(frozen=True, kw_only=True)
class GiveFault(Move):
    """The Lumberjack leader's fault(s) for ``target`` at the start of a round."""

    verb: ClassVar[str] = "give_fault"
    picks = {"target": FieldSpec.one(Pick.PLAYER)}
    target: str


@dataclass(frozen=True, kw_only=True)
class Beast(Move):
    """Unlocking Beast Mode for the coming round (``target``: the other player a Beast ability names)."""

    verb: ClassVar[str] = "beast"
    picks = {"target": FieldSpec.one(Pick.PLAYER, optional=True)}
    target: str | None = None


@dataclass(frozen=True, kw_only=True)
class Story(Move):
    """The Story card the eligible player drew, with the players it names (``targets``) if any."""

    verb: ClassVar[str] = "story"
    picks = {"card": FieldSpec.one(Pick.NUMBER), "targets": FieldSpec.list_of(Pick.PLAYER, 1, MANY_PLAYERS, ordered=False, optional=True)}
    card: int
    targets: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        if self.card < 1:
            raise ValueError(f"Story cards are numbered from 1, not {self.card}")


@dataclass(frozen=True, kw_only=True)
class Leader(Move):
    """A new Escape Leader for ``by`` (a Story card allows it); ``swap_with`` swaps leaders with that player."""

    verb: ClassVar[str] = "leader"
    picks = {"tribe": FieldSpec.one(Pick.WORD, optional=True), "swap_with": FieldSpec.one(Pick.PLAYER, optional=True)}
    tribe: str | None = None
    swap_with: str | None = None

    def __post_init__(self) -> None:
        if (self.tribe is None) == (self.swap_with is None):
            raise ValueError('a leader change names either "tribe" (a new card) or "swap_with" (a player)')
        if self.tribe is not None and self.tribe not in SUITS:
            raise ValueError(f'"{self.tribe}" is not a tribe ({", ".join(SUITS)})')


@dataclass(frozen=True, kw_only=True)
class SwapDraw(Move):
    """Story card 3: ``give`` cards from hand onto the draw pile for the ``take`` cards from its top."""

    verb: ClassVar[str] = "swap_draw"
    hidden_fields: ClassVar[tuple[str, ...]] = ("give", "take")
    picks = {
        "give": FieldSpec.list_of(Pick.HAND_CARD, 0, MANY_CARDS, ordered=False),
        "take": FieldSpec.list_of(Pick.UNSEEN_CARD, 0, MANY_CARDS, ordered=False),
    }
    give: tuple[str, ...]
    take: tuple[str, ...]

    def __post_init__(self) -> None:
        _cards_ok(*self.give, *self.take)
        _distinct(self.give + self.take, "swap_draw")
        if len(self.give) != len(self.take):
            raise ValueError("swap_draw gives as many cards as it takes")


@dataclass(frozen=True, kw_only=True)
class PassCard(Move):
    """Story card 5: cards from ``by``'s hand given to player ``to``."""

    verb: ClassVar[str] = "pass_card"
    hidden_fields: ClassVar[tuple[str, ...]] = ("cards",)
    picks = {"cards": FieldSpec.list_of(Pick.HAND_CARD, 1, MANY_CARDS, ordered=False), "to": FieldSpec.one(Pick.PLAYER)}
    cards: tuple[str, ...]
    to: str

    def __post_init__(self) -> None:
        if not self.cards:
            raise ValueError("pass_card names at least one card")
        _cards_ok(*self.cards)
        _distinct(self.cards, "pass_card")


@dataclass(frozen=True, kw_only=True)
class Defuse(Move):
    """Beast Mode of the leader without benefit: a ninja pose defuses one of the player's traps."""

    verb: ClassVar[str] = "defuse"
    picks = {"trap": FieldSpec.one(Pick.PUBLIC_CARD)}
    trap: str

    def __post_init__(self) -> None:
        _cards_ok(self.trap)


MOVE_TYPES: tuple[type[Move], ...] = (
    Deal, Start, Play, Draw, CallDraw, Trap, Escape, DiscardSpecial, Out, EndRound,
    Dealt, Half, Withdraw, Discard, GiveFault, Beast, Story, Leader, SwapDraw, PassCard, Defuse,
)
