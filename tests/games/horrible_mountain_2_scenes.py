"""What the shared tests know of Escape From Horrible Mountain 2 beyond its SPEC (see tests/games/scenes.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.contract.game import Game
from companion.core import JsonObject
from companion.games.horrible_mountain_2 import GAME
from tests.games.scenes import BadStart, Evening, Hands, Layout, Scene


def hand(view: JsonObject) -> list[str]:
    return [c for c in view.get("hand") or [] if isinstance(c, str)]








def dealt(game: Game[Any], board: JsonObject) -> Mapping[str, Sequence[str]]:
    """The console tapped the Evil Master, the Table Cards and the colours; each player taps the three
    cards dealt to them."""
    table = board["scoreboard"].get("table", [])
    on_table = {slot["card"] for slot in table if isinstance(slot, dict) and slot.get("card")}
    rest = [c for c in GAME.deck() or () if c not in on_table]
    return {p: rest[n * 3 : n * 3 + 3] for n, p in enumerate(board["players"])}


def ready(board: JsonObject) -> None:
    assert board["counters"]["illegal"] == 0
    assert [p["verb"] for p in board["prompts"]] == ["place"]  # then the cubes are placed


CUBES = {"a": ["red", "orange"], "b": ["yellow", "green"]}

SCENE = Scene(
    lights_rule="HM2-SWAP",  # a swap at slot 2: refused for a card of another rank, allowed for its own
    hands=Hands(hand, secret=True),
    big_screen=".slots",
    layouts=(Layout("playout"),),
    evening=Evening(("anna", "ben"), dealt=dealt, ready=ready),
    bad_starts=(
        # a card tapped twice (slot 2 holds a second 2), a card from another deck
        BadStart(("a", "b"), {"evil_master": "a", "table": ["2S", "2S", "4S", "5S", "6S"],
                 "cubes": CUBES, "centre": "blue"}, "slot 2 must hold a 3"),
        BadStart(("a", "b"), {"evil_master": "a", "table": ["teen-1", "3S", "4S", "5S", "6S"],
                 "cubes": CUBES, "centre": "blue"}, '"teen-1" is not a Horrible Mountain card'),
    ),
)
