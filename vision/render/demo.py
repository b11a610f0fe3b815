"""A camera pipeline on a rendered table, for ``companion demo`` and trying things without a camera.

    pipeline = demo_pipeline("cubes")          # Horrible Mountain 2's table, as a camera would see it
    pipeline.start(print, stop)
"""

from __future__ import annotations

from collections.abc import Mapping

from vision.pipeline import VisionPipeline
from vision.render.scenes import SCENE_KINDS, make_scene
from vision.settings import VisionSettings
from vision.sources import RenderedSource


def demo_pipeline(kind: str = "cards", seed: int = 0, players_by_colour: Mapping[str, str] | None = None, fps: float = 5.0) -> VisionPipeline:
    """A pipeline watching a still rendered table of ``kind`` (occupancy, cubes, pawns, cards):
    its zones and marker layout are the scene's, so the views it reports are the scene's truth."""
    if kind not in SCENE_KINDS:
        raise ValueError(f"{kind!r} is not a scene kind ({', '.join(SCENE_KINDS)})")
    scene = make_scene(kind, seed, "easy")
    source = RenderedSource([(scene, 24 * 3600.0)], fps=fps)
    return VisionPipeline(source, scene.zones, VisionSettings(markers=scene.layout), players_by_colour)
