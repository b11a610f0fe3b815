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


def _deck_corner(face: str, deck: object, s: float = 3.0) -> np.ndarray:
    from vision.render.decks import Deck, deck_card_picture

    assert isinstance(deck, Deck)
    picture, _ = deck_card_picture(face, (150, 60, 40), 63.0, 88.0, s, deck)
    out = np.empty((int(34 * s), int(24 * s), 3), np.uint8)
    out[:] = (120, 48, 105)
    pad = int(2 * s)
    out[pad:, pad:] = picture[: out.shape[0] - pad, : out.shape[1] - pad]
    return out


def test_a_four_colour_deck_is_unknown_untaught_and_read_once_its_inks_are_taught(tmp_path: Path) -> None:
    """A blue diamond is neither black nor red: the built-in deck names no suit for it, and a
    folder whose deck.json gives each suit's ink (as ``companion camera deck`` is to write it)
    reads blue diamonds and green clubs."""
    import json

    from vision.detectors.suits import PAPER_BGR, absorbance
    from vision.render.decks import FOUR_COLOUR

    builtin = GlyphTemplates.builtin()
    for face in ("7D", "QC"):
        read = read_index(_deck_corner(face, FOUR_COLOUR), 3.0, (-2.0, -2.0), builtin, 0.5)
        assert read.found and read.face is None, (face, read)
    for rank in RANKS:
        cv2.imwrite(str(tmp_path / f"rank-{rank}.png"), glyph_image("rank", rank))
    for suit in SUITS:
        cv2.imwrite(str(tmp_path / f"suit-{suit}.png"), glyph_image("suit", suit))
    inks = {suit: absorbance(FOUR_COLOUR.ink(suit), PAPER_BGR) for suit in SUITS}
    (tmp_path / "deck.json").write_text(json.dumps({"inks": inks}))
    taught = GlyphTemplates.from_directory(tmp_path)
    for face in ("7D", "QC", "AS", "10H"):
        assert read_index(_deck_corner(face, FOUR_COLOUR), 3.0, (-2.0, -2.0), taught, 0.5).face == face
    (tmp_path / "deck.json").write_text(json.dumps({"inks": {"S": [1, 0, 0]}}))
    with pytest.raises(ConfigError, match="deck.json"):
        GlyphTemplates.from_directory(tmp_path)
    (tmp_path / "deck.json").write_text(json.dumps({"outlines": {"S": [0.3, 1.0]}}))
    with pytest.raises(ConfigError, match="outlines must give"):
        GlyphTemplates.from_directory(tmp_path)


@pytest.mark.parametrize("sigma", [1.0, 2.0, 3.0])
def test_an_edge_blurred_by_a_known_gaussian_measures_that_blur(sigma: float) -> None:
    """suit_look.edge_blur reads the blur back from the edge's band: a sharp disc blurred by
    sigma pixels measures sigma within 10 %, and a softer edge measures more."""
    from vision.detectors.suit_look import edge_blur

    disc = np.zeros((120, 120), np.float32)
    cv2.circle(disc, (60, 60), 30, 1.0, -1)
    blurred = np.asarray(cv2.GaussianBlur(disc, (0, 0), sigma), np.float32)
    assert edge_blur(blurred) == pytest.approx(sigma, rel=0.1)
    assert edge_blur(np.asarray(cv2.GaussianBlur(disc, (0, 0), sigma + 1.0), np.float32)) > edge_blur(blurred)
