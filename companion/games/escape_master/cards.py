"""Escape Master card names (NOTATION.md "Card names") and what each card is.

A name is *well formed* when it follows the grammar; whether the card is in this game's deck is a
question for the deck data (deck.json) and so for ``check``, never for the notation reader:
``start-9`` reads fine and is an illegal move with the standard deck, ``start9`` is a notation error.
"""

from __future__ import annotations

import enum
import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass

logger = logging.getLogger(__name__)

SUITS: tuple[str, ...] = ("joe", "mouse", "lumberjack", "teen", "robot", "ninja")
"""The six tribes, in the rulebook's order (Average Joe, Mouse, Lumberjack, Teen, Robot, Vapor Ninja)."""

RANKS: tuple[str, ...] = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
RANK_VALUE: dict[str, int] = {rank: i + 1 for i, rank in enumerate(RANKS)}
VALUE_RANK: dict[int, str] = {v: r for r, v in RANK_VALUE.items()}

START_VALUE = 7
"""Every start card is worth 7 (rulebook: "Alle Startkarten haben einen Wert von 7")."""


class Kind(enum.Enum):
    NUMBER = "number"
    DOOM = "doom"
    START = "start"
    WISDOM = "wisdom"
    DEAD_END = "dead-end"
    TRAP_DRAW = "trap-draw"
    TRAP_UP = "trap-up"
    TRAP_DOWN = "trap-down"
    ESCAPE = "escape"
    ESCAPE_DISCARD = "escape-discard"


SPECIAL_KINDS = frozenset({Kind.DEAD_END, Kind.TRAP_DRAW, Kind.TRAP_UP, Kind.TRAP_DOWN, Kind.ESCAPE, Kind.ESCAPE_DISCARD})
TRAP_KINDS = frozenset({Kind.TRAP_DRAW, Kind.TRAP_UP, Kind.TRAP_DOWN})
ESCAPE_KINDS = frozenset({Kind.ESCAPE, Kind.ESCAPE_DISCARD})
INDEXED_KINDS: tuple[Kind, ...] = (
    Kind.START,
    Kind.WISDOM,
    Kind.TRAP_DRAW,
    Kind.TRAP_UP,
    Kind.TRAP_DOWN,
    Kind.ESCAPE,
    Kind.ESCAPE_DISCARD,
)
"""Kinds whose names carry a copy number (``start-1`` ... ``start-8``)."""


@dataclass(frozen=True, slots=True)
class Card:
    """One card: its name, kind, tribe (numbered cards) and value (numbered, Doom Master and start cards)."""

    name: str
    kind: Kind
    suit: str | None = None
    value: int | None = None

    @property
    def numbered(self) -> bool:
        """A numbered card in the rulebook's sense: 1..10, J, Q, K of a tribe, or a Doom Master face card."""
        return self.kind is Kind.NUMBER or self.kind is Kind.DOOM

    @property
    def special(self) -> bool:
        """Dead End, Traps and Escapes: the cards that may be discarded to a history pile at will."""
        return self.kind in SPECIAL_KINDS

    @property
    def rank(self) -> str:
        return VALUE_RANK[self.value] if self.value is not None else ""


_NUMBER = re.compile(r"(joe|mouse|lumberjack|teen|robot|ninja)-(10|[1-9]|J|Q|K)")
_INDEXED = re.compile(r"(start|wisdom|trap-draw|trap-up|trap-down|escape|escape-discard)-([1-9][0-9]{0,2})")
_DOOM = re.compile(r"doom-(J|Q|K)")

_cache: dict[str, Card] = {}


def card_problem(name: object) -> str | None:
    """Why ``name`` is not a well-formed Escape Master card name, or None if it is."""
    if not isinstance(name, str):
        return f"a card name must be a string, not {name!r}"
    try:
        parse_card(name)
    except ValueError as exc:
        return str(exc)
    return None


