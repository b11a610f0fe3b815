"""Escape House moves: one frozen dataclass per notation verb (NOTATION.md "Escape House").

Core verbs: move, draw, draw_discard, trade, stash, follow, play, resolve, penalty, clear.
Extensions (GAME.md): end_explore, reveal, discard, end_round; at a live table,
dealt and flip.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from companion.core import JsonObject, Move
from companion.core.picks import FieldSpec, Pick
from companion.core.errors import NotationError
from .picks import ROOM
from .state import SEEN_PER_DRAW
from companion.core.codec import MoveCodec

MAX_PLAYED = 8
"""At most one card is played per player, and at most eight play: a clear names no more cards."""


@dataclass(frozen=True, kw_only=True)
class MoveTo(Move):
    """Put your token in a room ("main" is the main room) at the start of explore or action."""

    verb: ClassVar[str] = "move"
    picks = {"room": FieldSpec.one(ROOM)}
    room: str


@dataclass(frozen=True, kw_only=True)
class Draw(Move):
    """Draw ``card`` from the deck of ``room`` (the top card, or any card of a cleared room)."""

    verb: ClassVar[str] = "draw"
    hidden_fields: ClassVar[tuple[str, ...]] = ("card",)  # face down: only its holder knows it
    picks = {"room": FieldSpec.one(ROOM), "card": FieldSpec.one(Pick.UNSEEN_CARD)}
    room: str
    card: str


@dataclass(frozen=True, kw_only=True)
class DrawDiscard(Move):
    """Look at three cards of the discard pile (all of them if fewer), keep one."""

    verb: ClassVar[str] = "draw_discard"
    hidden_fields: ClassVar[tuple[str, ...]] = ("seen", "keep")  # face down: only its holder knows it
    picks = {
        "seen": FieldSpec.list_of(Pick.UNSEEN_CARD, 1, SEEN_PER_DRAW, ordered=False),
        "keep": FieldSpec.one(Pick.UNSEEN_CARD),
    }
    seen: tuple[str, ...]
    keep: str

    def __post_init__(self) -> None:
        if not 1 <= len(self.seen) <= 3:
            raise ValueError("seen lists the one to three cards looked at")
        if len(set(self.seen)) != len(self.seen):
            raise ValueError("seen names a card twice")
        if self.keep not in self.seen:
            raise ValueError("keep must be one of the seen cards")


@dataclass(frozen=True, kw_only=True)
class Trade(Move):
    """Give ``card`` to ``to``, who is in the same room."""

    verb: ClassVar[str] = "trade"
    hidden_fields: ClassVar[tuple[str, ...]] = ("card",)  # face down: only its holder knows it
    picks = {"to": FieldSpec.one(Pick.PLAYER), "card": FieldSpec.one(Pick.HAND_CARD)}
    to: str
    card: str


@dataclass(frozen=True, kw_only=True)
class Stash(Move):
    """Over the hand limit: put ``card`` into the deck of ``room`` (your room), ``position`` cards from the top."""

    verb: ClassVar[str] = "stash"
    hidden_fields: ClassVar[tuple[str, ...]] = ("card",)  # face down: only its holder knows it
    picks = {
        "card": FieldSpec.one(Pick.HAND_CARD),
        "room": FieldSpec.one(ROOM),
        "position": FieldSpec.one(Pick.NUMBER),
    }
    card: str
    room: str
    position: int

    def __post_init__(self) -> None:
        if self.position < 0:
            raise ValueError("position counts cards from the top, from 0")


@dataclass(frozen=True, kw_only=True)
class Follow(Move):
    """Declare at the start of the action phase that you follow ``target`` into their room."""

    verb: ClassVar[str] = "follow"
    picks = {"target": FieldSpec.one(Pick.PLAYER)}
    target: str


@dataclass(frozen=True, kw_only=True)
class Play(Move):
    """Play ``card`` face down in your room with ``target``'s character token under it."""

    verb: ClassVar[str] = "play"
    hidden_fields: ClassVar[tuple[str, ...]] = ("card",)  # face down: only its holder knows it
    picks = {"card": FieldSpec.one(Pick.HAND_CARD), "target": FieldSpec.one(Pick.PLAYER)}
    card: str
    target: str


@dataclass(frozen=True, kw_only=True)
class Reveal(Move):
    """Extension: a face-down played card is turned up (tapped on the tap pad)."""

    verb: ClassVar[str] = "reveal"
    picks = {"card": FieldSpec.one(Pick.PUBLIC_CARD)}
    card: str


