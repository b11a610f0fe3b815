"""The nouns of an Escape House card set: cards, their kinds, clear conditions and effects.

Only one card text of the real game survives (GAPS.md), so the cards are data: a card set is a JSON
file (see ``cardset.py`` for the loader and GAME.md for the format) whose cards use
the small vocabulary defined here. The engine only ever reads these frozen values.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache


class Kind(str, enum.Enum):
    """A card's kind, after its background colour and colour scheme in the rulebook."""

    MAIN = "main"  # black: a main puzzle in the main room
    SIDE = "side"  # green: a side puzzle, one per side room, cleared only with items
    PENALTY = "penalty"  # red: instructions followed when drawn
    CLOCK = "clock"  # red: one of the clocks; the third one drawn loses the game
    ITEM = "item"  # blue scheme: puzzle components, no effect when played
    ACTION = "action"  # red scheme: sacrifices, protection, support
    TRAP = "trap"  # yellow scheme: fires when drawn from an uncleared room, no effect when played
    BETRAY = "betray"  # the action card every player is dealt at setup


PUZZLE_KINDS = frozenset({Kind.MAIN, Kind.SIDE})
PENALTY_KINDS = frozenset({Kind.PENALTY, Kind.CLOCK})
DECK_KINDS = frozenset({Kind.ITEM, Kind.ACTION, Kind.TRAP})
"""The draw deck that is dealt three per player and split over the side rooms."""
HAND_KINDS = DECK_KINDS | {Kind.BETRAY}
"""Cards that travel between hands, room decks and the discard pile."""
PLAYED_EFFECT_KINDS = frozenset({Kind.ACTION, Kind.BETRAY})
"""Cards whose effects happen when played and revealed (items and traps do nothing when played)."""


class Cond(str, enum.Enum):
    """How a puzzle can be cleared."""

    ITEMS = "items"  # every listed item (with repeats) played in the puzzle's room
    ANY_ITEMS = "any_items"  # ``count`` items among the listed ones played in the puzzle's room
    SACRIFICE = "sacrifice"  # a player sacrificed this round (main puzzles only)


class Do(str, enum.Enum):
    """What an effect does."""

    SACRIFICE = "sacrifice"  # the target is sacrificed (see ``same_room`` and ``votes``)
    PROTECT = "protect"  # the target cannot be sacrificed this round
    NO_MOVE = "no_move"  # cannot move (or follow) in the coming action phase
    NO_PLAY = "no_play"  # cannot play a card in the coming action phase
    DISCARD = "discard"  # discard ``count`` cards of one's choice to the discard pile
    DRAW_DISCARD = "draw_discard"  # may draw ``count`` cards from the discard pile, three seen for each
    PENALTY = "penalty"  # draw ``count`` penalty cards now
    NO_PENALTY = "no_penalty"  # no penalty card this round even if the main puzzle stays


class Who(str, enum.Enum):
    """Whom an effect touches."""

    SELF = "self"  # the player who drew (trap) or played (action) the card
    TARGET = "target"  # the character token under the played card
    ROOM = "room"  # every living player in the card's room (a puzzle's room, a played card's room)
    ALL = "all"  # every living player


@dataclass(frozen=True)
class Condition:
    """One way to clear a puzzle; a puzzle lists alternatives and any one of them clears it."""

    kind: Cond
    items: tuple[str, ...] = ()
    """ITEMS: the item names needed (a name twice means two such items); ANY_ITEMS: the names allowed."""
    count: int = 0
    """ANY_ITEMS: how many of the allowed items are needed."""


@dataclass(frozen=True)
class Effect:
    """One instruction on a card."""

    do: Do
    who: Who
    count: int = 1
    same_room: bool = True
    """SACRIFICE: only if the card's player and the target are in the same room."""
    votes: int = 1
    """SACRIFICE: how many sacrifice cards must name the same target for this one to work."""


@dataclass(frozen=True)
class Card:
    """One physical card (copies of a card are separate cards with their own ids)."""

    id: str
    kind: Kind
    name: str
    text: str = ""
    item: str | None = None
    """ITEM: the item it is, as puzzle conditions name it (defaults to the card's name)."""
    clear: tuple[Condition, ...] = ()
    """MAIN/SIDE: the alternative ways to clear it (main puzzles may always be cleared by a sacrifice)."""
    effects: tuple[Effect, ...] = ()
    """What the card does: when drawn (trap), played (action, betray), drawn from the penalty deck
    (penalty), or when its puzzle is cleared (main, side: the "special instructions")."""

    def public(self) -> dict[str, str]:
        """The card as the scoreboard may show it once it is face up."""
        return {"id": self.id, "name": self.name, "kind": self.kind.value}


@dataclass(frozen=True, eq=False)
class CardSet:
    """A whole card set, by card id. Compared by identity: a loaded set never changes."""

    name: str
    title: str
    cards: Mapping[str, Card] = field(default_factory=dict)

    def ids(self, *kinds: Kind) -> tuple[str, ...]:
        """The ids of the cards of these kinds, in the set's order."""
        return _ids(self, kinds)

    def kind_of(self, card_id: str) -> Kind | None:
        card = self.cards.get(card_id)
        return None if card is None else card.kind

    def name_of(self, card_id: str) -> str:
        card = self.cards.get(card_id)
        return card_id if card is None else card.name


@lru_cache(maxsize=64)
def _ids(cards: CardSet, kinds: tuple[Kind, ...]) -> tuple[str, ...]:
    # A set never changes (it is hashed by identity), and every setup asks for the same kinds.
    return tuple(c.id for c in cards.cards.values() if c.kind in kinds)


@lru_cache(maxsize=16)
def kinds_of(cards: CardSet) -> Mapping[str, Kind]:
    """Card id -> its kind, for a setup that places every card of the set (read, never changed)."""
    return {c.id: c.kind for c in cards.cards.values()}


@lru_cache(maxsize=16)
def alike(cards: CardSet) -> Mapping[str, tuple[str, ...]]:
    """Each card with identical copies in the set (all but the id the same: one entry's ``copies``)
    to those copies, itself included, in the set's order. A set never changes; it is hashed by identity."""
    groups: dict[Card, list[str]] = {}
    for card in cards.cards.values():
        groups.setdefault(replace(card, id=""), []).append(card.id)
    return {c: tuple(ids) for ids in groups.values() if len(ids) > 1 for c in ids}
