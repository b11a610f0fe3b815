"""Walking through a deck, giving each card its tag (the logic behind ``companion enroll``).

The walk asks for the cards of a deck in order, skipping those already enrolled (so a walk that
was interrupted resumes where it stopped). Each tag offered is enrolled as the card asked for,
unless the registry refuses it (the tag is already another card's).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.core.errors import EnrolmentError
from companion.table.registry import TagRegistry

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Offered:
    """What became of a tag offered for a card."""

    card: str
    uid: str
    enrolled: bool
    message: str


class EnrolmentWalk:
    def __init__(self, registry: TagRegistry, deck: Sequence[str]) -> None:
        seen: set[str] = set()
        for card in deck:
            if card in seen:
                raise EnrolmentError(f'card "{card}" is listed twice in the deck')
            seen.add(card)
        self.registry = registry
        self.deck = tuple(deck)
        self._skipped: set[str] = set()

    def remaining(self) -> list[str]:
        """Cards still without a tag, in deck order (skipped ones included)."""
        return [card for card in self.deck if self.registry.uid_for(card) is None]

    @property
    def current(self) -> str | None:
        """The card to tap next, or None when every card not skipped has its tag."""
        for card in self.remaining():
            if card not in self._skipped:
                return card
        return None

    def skip(self) -> None:
        card = self.current
        if card is not None:
            self._skipped.add(card)

    def offer(self, uid: str) -> Offered:
        """Enrol ``uid`` as the current card, or say why not."""
        card = self.current
        if card is None:
            raise EnrolmentError("every card of the deck already has its tag")
        try:
            self.registry.enrol(uid, card)
        except EnrolmentError as exc:
            return Offered(card, uid, False, str(exc))
        return Offered(card, uid, True, f"{card}: tag {uid}")


def deck_of_game(game: Any) -> tuple[str, ...] | None:
    """The game's card ids in enrolment order, if the game says (``deck()`` or ``deck``)."""
    deck = getattr(game, "deck", None)
    if deck is None:
        return None
    cards = deck() if callable(deck) else deck
    if cards is None:
        return None
    return tuple(str(card) for card in cards)


def read_cards_file(path: str | Path) -> tuple[str, ...]:
    """Card ids, one per line; blank lines and ``#`` comments ignored; a card listed twice refused."""
    p = Path(path)
    try:
        lines = p.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise EnrolmentError(f"{p}: cannot read the card list ({exc.strerror})") from exc
    except UnicodeDecodeError:
        raise EnrolmentError(f"{p}: the card list is not UTF-8 text") from None
    cards: list[str] = []
    first_line: dict[str, int] = {}
    for number, line in enumerate(lines, start=1):
        card = line.split("#", 1)[0].strip()
        if not card:
            continue
        if card in first_line:
            raise EnrolmentError(f'{p}: line {number}: card "{card}" is already on line {first_line[card]}')
        first_line[card] = number
        cards.append(card)
    if not cards:
        raise EnrolmentError(f"{p}: the card list is empty")
    return tuple(cards)
