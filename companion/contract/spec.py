"""A game is one declaration: the :class:`GameSpec` its package exposes as ``SPEC``.

Everything outside the game's folder reads the spec and nothing else: the registry finds it, the CLI
offers its id, ``companion init --no-hardware`` writes its example table, the pages load its panel
(JavaScript and styles kept in the package and served from there), the venue draws its headline
figures with that panel, the benchmarks play its playout, and the contract test
(tests/contract/) checks every promise below for every registered game. A new game is a new folder.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from companion.contract.game import Game
from companion.contract.secrets import Secrets
from companion.contract.sensors import SensorPlan
from companion.core.nouns import Header, Move


@dataclass(frozen=True)
class ExampleTable:
    """How a table with no readers and no camera starts this game (``companion init --no-hardware``).

    Never a face-down card: each player taps the cards dealt to them on their own page."""

    header: Header
    shuffled: bool = False
    """The setup holds face-up cards chosen by a shuffle (the file says so, and how to lay them)."""
    hands_tapped: bool = False
    """Cards are dealt face down before the first move: each player taps their own in."""


class Example(Protocol):
    def __call__(self, rng: random.Random) -> ExampleTable: ...


class Playout(Protocol):
    """A seeded random game (a simulator: engines have no randomness), for benches and the contract test.

    ``illegal_every``: every Nth move is an illegal attempt, which a replay reports and goes on from."""

    def __call__(self, seed: int, max_moves: int = ..., illegal_every: int | None = ...) -> tuple[Header, list[Move]]: ...


@dataclass(frozen=True)
class GameSpec:
    """One game's whole declaration. Paths are relative to the game's package folder."""

    game: Game[Any]
    """The engine and its views, entry (candidates, choices, setup form) and sensors (interpret)."""
    package: str
    """The game's package, by module name (its folder holds the files named below)."""
    example: Example
    playout: Playout
    docs: str = "GAME.md"
    """The rules catalogue (every rule id with the rulebook's words), options, notation and sensors."""
    panel: str = "panel"
    """The web panel's folder: ``panel.js`` registers the board, views and venue summary with
    ``TC.games.register``; ``panel.css`` (optional) styles them."""
    acceptance: str = "acceptance"
    """Whole games in the notation (``*.jsonl``), each with its expected replay (``*.expected``)."""
    rule_cases: str = "rule_cases.jsonl"
    """For every rule id, a move it refuses and one it allows (tests/contract/)."""
    voice: str = "voice"
    """The spoken texts' folder: ``<language>.toml`` for each language the referee speaks
    (:mod:`companion.table.speech`): a text for every rule id, the prompts by verb, the zones' words."""
    bgg_id: int | None = None
    """The game's BoardGameGeek id, where it has one."""
    secrets: Secrets[Any] | None = None
    """What the game hides and from whom (:mod:`companion.contract.secrets`): the names its secret
    values go by, what each player may know, and states a player cannot tell apart. None: nothing
    is hidden (every card lies face up)."""
    sensors: SensorPlan | None = None
    """How the game is played at a table with readers and a camera (:mod:`companion.contract.sensors`):
    the reference table's zones, and the physical actions each move is made of. None: a game played
    by tapping only."""

    @property
    def id(self) -> str:
        return self.game.id

    @property
    def title(self) -> str:
        return self.game.title

    @property
    def root(self) -> Path:
        """The package's folder."""
        files = getattr(sys.modules.get(self.package), "__file__", None)
        if files is None:
            raise RuntimeError(f"{self.package} is not an imported package with a folder")
        return Path(files).parent

    def path(self, name: str) -> Path:
        return self.root / name

    def acceptance_files(self) -> Sequence[Path]:
        """The acceptance games, in name order."""
        folder = self.path(self.acceptance)
        return sorted(folder.glob("*.jsonl")) if folder.is_dir() else []
