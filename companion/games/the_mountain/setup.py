"""Reading the dealt table from a notation header (NOTATION.md "The Mountain": mountain and health)."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from companion.core.errors import SetupError
from .cards import DECK, RANK_OF, ROWS, THREATS
from .options import MountainOptions
from .state import MountainState

logger = logging.getLogger(__name__)

HEALTH_CARDS = 10


def _card(value: Any, where: str) -> str:
    if not isinstance(value, str) or value not in RANK_OF:
        raise SetupError(f'{where} is {value!r}, not a card (e.g. "10H", "QS", "AC")')
    return value


def read_setup(player: str, options: MountainOptions, setup: Mapping[str, Any]) -> MountainState:
    """The state at the start of the first turn, or SetupError with one sentence naming the problem."""
    unknown = [key for key in setup if key not in ("mountain", "health")]
    if unknown:
        raise SetupError(f'the setup has an unknown field "{unknown[0]}" (it takes "mountain" and "health")')
    rows = setup.get("mountain")
    if not isinstance(rows, list) or len(rows) != ROWS:
        raise SetupError("the setup needs \"mountain\", a list of 6 rows (row 1, the peak, first)")
    mountain: list[str] = []
    for r, row in enumerate(rows, start=1):
        if not isinstance(row, list) or len(row) != r:
            raise SetupError(f"mountain row {r} must be a list of {r} card{'s' if r > 1 else ''}")
        mountain.extend(_card(card, f"mountain card {r}-{i}") for i, card in enumerate(row, start=1))
    health = setup.get("health")
    if not isinstance(health, list) or len(health) != HEALTH_CARDS:
        raise SetupError(f'the setup needs "health", a list of {HEALTH_CARDS} cards (top first)')
    health_cards = [_card(card, f"health card {n}") for n, card in enumerate(health, start=1)]
    seen: set[str] = set()
    for card in mountain + health_cards:
        if card in seen:
            raise SetupError(f"the {card} is dealt twice")
        seen.add(card)
    missing = [card for card in DECK if card in THREATS and card not in mountain]
    if missing:
        raise SetupError(f"the mountain must hold all 12 threats (J, Q, K), and the {missing[0]} is not in it")
    # With all 12 threats in the mountain and no card dealt twice, the health pile holds none.
    stock = frozenset(card for card in DECK if card not in seen)
    return MountainState(
        player=player,
        options=options,
        mountain=tuple(mountain),
        health=tuple(health_cards),
        stock=stock,
        hand=(),
        discard=(),
    )