@dataclass(frozen=True, kw_only=True)
class Resolve(Move):
    """The resolve phase begins: every played card is revealed and sacrifices happen."""

    verb: ClassVar[str] = "resolve"


@dataclass(frozen=True, kw_only=True)
class Clear(Move):
    """``puzzle`` is cleared by the played ``cards`` (items, or the card that sacrificed someone).

    NOTATION.md spells the cards ``"by": [cards]``, which is also the envelope's player field; the
    game's codec (:class:`EscapeHouseCodec`) maps that list to ``cards``. A clear is the table's
    finding, so no player makes it and ``by`` (the player) stays None.
    """

    verb: ClassVar[str] = "clear"
    picks = {
        "puzzle": FieldSpec.one(Pick.PUBLIC_CARD),
        "cards": FieldSpec.list_of(Pick.PUBLIC_CARD, 1, MAX_PLAYED, ordered=False),
    }
    puzzle: str
    cards: tuple[str, ...]

    def __post_init__(self) -> None:
        if self.by is not None:
            raise ValueError('a clear is the table\'s finding: "by" lists the cards that clear the puzzle')


@dataclass(frozen=True, kw_only=True)
class EndRound(Move):
    """Extension: clears are all entered; played cards and sacrificed hands go to the discard pile."""

    verb: ClassVar[str] = "end_round"


@dataclass(frozen=True, kw_only=True)
class Penalty(Move):
    """The top penalty card, drawn and followed."""

    verb: ClassVar[str] = "penalty"
    picks = {"card": FieldSpec.one(Pick.UNSEEN_CARD)}
    card: str


@dataclass(frozen=True, kw_only=True)
class EndExplore(Move):
    """Extension: the explore phase ends (hand limits are checked) and the action phase begins."""

    verb: ClassVar[str] = "end_explore"


@dataclass(frozen=True, kw_only=True)
class Discard(Move):
    """Extension: a card an effect makes you discard goes to the discard pile in the center room."""

    verb: ClassVar[str] = "discard"
    hidden_fields: ClassVar[tuple[str, ...]] = ("card",)  # face down: only its holder knows it
    picks = {"card": FieldSpec.one(Pick.HAND_CARD)}
    card: str


@dataclass(frozen=True, kw_only=True)
class Dealt(Move):
    """Extension, a live table's deal: one of the four cards dealt to ``by`` (their Betray card and
    three of the draw deck), tapped on their hand pad or picked on their own page."""

    verb: ClassVar[str] = "dealt"
    hidden_fields: ClassVar[tuple[str, ...]] = ("card",)  # face down: only its holder knows it
    picks = {"card": FieldSpec.one(Pick.UNSEEN_CARD)}
    card: str


@dataclass(frozen=True, kw_only=True)
class Flip(Move):
    """Extension, a live table: the next main puzzle is turned face up, and this is the card."""

    verb: ClassVar[str] = "flip"
    picks = {"card": FieldSpec.one(Pick.PUBLIC_CARD)}
    card: str


class EscapeHouseCodec(MoveCodec):
    """The generic codec, except that ``clear`` carries its cards in ``by`` as NOTATION.md spells it."""

    def from_json(self, obj: Any) -> Move:
        if isinstance(obj, dict) and obj.get("do") == Clear.verb:
            if "cards" in obj:
                raise NotationError('clear: name the cards that clear the puzzle in "by", not "cards"')
            cards = obj.get("by")
            if not isinstance(cards, list):
                raise NotationError('clear: "by" must be the list of played cards that clear the puzzle')
            body = {k: v for k, v in obj.items() if k != "by"} | {"cards": cards}
            try:
                return super().from_json(body)
            except NotationError as exc:  # name the field as the line spells it
                raise NotationError(exc.message.replace('field "cards"', 'field "by"')) from exc
        return super().from_json(obj)

    def to_json(self, move: Move) -> JsonObject:
        out = super().to_json(move)
        if isinstance(move, Clear):
            out["by"] = out.pop("cards")
        return out


MOVE_TYPES: tuple[type[Move], ...] = (
    Dealt,
    Flip,
    MoveTo,
    Draw,
    DrawDiscard,
    Trade,
    Stash,
    EndExplore,
    Follow,
    Play,
    Reveal,
    Resolve,
    Clear,
    EndRound,
    Penalty,
    Discard,
)
