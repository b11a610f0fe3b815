"""Suit margins on camera-processed frames (issue 23): what the suit decision sees when a webcam's
processing (Bayer demosaic and sharpening, high ISO, noise reduction) has been over the picture,
and whether its limits hold there, for the built-in deck and other decks, untaught and taught.

For each condition, deck and template set, The Mountain's pyramid is rendered (seeds from
``--first-seed``: by default none of the robustness rows' 0..11), through the condition; the frame
is corrected against the markers' white paper as the pipeline does, each visible slot's corner is
read one at a time, and every suit decision between two suits of one colour is kept with the
truth. Printed per row: how many spades/clubs and hearts/diamonds were named by the outline's
strict limits, confirmed at its looser limits, or left unknown, and how many named wrong; then
the margins that matter: the template's margin (untaught) or lean (the deck's own glyphs) of
the suits named at the looser limits, the least of those right and the largest of those wrong.

    .venv/bin/python bench/suit_margins.py [--scenes 6] [--first-seed 100] [--conditions bayer-sharpen high-iso]
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import tempfile
from pathlib import Path

_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
from collections.abc import Sequence  # noqa: E402

import numpy as np  # noqa: E402

from vision.calibration import calibrate  # noqa: E402
from vision.detectors.cardfaces import GlyphTemplates, read_index, templates_for  # noqa: E402
from vision.detectors.cards import CORNER_MM, CORNER_PX_PER_MM, PyramidDetector  # noqa: E402
from vision.detectors.suits import OWN_STRICT_LEAN, OWN_SUIT_SHARE, SUIT_MARGIN, SuitEvidence  # noqa: E402
from vision.frame import Frame  # noqa: E402
from vision.lighting import TableLight  # noqa: E402
from vision.render.camera import render  # noqa: E402
from vision.render.conditions import BY_NAME, SVG, with_deck  # noqa: E402
from vision.render.decks import JUMBO, SERIF, SMALL_INDEX, Deck  # noqa: E402
from vision.render.laid_deck import teach_rendered  # noqa: E402
from vision.render.perturb import PERTURBATIONS, Perturbation  # noqa: E402
from vision.render.robustness import decode, mjpg  # noqa: E402
from vision.render.scenes import make_scene  # noqa: E402
from vision.settings import VisionSettings  # noqa: E402

CONDITIONS: dict[str, Perturbation] = {**{p.name: p for p in PERTURBATIONS}, **BY_NAME}
DECKS: dict[str, Deck | None] = {"builtin": None, "serif": SERIF, "small": SMALL_INDEX, "jumbo": JUMBO, "svg": SVG}


@dataclasses.dataclass(frozen=True)
class Recording(GlyphTemplates):
    """The same templates, keeping each suit decision's evidence as the reader makes it."""

    kept: list[SuitEvidence] = dataclasses.field(default_factory=list, compare=False)

    def suit(self, ink: np.ndarray, px_per_mm: float, candidates: tuple[str, ...], blur: int) -> tuple[str | None, float]:
        evidence = self.suit_evidence(ink, px_per_mm, candidates, blur)
        self.kept.append(evidence)
        return evidence.decide(self.own)


def recording(templates: GlyphTemplates) -> Recording:
    return Recording(**{f.name: getattr(templates, f.name) for f in dataclasses.fields(templates)})


@dataclasses.dataclass
class Row:
    named_strict: int = 0
    named_loose: int = 0
    unknown: int = 0
    wrong: int = 0
    loose_right: list[float] = dataclasses.field(default_factory=list)
    loose_wrong: list[float] = dataclasses.field(default_factory=list)
    """Margin (or lean) of suits the looser limits named, right and wrong, confirmed or not."""
    strict_right: list[float] = dataclasses.field(default_factory=list)
    strict_wrong: list[float] = dataclasses.field(default_factory=list)
    """Lean of suits the strict limits named, right and wrong, kept or not (the deck's own glyphs)."""


