"""What the shared tests know of Escape House beyond its SPEC (see tests/games/scenes.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.contract.game import Game
from companion.core import JsonObject
from tests.games.scenes import BadStart, Evening, Hands, Layout, Scene
from tests.games.test_escape_house_live import HANDS


def hand(view: JsonObject) -> list[str]:
    """A player's view holds their hand as ``{"you": {"hand": [{"id", "name", "kind"}]}}``."""
    return [c["id"] for c in (view.get("you") or {}).get("hand") or []]




def started(board: JsonObject) -> None:
    """The console tapped the card set and the face-up main puzzle; the room decks and the face-down
    puzzles stay unknown until a card is drawn, cleared or turned up."""
    assert board["scoreboard"]["main_left"] == 7
    assert sorted(p["who"] for p in board["prompts"]) == sorted(HANDS)


def dealt(game: Game[Any], board: JsonObject) -> Mapping[str, Sequence[str]]:
    """Each player taps the four cards dealt to them."""
    return HANDS


def ready(board: JsonObject) -> None:
    assert board["counters"]["illegal"] == 0 and board["scoreboard"]["phase"] == "explore"
    assert board["scoreboard"]["hand_sizes"] == {p: 4 for p in HANDS}


def init_setup(setup: Mapping[str, Any]) -> None:
    """A live table: the card set and the one face-up main puzzle, nothing face down."""
    assert set(setup) == {"card_set", "main"} and len(setup["main"]) == 1


SCENE = Scene(
    lights_rule="EH-DRAW-ROOM",  # a card drawn, tapped on a hand pad
    hands=Hands(hand, secret=True),
    big_screen=".clocks",
    layouts=(Layout("6 players", {"players": 6}), Layout("8 players", {"players": 8})),
    evening=Evening(tuple(HANDS), started=started, dealt=dealt, ready=ready, plays=("anna",)),
    bad_starts=(
        # a card of the wrong kind, a count off the rulebook
        BadStart(("a", "b", "c", "d", "e", "f"),
                 {"card_set": "example", "main": ["key-1"]}, '"key-1" is an item card, not main'),
        BadStart(("a", "b", "c", "d", "e"),
                 {"card_set": "example", "main": ["portrait"]}, "Escape House is for 6 to 8 players, not 5"),
    ),
    init_setup=init_setup,
)
