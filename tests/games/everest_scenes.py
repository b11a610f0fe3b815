"""What the shared tests know of Everest beyond its SPEC (see tests/games/scenes.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tests.games.scenes import Evening, Layout, Scene


def init_setup(setup: Mapping[str, Any]) -> None:
    assert dict(setup) == {}  # the yeti start at the rulebook's homes


SCENE = Scene(
    big_screen="svg.everest-map",
    layouts=(
        Layout("playout"),
        Layout("2 players, fresh", fresh=("anna", "ben")),
        Layout("4 players, fresh", fresh=("anna", "ben", "cleo", "dev")),
    ),
    evening=Evening(("anna", "ben"), plays=("anna", "ben")),  # plans tapped in on their own pages
    init_setup=init_setup,
)