def run(condition: Perturbation, deck: Deck | None, templates: GlyphTemplates, seeds: Sequence[int]) -> dict[str, Row]:
    rows = {"S/C": Row(), "H/D": Row()}
    for seed in seeds:
        scene = make_scene("cards", seed, "easy")
        rng = np.random.default_rng([seed, sum(map(ord, condition.name)), 23])
        scene = with_deck(deck)(scene, rng)
        clean, test = condition.frames(scene, render, rng)
        clean, test = decode(mjpg(clean)), decode(mjpg(test))
        calibration = calibrate(clean, scene.layout)
        light = TableLight(scene.layout)
        light.correct(clean, calibration)
        corrected, calibration = light.correct(test, calibration)
        detector = PyramidDetector(VisionSettings(markers=scene.layout), templates)
        slots = tuple(z for z in scene.zones if z.kind.camera is detector.watches)
        stacked = detector.corners(Frame(corrected, 1.0), calibration, slots)
        pitch = stacked.shape[0] // len(slots)
        height = detector._size[1]
        for k, zone in enumerate(slots):
            truth = scene.truth.states[zone.name]
            if not truth["occupied"]:
                continue
            face = str(truth["card"])
            rec = recording(templates)
            read_index(stacked[k * pitch : k * pitch + height], CORNER_PX_PER_MM, (CORNER_MM[0], CORNER_MM[1]), rec, 0.0)
            for evidence in rec.kept[-1:]:  # the index's suit (earlier ones: marks tried and passed over)
                if len(evidence.candidates) != 2:
                    continue
                row = rows["S/C" if set(evidence.candidates) == {"S", "C"} else "H/D"]
                named, _ = evidence.decide(templates.own)
                if named is None:
                    row.unknown += 1
                elif evidence.strict is not None:
                    row.named_strict += 1
                else:
                    row.named_loose += 1
                row.wrong += named is not None and named != face[-1]
                if evidence.strict is not None:
                    (row.strict_right if evidence.strict == face[-1] else row.strict_wrong).append(evidence.lean)
                if evidence.strict is None and evidence.loose is not None:
                    measure = evidence.lean if templates.own else evidence.margin
                    (row.loose_right if evidence.loose == face[-1] else row.loose_wrong).append(measure)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenes", type=int, default=6)
    parser.add_argument("--first-seed", type=int, default=100)
    parser.add_argument("--conditions", nargs="+", default=["none", "bayer-sharpen", "high-iso", "noise-reduced"], help="webcam and room conditions (not the deck-* ones: the deck is chosen here)")
    parser.add_argument("--decks", nargs="+", default=list(DECKS), choices=list(DECKS))
    args = parser.parse_args(argv)
    seeds = range(args.first_seed, args.first_seed + args.scenes)
    print(f"Suit decisions between two suits of one colour, {args.scenes} pyramid scenes per row (seeds {seeds[0]}..{seeds[-1]}), easy level.")
    print(f"looser limits confirmed by: untaught, the template's margin >= {SUIT_MARGIN}; taught, its lean >= {OWN_SUIT_SHARE}.")
    head = (
        f"{'condition':<14} {'deck':<8} {'glyphs':<8} {'pair':<4} {'strict':>6} {'loose':>6} {'unknown':>7} {'WRONG':>6}"
        "   loose limits: least right / largest wrong (margin or lean)   strict: least lean right / largest wrong"
    )
    print(head)
    print("-" * len(head))
    worst: dict[bool, float] = {False: -1.0, True: -1.0}
    worst_strict = -1.0
    pooled: dict[str, list[float]] = {k: [] for k in ("untaught right", "untaught wrong", "taught right", "taught wrong", "strict right", "strict wrong")}
    wrong_total = 0
    for name in args.conditions:
        condition = CONDITIONS[name]
        for deck_name in args.decks:
            deck = DECKS[deck_name]
            if deck_name == "svg" and deck is None:
                print(f"{name:<14} {deck_name:<8} (the SVG deck is not installed: make decks)")
                continue
            with tempfile.TemporaryDirectory(prefix="suit-deck-") as folder:
                teach_rendered(deck, folder)
                sets = {"untaught": templates_for(VisionSettings()), "taught": GlyphTemplates.from_directory(folder)}
                for glyphs, templates in sets.items():
                    for pair, row in run(condition, deck, templates, seeds).items():
                        right = f"{min(row.loose_right):.3f}" if row.loose_right else "-"
                        bad = f"{max(row.loose_wrong):.3f}" if row.loose_wrong else "-"
                        if row.loose_wrong:
                            worst[templates.own] = max(worst[templates.own], max(row.loose_wrong))
                        wrong_total += row.wrong
                        kind = "taught" if templates.own else "untaught"
                        pooled[f"{kind} right"] += row.loose_right
                        pooled[f"{kind} wrong"] += row.loose_wrong
                        if templates.own:
                            pooled["strict right"] += row.strict_right
                            pooled["strict wrong"] += row.strict_wrong
                        strict = ""
                        if templates.own:
                            strict = f"{min(row.strict_right):.3f}" if row.strict_right else "-"
                            strict += f" / {max(row.strict_wrong):.3f}" if row.strict_wrong else " / -"
                            if row.strict_wrong:
                                worst_strict = max(worst_strict, max(row.strict_wrong))
                        print(f"{name:<14} {deck_name:<8} {glyphs:<8} {pair:<4} {row.named_strict:>6} {row.named_loose:>6} {row.unknown:>7} {row.wrong:>6}   {right:>6} / {bad:<6}{'':<28}{strict}")
                        sys.stdout.flush()
    print()
    print(f"suits named wrong: {wrong_total}")
    print(f"largest margin of a wrong suit at the looser limits, untaught: {worst[False]:.3f} (limit {SUIT_MARGIN}); taught, lean: {worst[True]:.3f} (limit {OWN_SUIT_SHARE})")
    print(f"largest lean of a wrong suit at the strict limits, taught: {worst_strict:.3f} (kept above {OWN_STRICT_LEAN})")
    print("what other limits would keep (right / wrong, of the suits each rule sees):")
    for kind, limits in (("untaught", (0.004, 0.008, 0.0107, 0.012, 0.016)), ("taught", (0.3, 0.4, 0.5, 0.6, 0.7)), ("strict", (-0.5, -0.2, 0.0, 0.2))):
        rights, wrongs = pooled[f"{kind} right"], pooled[f"{kind} wrong"]
        cells = [f">= {v:g}: {sum(m >= v for m in rights)} / {sum(m >= v for m in wrongs)}" for v in limits]
        label = {"untaught": "untaught looser limits", "taught": "taught looser limits", "strict": "taught strict limits"}[kind]
        print(f"  {label:<24} of {len(rights)} right, {len(wrongs)} wrong:  " + ";  ".join(cells))
    return 0 if wrong_total == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
