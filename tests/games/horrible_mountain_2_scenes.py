"""What the shared tests know of Escape From Horrible Mountain 2 beyond its SPEC (see tests/games/scenes.py)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from companion.contract.game import Game
from companion.core import JsonObject
from companion.games.horrible_mountain_2 import GAME
from companion.games.horrible_mountain_2.entry import card_label
from companion.games.horrible_mountain_2.playout import random_playout
from tests.games.scenes import BadStart, Evening, Hands, Layout, Offers, Scene


def hand(view: JsonObject) -> list[str]:
    return [c for c in view.get("hand") or [] if isinstance(c, str)]


def cards(game: Game[Any], state: Any) -> Mapping[str, str]:
    """Each card by its id and by its label on a page ("4♣")."""
    ids = GAME.deck() or ()
    return {**{c: c for c in ids}, **{card_label(c): c for c in ids}}


def seen(state: Any, player: str) -> frozenset[str]:
    """The Discard Pile counts as seen: every card in it was laid there face up by a public move (the
    log names it), though the board shows only its top; after the adventurer's secret
    ``search_discard`` the Evil Master still counts the searched card in it (the pile as he knows it)."""
    return frozenset(state.discard_as_seen(state.seat(player)))


def swapped(state: Any, player: str) -> Any | None:
    """``state`` with one card traded between the other player's hand and the draw pile."""
    seat = state.seat(player)
    for other in range(len(state.hands)):
        if other == seat or not state.hands[other] or not state.draw_pile:
            continue
        give, take = min(state.hands[other]), min(state.draw_pile)
        hands = list(state.hands)
        hands[other] = hands[other] - {give} | {take}
        return dataclasses.replace(state, hands=tuple(hands), draw_pile=state.draw_pile - {take} | {give})
    return None


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
    hands=Hands(hand, secret=True),
    offers=Offers({"": lambda: random_playout(2, max_moves=40, variant=True)}, cards=cards, seen=seen, swap=swapped),
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
