"""A deck laid out for ``companion camera deck`` (vision/deck_layout.py), rendered with exact truth:
the simulated camera the command's tests and the benchmark's taught rows teach from."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import numpy as np

from companion.core import JsonValue
from vision.calibration import MarkerLayout
from vision.deck_layout import DeckLayout, deck_layout
from vision.deck_teach import TaughtDeck, teach
from vision.render.camera import render
from vision.render.decks import Deck
from vision.render.scene import CardItem, Scene, Truth
from vision.render.scenes import LEVELS, camera_view, lighting
from vision.render.tables import mountain_table, zone_centre
from vision.settings import VisionSettings

PLACE_MM = 1.5
PLACE_DEG = 1.5
"""How far a card laid on its place by hand lies from it, at most."""
TEACH_SEED = 1000
"""The teaching picture's camera: a seed none of the benchmark's scenes uses."""


def laid_deck_scene(layout: DeckLayout, markers: MarkerLayout, deck: Deck | None, seed: int = 0, level: str = "easy") -> Scene:
    """The cards of ``layout`` from ``deck`` (None: the renderer's own) on the purple mat, each a
    little off its place, seen by a random camera of ``level``."""
    rng = np.random.default_rng([seed, layout.set_number, 23])
    difficulty = LEVELS[level]
    cards = []
    states: dict[str, Mapping[str, JsonValue]] = {}
    for place in layout.places:
        cx, cy = zone_centre(place.zone)
        dx, dy = rng.uniform(-PLACE_MM, PLACE_MM, 2)
        cards.append(CardItem((cx + float(dx), cy + float(dy)), place.face, float(rng.uniform(-PLACE_DEG, PLACE_DEG)), deck=deck))
        states[place.zone.name] = {"occupied": True, "card": place.face}
    return Scene(markers, layout.zones, camera_view(rng, markers, difficulty), lighting(rng, markers, difficulty), cards=tuple(cards), truth=Truth(states))


def laid_deck_picture(markers: MarkerLayout, deck: Deck | None, set_number: int = 1, seed: int = 0) -> np.ndarray:
    """One camera picture of set ``set_number`` of ``deck`` laid out between ``markers``."""
    return render(laid_deck_scene(deck_layout(markers, set_number), markers, deck, seed))


def teach_rendered(deck: Deck | None, folder: str | Path, markers: MarkerLayout | None = None, seed: int = TEACH_SEED) -> TaughtDeck:
    """``companion camera deck``'s teaching, on set 1 of ``deck`` laid on The Mountain's table
    and sent as a USB camera sends it (MJPG); the templates are saved in ``folder``."""
    from vision.render.robustness import decode, mjpg

    markers = markers or mountain_table().layout
    layout = deck_layout(markers, 1)
    picture = decode(mjpg(render(laid_deck_scene(layout, markers, deck, seed))))
    taught, _ = teach(picture, VisionSettings(markers=markers), layout)
    taught.save(folder)
    return taught