def parse_card(name: str) -> Card:
    """The card a well-formed name stands for; ValueError naming the name otherwise."""
    card = _cache.get(name)
    if card is not None:
        return card
    card = _parse(name)
    if len(_cache) < 10_000:  # names are few; the bound only keeps junk input from growing the cache
        _cache[name] = card
    return card


def _parse(name: str) -> Card:
    m = _NUMBER.fullmatch(name)
    if m:
        return Card(name, Kind.NUMBER, m.group(1), RANK_VALUE[m.group(2)])
    m = _DOOM.fullmatch(name)
    if m:
        return Card(name, Kind.DOOM, "doom", RANK_VALUE[m.group(1)])
    if name == "dead-end":
        return Card(name, Kind.DEAD_END)
    m = _INDEXED.fullmatch(name)
    if m:
        kind = Kind(m.group(1))
        return Card(name, kind, None, START_VALUE if kind is Kind.START else None)
    raise ValueError(
        f'"{name}" is not an Escape Master card name (like "teen-5", "robot-K", "start-1", "wisdom-2", '
        '"dead-end", "trap-up-1", "escape-discard-3", "doom-Q")'
    )



SPOKEN: dict[Kind, str] = {
    Kind.START: "7 START",
    Kind.WISDOM: "Wisdom",
    Kind.TRAP_DRAW: "Trap +3",
    Kind.TRAP_UP: "Trap ↑",
    Kind.TRAP_DOWN: "Trap ↓",
    Kind.ESCAPE: "Escape",
    Kind.ESCAPE_DISCARD: "Escape + discard",
}
"""What a person calls a card of a kind with copies: the copy number is the engine's, not the table's."""


def spoken(name: str) -> str:
    """A card as a person names it: a copy by its kind ("7 START" for ``start-3``), any other by its name."""
    try:
        kind = parse_card(name).kind
    except ValueError:
        return name
    return SPOKEN.get(kind, name)


_KIND_ORDER: dict[Kind, int] = {kind: n for n, kind in enumerate((
    Kind.NUMBER, Kind.DOOM, Kind.START, Kind.WISDOM, Kind.TRAP_UP, Kind.TRAP_DOWN, Kind.TRAP_DRAW,
    Kind.ESCAPE, Kind.ESCAPE_DISCARD, Kind.DEAD_END,
))}


def card_order(name: str) -> tuple[int, int, int, str]:
    """How a hand is laid out (as the page's panel sorts it): numbered cards by rank then tribe, 2
    before 10 and J, Q, K in that order, then the special cards by kind; not as text."""
    try:
        card = parse_card(name)
    except ValueError:
        return (len(_KIND_ORDER), 0, 0, name)
    tribe = SUITS.index(card.suit) if card.suit in SUITS else len(SUITS)
    return (_KIND_ORDER[card.kind], card.value or 0, tribe, name)


_twins: dict[int, tuple[Mapping[str, Card], dict[str, tuple[str, ...]]]] = {}


def copies_of(name: str, cards: Mapping[str, Card]) -> tuple[str, ...]:
    """The copies among ``cards`` (a game's deck) of the card ``name`` names, itself included, by copy
    number: the start, Wisdom, Trap and Escape cards of one kind are alike. () for a card without copies."""
    held = _twins.get(id(cards))
    if held is None or held[0] is not cards:  # one map per deck (a game's deck never changes)
        groups: dict[Kind, list[str]] = {}
        for card in cards.values():
            if card.kind in INDEXED_KINDS:
                groups.setdefault(card.kind, []).append(card.name)
        twins = {}
        for names in groups.values():
            if len(names) > 1:
                ordered = tuple(sorted(names, key=lambda c: int(c.rsplit("-", 1)[1])))
                twins.update({c: ordered for c in ordered})
        if len(_twins) >= 16:
            _twins.clear()
        held = _twins[id(cards)] = (cards, twins)
    return held[1].get(name, ())
