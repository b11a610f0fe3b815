"""What a verdict may name: the actor's own view, the public table, the public log and the move they sent.

Used by the hidden-card tests: every string the referee's full view holds that is not one of those is
a hidden card (or a hidden fact) and must not appear in what a player's move gets back. And the
judgement of the whole-game checks (tests/browser/hidden.py, tests/venue/test_nothing_hidden.py): a
card in a hand must not appear in a public board or row, unless the row's move itself showed it.
"""

from __future__ import annotations

import dataclasses
import json
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


def named(text: str, cards: set[str]) -> set[str]:
    """Which of ``cards`` appear in ``text`` as whole card names (teen-1 is not inside teen-10)."""
    if not cards:
        return set()
    pattern = r"(?<![\w-])(" + "|".join(re.escape(c) for c in sorted(cards, key=len, reverse=True)) + r")(?![\w-])"
    return set(re.findall(pattern, text))


def move_cards(move: Any) -> set[str]:
    """Every string in a public move's fields (the cards it shows), however nested."""
    out: set[str] = set()
    stack = [move]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.add(item)
        elif isinstance(item, dict):
            stack.extend(v for k, v in item.items() if k not in ("by", "do", "t"))
        elif isinstance(item, list):
            stack.extend(item)
    return out


def shown_by(row: Any, shown_by_move: frozenset[str]) -> set[str]:
    """The cards a public log row's move itself laid on the table, so public even while in a hand: an
    illegal attempt (the card was laid down, then taken back) and a move of ``shown_by_move``."""
    move = row.get("move") or {}
    illegal = row.get("verdict") is not None and not row["verdict"]["ok"]
    return move_cards(move) if illegal or move.get("do") in shown_by_move else set()


def board_names(board: Any, cards: set[str]) -> tuple[set[str], bool]:
    """Which of ``cards`` a public board names, and whether it lists hands while the game goes on.

    Hands laid open when the game ends (the scoreboard's ``hands``, with an outcome) are public."""
    scoreboard = dict(board["scoreboard"])
    early = "hands" in scoreboard and board["outcome"] is None
    if "hands" in scoreboard and board["outcome"] is not None:
        scoreboard.pop("hands")
    return named(json.dumps({**board, "scoreboard": scoreboard}), cards), early
