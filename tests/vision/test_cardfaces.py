"""Card corner templates: the built-in glyphs, and templates cut from a table's own deck."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.core.errors import ConfigError
from vision.detectors.cardfaces import GlyphTemplates, read_index
from vision.detectors.glyphs import RANKS, SUITS, glyph_image
from vision.render.cardart import card_picture


def corner_of(face: str, s: float = 3.0) -> np.ndarray:
    """A sharp, square-on picture of a card's top-left corner on the mat, as the detector warps it."""
    picture, _ = card_picture(face, (150, 60, 40), 63.0, 88.0, s)
    out = np.empty((int(34 * s), int(24 * s), 3), np.uint8)
    out[:] = (120, 48, 105)
    pad = int(2 * s)
    out[pad:, pad:] = picture[: out.shape[0] - pad, : out.shape[1] - pad]
    return out


@pytest.mark.parametrize("face", ["AS", "10H", "QC", "7D", "KH", "2C", "JS", "9D"])
def test_builtin_templates_read_sharp_corners(face: str) -> None:
    read = read_index(corner_of(face), 3.0, (-2.0, -2.0), GlyphTemplates.builtin(), 0.5)
    assert read.found and read.face == face


def test_blank_paper_or_mat_is_not_an_index() -> None:
    paper = np.full((102, 72, 3), 235, np.uint8)
    assert not read_index(paper, 3.0, (-2.0, -2.0), GlyphTemplates.builtin(), 0.5).found
    mat = np.full((102, 72, 3), (120, 48, 105), np.uint8)
    assert not read_index(mat, 3.0, (-2.0, -2.0), GlyphTemplates.builtin(), 0.5).found


def test_templates_from_a_folder(tmp_path: Path) -> None:
    for rank in RANKS:
        cv2.imwrite(str(tmp_path / f"rank-{rank}.png"), glyph_image("rank", rank))
    for suit in SUITS:
        cv2.imwrite(str(tmp_path / f"suit-{suit}.png"), glyph_image("suit", suit))
    templates = GlyphTemplates.from_directory(tmp_path)
    assert read_index(corner_of("8H"), 3.0, (-2.0, -2.0), templates, 0.5).face == "8H"
    (tmp_path / "suit-C.png").unlink()
    with pytest.raises(ConfigError, match="suit-C.png"):
        GlyphTemplates.from_directory(tmp_path)
