"""``companion camera deck``: a deck in another font, laid under the simulated camera, is taught,
then read back right and never confidently wrong; untaught, the same cards are not read."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import cv2
import pytest

from companion.cli import main
from companion.core.errors import ConfigError
from vision.calibration import MarkerLayout
from vision.deck_check import read_laid
from vision.deck_layout import deck_layout, faces_of_set
from vision.deck_teach import ink_name, teach
from vision.detectors.glyphs import RANKS, SUITS
from vision.detectors.suits import SuitEvidence, suit_by_taught_outline
from vision.render.conditions import BY_NAME
from vision.render.decks import FOUR_COLOUR, JUMBO, SERIF, Deck, svg_deck
from vision.render.camera import render
from vision.render.laid_deck import laid_deck_picture, laid_deck_scene, teach_rendered
from vision.render.robustness import run_trial
from vision.settings import VisionSettings

MARKERS = MarkerLayout.rectangle(640.0, 360.0)  # The Mountain's table


def _video(path: Path, deck: Deck, set_number: int, seed: int) -> Path:
    """The laid set as a USB camera's MJPG stream, for the command's own frame source."""
    picture = laid_deck_picture(MARKERS, deck, set_number, seed)
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 10.0, (1280, 720))
    for _ in range(3):
        writer.write(picture)
    writer.release()
    return path


def _config(folder: Path, video: Path, extra: str = "") -> Path:
    config = folder / "table.toml"
    config.write_text(
        "\n".join(
            [
                '[game]\nid = "the-mountain"\nplayers = ["ann"]',
                f'[log]\npath = "{folder / "game.sqlite"}"',
                "[camera]",
                f'source = "file:{video}"',
                "markers = { width_mm = 640, height_mm = 360 }",
                extra,
            ]
        )
        + "\n"
    )
    return config


def test_the_four_sets_are_the_whole_deck() -> None:
    faces = [f for n in (1, 2, 3, 4) for f in faces_of_set(n)]
    assert sorted(faces) == sorted(r + s for r in RANKS for s in SUITS)
    assert {f[-1] for f in faces_of_set(1)} == set(SUITS) and [f[:-1] for f in faces_of_set(1)] == list(RANKS)
    with pytest.raises(ConfigError, match="do not fit between the markers"):
        deck_layout(MarkerLayout.rectangle(300.0, 250.0))


def test_teaching_a_serif_deck_through_the_command_then_checking_another_set(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = _config(tmp_path, _video(tmp_path / "set1.avi", SERIF, 1, 0))
    assert main(["camera", "deck", "--config", str(config), "--frames", "3"]) == 0
    out = capsys.readouterr().out
    assert "lay these 13 cards (set 1)" in out and " 1: AS " in out
    assert "saved to" in out and 'set card_templates = "' in out
    facts = json.loads((tmp_path / "deck" / "deck.json").read_text())
    assert 7.0 < facts["rank_mm"] < 10.0 and facts["inks"]["S"] == facts["inks"]["C"]  # one black ink for two suits
    assert all((tmp_path / "deck" / f"rank-{r}.png").is_file() for r in RANKS)

    # later: another set of the same deck, read with what was taught
    config = _config(tmp_path, _video(tmp_path / "set3.avi", SERIF, 3, 5), f'card_templates = "{tmp_path / "deck"}"')
    code = main(["camera", "deck", "--config", str(config), "--check", "--set", "3", "--frames", "3"])
    out = capsys.readouterr().out
    assert "0 MISREAD" in out, out
    right = sum(line.endswith(" ok") for line in out.splitlines())
    assert right >= 11, out
    assert code == (0 if right == 13 else 1)


def test_a_jumbo_index_is_read_only_once_taught(tmp_path: Path) -> None:
    """The test that fails when teaching is skipped: untaught, no jumbo index is read at all."""
    settings = VisionSettings(markers=MARKERS)
    taught, cards = teach(laid_deck_picture(MARKERS, JUMBO, 1, 0), settings, deck_layout(MARKERS, 1))
    assert 11.0 < taught.rank_mm < 14.0 and len(cards) == 13
    taught.save(tmp_path)
    for set_number in (2, 4):
        layout = deck_layout(MARKERS, set_number)
        picture = laid_deck_picture(MARKERS, JUMBO, set_number, 11 + set_number)
        with_deck = read_laid([picture] * 3, VisionSettings(markers=MARKERS, card_templates=str(tmp_path)), layout)
        untaught = read_laid([picture] * 3, settings, layout)
        assert not any(r.wrong for r in with_deck + untaught), [r.line() for r in with_deck + untaught]
        assert sum(r.right for r in with_deck) >= 10, [r.line() for r in with_deck]
        assert sum(r.right for r in untaught) == 0


def test_a_card_missing_from_its_place_is_one_clear_error() -> None:
    layout = deck_layout(MARKERS, 1)
    scene = laid_deck_scene(layout, MARKERS, SERIF, 0)
    scene = replace(scene, cards=scene.cards[:-1])  # the K of spades was not laid
    with pytest.raises(ConfigError, match="no index at place 13 \\(KS\\)"):
        teach(render(scene), VisionSettings(markers=MARKERS), layout)


def test_index_sizes_in_the_config() -> None:
    assert VisionSettings.from_mapping({"card_rank_mm": 12.5, "card_suit_mm": 9}).card_rank_mm == 12.5
    for key, value in (("card_rank_mm", 40), ("card_suit_mm", 1), ("card_rank_mm", "big")):
        with pytest.raises(ConfigError, match=f"camera.{key}: "):
            VisionSettings.from_mapping({key: value})


def test_a_four_colour_deck_is_taught_its_inks_from_the_camera(tmp_path: Path) -> None:
    taught, _ = teach(laid_deck_picture(MARKERS, FOUR_COLOUR, 1, 0), VisionSettings(markers=MARKERS), deck_layout(MARKERS, 1))
    assert [ink_name(taught.inks[s]) for s in SUITS] == ["black", "red", "blue", "green"]
    taught.save(tmp_path)
    layout = deck_layout(MARKERS, 2)
    reads = read_laid([laid_deck_picture(MARKERS, FOUR_COLOUR, 2, 3)] * 3, VisionSettings(markers=MARKERS, card_templates=str(tmp_path)), layout)
    assert not any(r.wrong for r in reads) and sum(r.right for r in reads) >= 12, [r.line() for r in reads]


@pytest.mark.skipif(svg_deck() is None, reason="the SVG deck is not installed (make decks)")
def test_a_real_decks_svg_faces_are_taught_though_big_pips_stand_beside_a_small_index(tmp_path: Path) -> None:
    """Its pips stand level with the index: they must not be taken for part of the rank."""
    deck = svg_deck()
    taught, cards = teach(laid_deck_picture(MARKERS, deck, 1, 0), VisionSettings(markers=MARKERS), deck_layout(MARKERS, 1))
    widths_mm = {c.place.face: c.rank.shape[1] / 3.0 for c in cards}  # the corner is read at 3 px/mm
    assert 8.0 < taught.rank_mm < 10.5 and all(w < (12.0 if face.startswith("10") else 7.0) for face, w in widths_mm.items()), widths_mm
    taught.save(tmp_path)
    layout = deck_layout(MARKERS, 4)
    reads = read_laid([laid_deck_picture(MARKERS, deck, 4, 2)] * 3, VisionSettings(markers=MARKERS, card_templates=str(tmp_path)), layout)
    assert not any(r.wrong for r in reads) and sum(r.right for r in reads) >= 10, [r.line() for r in reads]


@pytest.mark.skipif(svg_deck() is None, reason="the SVG deck is not installed (make decks)")
def test_a_taught_svg_decks_spades_the_shared_outline_limits_refused_are_read_by_its_own_outlines(tmp_path: Path) -> None:
    """Seed 1 of bench/vision.py's deck-svg/taught row: its K and J of spades were unknown (their
    outline's *top*, 0.30, is this deck's club's too, so the shared limits named neither suit,
    and the spade template led by too little). The deck's own outlines, learnt when it is taught
    (its club as wide as it is tall, its spade 0.74 as wide), name both spades."""
    taught = teach_rendered(svg_deck(), tmp_path)
    assert set(taught.outlines) == set(SUITS) and taught.outlines["C"][2] - taught.outlines["S"][2] > 0.2, taught.outlines
    assert json.loads((tmp_path / "deck.json").read_text())["outlines"]["S"] == [round(v, 4) for v in taught.outlines["S"]]
    condition = BY_NAME["deck-svg"]
    faces = run_trial("cards", condition, [1], configure=lambda s: replace(s, card_templates=str(tmp_path))).outcome("card faces")
    assert faces.wrong == 0 and faces.correct >= 10, faces  # was 8 of 11 (3 unknown)


def test_a_decks_own_outlines_decide_only_when_they_lie_far_apart() -> None:
    """The SVG deck's taught spade and club (8.8 noise widths apart) tell an outline between the
    shared limits; the small-index deck's (4.3 apart) do not: its clubs through noise reduction
    reach its spade's outline. A spade so named still needs its template to lean towards it."""
    svg = {"S": (0.357, 1.035, 0.737), "C": (0.368, 0.967, 1.0)}
    small = {"S": (0.25, 1.061, 0.952), "C": (0.349, 1.006, 0.955)}
    assert suit_by_taught_outline((0.30, 1.011, 0.75), ("S", "C"), svg) == "S"
    assert suit_by_taught_outline((0.316, 0.961, 0.95), ("S", "C"), svg) == "C"
    assert suit_by_taught_outline((0.36, 1.0, 0.87), ("S", "C"), svg) is None  # halfway: not sure
    assert suit_by_taught_outline(small["S"], ("S", "C"), small) is None
    assert suit_by_taught_outline((0.6, 0.95, 0.9), ("H", "D"), {**svg, "H": (0.7, 0.95, 1.0), "D": (0.3, 1.0, 0.7)}) is None
    seen = SuitEvidence(("S", "C"), (0.30, 1.011), None, None, {"S": 0.977, "C": 0.95}, 0.0, 1.0, 1.0, taught="S", taught_lean=0.43)
    assert seen.decide(own=True) == ("S", 0.977)
    assert replace(seen, taught_lean=-0.1).decide(own=True) == (None, 0.0)
    assert seen.decide(own=False) == (None, 0.0)
