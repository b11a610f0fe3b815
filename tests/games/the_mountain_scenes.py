"""What the shared tests know of The Mountain beyond its SPEC (see tests/games/scenes.py)."""

from __future__ import annotations

from companion.core import JsonObject
from tests.games.scenes import Evening, Hands, Scene


def hand(view: JsonObject) -> list[str]:
    return [c for c in view.get("hand") or [] if isinstance(c, str)]


def started(board: JsonObject) -> None:
    """Solitaire: the pyramid and the health pile lie face up and are tapped in."""
    assert board["scoreboard"]["health"] == 10


SCENE = Scene(
    lights_rule="TM-CLUBS",  # clubs removing cards to the discard pad
    # The one player's hand is the table's to see; the face-down stock is what stays hidden.
    hands=Hands(hand, secret=False),
    big_screen=".pyramid",
    evening=Evening(("anna",), started=started),
)
