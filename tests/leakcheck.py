"""What a verdict may name: the actor's own view, the public table, the public log and the move they sent.

Used by the hidden-card tests: every string the referee's full view holds that is not one of those is
a hidden card (or a hidden fact) and must not appear in what a player's move gets back.
"""

from __future__ import annotations

import dataclasses
import random
import re
from collections.abc import Iterable, Iterator
from typing import Any

from companion.core import Move


def strings(value: Any, keys: bool = True) -> Iterator[str]:
    """Every string inside a JSON-like value (keys included unless ``keys`` is False)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            if keys:
                yield str(key)
            yield from strings(item, keys)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for item in value:
            yield from strings(item, keys)


def hidden_names(full_view: Any, known: Iterable[Any]) -> set[str]:
    """Strings of the referee's view that none of ``known`` (views, board, log, move) shows."""
    seen: set[str] = set()
    for item in known:
        seen.update(strings(item))
    # Short strings and plain numbers are words of ordinary sentences, not card names.
    return {s for s in strings(full_view) if s not in seen and len(s) >= 3 and not s.isdigit()}


def leaks(text: str, hidden: set[str]) -> list[str]:
    """The hidden names ``text`` spells out, as whole words."""
    return [h for h in hidden if re.search(rf"(?<![\w-]){re.escape(h)}(?![\w-])", text)]


def card_fields(move: Move, cards: set[str]) -> list[str]:
    """The fields of ``move`` that carry a card (or cards)."""
    out = []
    for f in dataclasses.fields(move):
        value = getattr(move, f.name)
        if isinstance(value, str) and value in cards:
            out.append(f.name)
        elif isinstance(value, tuple) and value and all(isinstance(v, str) and v in cards for v in value):
            out.append(f.name)
    return out


def swap_cards(move: Move, cards: list[str], rng: random.Random) -> Move:
    """``move`` with every card it carries replaced by a card picked from ``cards``."""
    changes: dict[str, Any] = {}
    for name in card_fields(move, set(cards)):
        value = getattr(move, name)
        changes[name] = rng.choice(cards) if isinstance(value, str) else tuple(rng.sample(cards, min(len(value), len(cards))))
    return move.replace(**changes) if changes else move


def card_universe(deck: tuple[str, ...] | None, full_view: Any, players: Iterable[str]) -> set[str]:
    """Every card name: the game's deck, or (a game without a fixed deck) the strings listed in the full view."""
    if deck is not None:
        return set(deck)
    found: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, (list, tuple)):
            for item in value:
                if isinstance(item, str):
                    found.add(item)
                else:
                    walk(item)

    walk(full_view)
    return found - set(players)


def masked(text: str, cards: Iterable[str]) -> str:
    """``text`` with the given card names replaced by CARD (to compare two verdicts on different cards)."""
    for card in sorted(cards, key=len, reverse=True):
        text = re.sub(rf"(?<![\w-]){re.escape(card)}(?![\w-])", "CARD", text)
    # A card's display name before its id ("Rope (CARD)") is the same card.
    return re.sub(r"[A-Z][\w'-]*(?: [A-Z][\w'-]*)* \(CARD\)", "CARD", text)
