"""What the shared tests know of Escape Master beyond its SPEC (see tests/games/scenes.py)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from companion.contract.game import Game
from companion.core import JsonObject
from companion.games.escape_master import GAME
from tests.games.scenes import BadStart, Evening, Hands, Layout, Scene


def hand(view: JsonObject) -> list[str]:
    return [c for c in view.get("hand") or [] if isinstance(c, str)]






def dealt(game: Game[Any], board: JsonObject) -> Mapping[str, Sequence[str]]:
    """The real deal is a shuffle at the table: each player taps the ten cards they were dealt."""
    specials = ("start", "escape", "trap", "doom", "wisdom", "dead")
    deck = [c for c in GAME.deck() or () if not c.startswith(specials)]
    random.Random(7).shuffle(deck)
    return {p: deck[n * 10 : n * 10 + 10] for n, p in enumerate(board["players"])}


def ready(board: JsonObject) -> None:
    assert board["counters"]["illegal"] == 0, board["counters"]
    assert [(p["who"], p["verb"]) for p in board["prompts"]] == [("anna", "start")], board["prompts"]


def ended(board: JsonObject) -> None:
    assert board["scoreboard"]["phase"] == "playing"  # the dealer's Start!


def init_setup(setup: Mapping[str, Any]) -> None:
    assert dict(setup) == {"dealer": "anna"}


SCENE = Scene(
    lights_rule="EM-DEAD-END",  # a Dead End on pile 1: refused where no pile lies, allowed on an open pile
    hands=Hands(hand, secret=True, shown_by_move=frozenset({"withdraw", "half"})),
    big_screen=".em-piles, .panel h3",
    layouts=(
        Layout("2 players", {"players": ["anna", "ben"]}),
        Layout("4 players", {"players": ["anna", "ben", "carl", "dora"]}),
        Layout("8 players", {"players": [f"player{i}" for i in range(1, 9)]}),
    ),
    evening=Evening(("anna", "ben", "cleo"), dealt=dealt, ready=ready, prompted=("anna",), ended=ended),
    bad_starts=(BadStart(("a", "b"), {"dealer": "zed"}, "dealer must name one of the players"),),
    init_setup=init_setup,
)
