"""What the tests know of a game beyond its SPEC: one module per game package, found as the games are.

A test about every game reads the registry (``companion.games.specs()``). Where it needs knowledge the
game's declaration does not carry (how a player's own hand reads in their view, which cards a state
holds, which tables are worth laying out, how a game is dealt from the console), it asks :func:`scene`
for the game's ``tests/games/<package>_scenes.py`` and its ``SCENE``. A game without one gets the
defaults: a test whose premise needs more (hidden hands, say) leaves it out, the others run it as they
find it. Nothing here is production code: the game packages never import it.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.contract.game import Game
from companion.contract.spec import GameSpec
from companion.core import JsonObject


def _nothing(board: JsonObject) -> None:
    """No check."""


def _no_deal(game: Game[Any], board: JsonObject) -> Mapping[str, Sequence[str]]:
    return {}


def _any_setup(setup: Mapping[str, Any]) -> None:
    """No check beyond the shared ones."""


@dataclass(frozen=True)
class Hands:
    """The game deals cards into players' hands."""

    of: Callable[[JsonObject], list[str]]
    """The cards of a player's own hand, as that player's view names them."""
    secret: bool
    """A card in a hand is hidden from everyone but its holder (the board, the log, the stream, the
    venue) while the game goes on. False for a solitaire, whose one hand is the table's to see."""
    shown_by_move: frozenset[str] = frozenset()
    """Verbs whose named card lay face up on the table even though it is (back) in a hand."""

    def held(self, game: Game[Any], state: Any, players: Iterable[str]) -> set[str]:
        """Every card now in any player's hand."""
        return {card for p in players for card in self.of(game.view(state, p))}




@dataclass(frozen=True)
class Layout:
    """A table to lay out on a phone and on a TV (tests/browser/test_layout.py)."""

    label: str
    playout: Mapping[str, Any] = field(default_factory=dict)
    """Keyword arguments of the game's playout: part of that seeded game is played."""
    fresh: tuple[str, ...] | None = None
    """Instead, these players before the first move."""


@dataclass(frozen=True)
class Evening:
    """The game's turn in an evening of games started from the referee's console, by taps only
    (tests/browser/test_table_lifecycle.py)."""

    players: tuple[str, ...]
    """Tapped on the console in seat order (a name new to the table is typed once)."""
    started: Callable[[JsonObject], None] = _nothing
    """Checks on the board once the console has started the game."""
    dealt: Callable[[Game[Any], JsonObject], Mapping[str, Sequence[str]]] = _no_deal
    """The cards each player taps in on their own page, given the board once started."""
    ready: Callable[[JsonObject], None] = _nothing
    """Checks on the board once the cards are tapped in."""
    prompted: tuple[str, ...] = ()
    """Players who then tap the one-tap prompt the board lists for them."""
    plays: tuple[str, ...] = ()
    """Players who then tap the first move their page offers."""
    ended: Callable[[JsonObject], None] = _nothing
    """Checks on the board after all that."""


@dataclass(frozen=True)
class BadStart:
    """A new game the referee's console must refuse, with the one message it gives (tests/web/test_lifecycle.py)."""

    players: tuple[str, ...]
    setup: JsonObject
    says: str


NAMES = ("anna", "ben", "cleo", "dan", "eve", "finn", "gus", "hal")


@dataclass(frozen=True)
class Scene:
    """Everything the shared tests know of one game beyond its SPEC (defaults: nothing more)."""

    hands: Hands | None = None
    """None: the game deals no cards into hands."""
    big_screen: str = "#board"
    """What the table looks at on the big screen (the default: the whole board): it must show
    without scrolling on a TV."""
    layouts: tuple[Layout, ...] = (Layout("playout"),)
    evening: Evening | None = None
    """None: the game is started with its fewest players and nothing more is done."""
    bad_starts: tuple[BadStart, ...] = ()
    init_setup: Callable[[Mapping[str, Any]], None] = _any_setup
    """Checks on the setup that ``companion init --no-hardware`` writes for the game."""
    lights_rule: str | None = None
    """The rule played at the game's own table with LEDs (tests/app/test_lights_every_game.py): an
    illegal and a legal case of it from one position, each made by the sensor plan with a card put
    or tapped on an array's reader. None: the game has no array readers."""

    def evening_for(self, game: Game[Any]) -> Evening:
        return self.evening or Evening(NAMES[: game.min_players])


def module_name(spec: GameSpec) -> str:
    return f"tests.games.{spec.package.rpartition('.')[2]}_scenes"


def scene(spec: GameSpec) -> Scene:
    """The game's scene: ``SCENE`` of ``tests/games/<package>_scenes.py``, or the defaults."""
    name = module_name(spec)
    if importlib.util.find_spec(name) is None:
        return Scene()
    found = getattr(importlib.import_module(name), "SCENE", None)
    assert isinstance(found, Scene), f"{name} must define SCENE, a tests.games.scenes.Scene"
    return found
