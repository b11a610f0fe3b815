"""Vision accuracy and speed on rendered tables with exact ground truth.

For each detector and each difficulty level (easy, middle, hard: perspective, blur, noise,
uneven light, shadows, a hand over the table), a fixed, seeded set of 1280x720 scenes is rendered;
the detector's answer is scored against the truth and timed. Zones (and pawns, and card corners)
mostly under the hand are not scored: no camera sees through a hand, and the stability tracker
waits for it to pass. Rendering is not timed.

    .venv/bin/python bench/vision.py [--scenes 50] [--levels easy middle hard] [--threads 1] [--json]
    .venv/bin/python bench/vision.py --section robustness [--robust-scenes 12] [--quick] [--conditions oak phone ...]
    .venv/bin/python bench/vision.py --section robustness --detectors cards --conditions deck-serif deck-serif/taught
    .venv/bin/python bench/vision.py --section everyday [--robust-scenes 12]

A deck condition's ``/taught`` row first teaches that deck as ``companion camera deck`` does (13 of
its cards laid on the table, one camera picture; vision/deck_teach.py), then reads with it.

The robustness section shows the same tables in a real room (vision/render/perturb.py: light that
changed colour after calibration, shadows, glare, blur, noise, JPEG, lens distortion, a bumped
camera, a resting hand, clutter) and at a real table (vision/render/conditions.py: other table
tops and decks, a webcam's processing, a lit phone, a glass, cards laid by hand) through the
whole per-frame pipeline (white reference, unseen zones, detectors; vision/render/robustness.py)
and counts, per detector and perturbation, views that are correct, unsure (the camera says it
cannot see) and wrong-but-confident. Its times per frame include the MJPG decode and a full
marker search.

Targets (DESIGN.md): >= 99.5% correct zone states, cube colours and pawn squares at the middle
level; < 25 ms per frame. Card faces are reported as measured (docs/vision.md says on what).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

# Run as a script, this file's folder comes first on sys.path and its name would hide the
# ``vision`` package; take the folder off before importing it.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import cv2  # noqa: E402

from vision.calibration import Calibration, CalibrationError, CalibrationTracker, calibrate
from vision.detectors.cards import PyramidDetector
from vision.detectors.common import Detector
from vision.detectors.cubes import CubeDetector
from vision.detectors.occupancy import OccupancyDetector
from vision.detectors.pawns import PawnDetector
from vision.frame import Frame
from vision.render.camera import render
from vision.render.conditions import EVERYDAY, REAL_TABLE, SVG, Condition
from vision.render.decks import FOUR_COLOUR, JUMBO, SERIF, SMALL_INDEX, Deck
from vision.render.laid_deck import teach_rendered
from vision.render.perturb import PERTURBATIONS, Perturbation
from vision.render.robustness import Trial, run_trial
from vision.render.scene import Scene
from vision.render.scenes import LEVELS, make_scene
from vision.settings import VisionSettings

DECKS: dict[str, Deck | None] = {"deck-serif": SERIF, "deck-small": SMALL_INDEX, "deck-jumbo": JUMBO, "deck-4colour": FOUR_COLOUR, "deck-svg": SVG}
"""The deck conditions that also run taught (``NAME/taught``)."""
TARGET = 0.995
TARGET_MS = 25.0
WRONG_AT_MOST = 0.01
ROBUST_CORRECT = 0.95
ROBUST_TARGETS = ("wb-partial", "shadow-35", "glare-4", "jpeg-50", "bump-2px")
"""Perturbations under which zones, cubes, pawns and pyramid occupancy must be >= 95 % correct."""
EVERYDAY_CORRECT = 0.90
"""On an everyday table (vision/render/conditions.py EVERYDAY) every measure, card faces included."""


@dataclass
class Tally:
    scored: int = 0
    correct: int = 0
    hidden: int = 0

    def add(self, ok: bool) -> None:
        self.scored += 1
        self.correct += ok

    @property
    def accuracy(self) -> float:
        return self.correct / self.scored if self.scored else float("nan")


@dataclass
class Row:
    detector: str
    level: str
    scenes: int = 0
    tallies: dict[str, Tally] = field(default_factory=dict)
    detect_ms: list[float] = field(default_factory=list)
    frame_ms: list[float] = field(default_factory=list)
    frame_cpu_ms: list[float] = field(default_factory=list)
    calibrate_ms: list[float] = field(default_factory=list)
    calibration_failed: int = 0
    marker_under_hand: int = 0

    def tally(self, name: str) -> Tally:
        return self.tallies.setdefault(name, Tally())


def _detector(kind: str, settings: VisionSettings) -> Detector:
    if kind == "occupancy":
        return OccupancyDetector(settings)
    if kind == "cubes":
        return CubeDetector(settings)
    if kind == "pawns":
        return PawnDetector(settings)
    return PyramidDetector(settings)


def score(kind: str, scene: Scene, observations: list[Any], row: Row) -> None:
    truth = scene.truth
    seen = {o.payload["zone"]: o.payload["state"] for o in observations}
    if kind == "pawns":
        pawns = seen.get("grid", {}).get("pawns", {})
        for colour, square in truth.pawn_squares.items():
            if colour in truth.hidden_pawns:
                row.tally("pawn squares").hidden += 1
                continue
            got = pawns.get(colour)
            row.tally("pawn squares").add((tuple(got) if got else None) == square)
        return
    for zone, expected in truth.states.items():
        got = seen.get(zone)
        if kind == "cards":
            if zone in truth.hidden_zones:
                row.tally("slots occupied").hidden += 1
            else:
                row.tally("slots occupied").add(got is not None and got["occupied"] == expected["occupied"])
            if expected["occupied"]:
                if zone in truth.hidden_faces:
                    row.tally("card faces").hidden += 1
                    row.tally("card ranks").hidden += 1
                else:
                    # a face is named only when the read is sure: accuracy is of the faces named
                    card = got["card"] if got else None
                    row.tally("faces named").add(card is not None)
                    if card is not None:
                        row.tally("card faces").add(card == expected["card"])
                        row.tally("card ranks").add(card[:-1] == str(expected["card"])[:-1])
            continue
        name = "zone states" if kind == "occupancy" else "cube zones"
        if zone in truth.hidden_zones:
            row.tally(name).hidden += 1
        else:
            row.tally(name).add(got == expected)


def timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    start = time.perf_counter()
    out = fn()
    return out, (time.perf_counter() - start) * 1000


def cpu_timed(fn: Callable[[], Any]) -> tuple[Any, float, float]:
    """(result, wall ms, this thread's CPU ms): CPU time is what the work costs when other
    programs share the cores; wall time is what a frame waited."""
    cpu = time.thread_time()
    out, wall = timed(fn)
    return out, wall, (time.thread_time() - cpu) * 1000


def run_one(kind: str, level: str, scenes: int) -> Row:
    row = Row(kind, level)
    for seed in range(scenes):
        scene = make_scene(kind, seed, level)
        image = render(scene)
        settings = VisionSettings(markers=scene.layout)
        try:
            cal, ms = timed(lambda: calibrate(image, scene.layout))
        except CalibrationError:
            # The pipeline calibrates before the hand comes and keeps it while a marker is hidden;
            # do the same: calibrate on the table without the hand.
            if scene.hand is None:
                row.calibration_failed += 1
                continue
            row.marker_under_hand += 1
            try:
                cal, ms = timed(lambda: calibrate(render(dataclasses.replace(scene, hand=None)), scene.layout))
            except CalibrationError:
                row.calibration_failed += 1
                continue
        assert isinstance(cal, Calibration)
        row.calibrate_ms.append(ms)
        tracker = CalibrationTracker(scene.layout)
        tracker.adopt(cal, 1.0)  # steady state: calibrated, re-checking one marker a frame
        detector = _detector(kind, settings)
        frame = Frame(image, 1.0)
        detector(frame, cal, scene.zones)  # first call builds the zone rasters (once per table)
        _, track_ms, track_cpu = cpu_timed(lambda: tracker.update(image, 1.0))
        observations, detect_ms, detect_cpu = cpu_timed(lambda: detector(frame, cal, scene.zones))
        row.detect_ms.append(detect_ms)
        row.frame_ms.append(track_ms + detect_ms)
        row.frame_cpu_ms.append(track_cpu + detect_cpu)
        row.scenes += 1
        score(kind, scene, observations, row)
    return row


def print_table(rows: list[Row], args: argparse.Namespace) -> None:
    print(f"Vision benchmark: {args.scenes} rendered 1280x720 scenes per detector and level (seeds 0..{args.scenes - 1}),")
    print(f"OpenCV {cv2.__version__}, {cv2.getNumThreads()} OpenCV thread(s); times are medians per frame, rendering excluded.")
    print()
    head = (
        f"{'detector':<10} {'level':<7} {'measure':<15} {'scored':>6} {'hidden':>6} {'correct':>7} {'accuracy':>9}"
        f"  {'detect ms':>9} {'frame ms':>8} {'frame cpu':>9}"
    )
    print(head)
    print("-" * len(head))
    for row in rows:
        first = True
        for name, t in row.tallies.items():
            det = f"{statistics.median(row.detect_ms):9.2f}" if first and row.detect_ms else " " * 9
            frm = f"{statistics.median(row.frame_ms):8.2f}" if first and row.frame_ms else " " * 8
            cpu = f"{statistics.median(row.frame_cpu_ms):9.2f}" if first and row.frame_cpu_ms else " " * 9
            mark = ""
            if row.level == "middle" and name in ("zone states", "cube zones", "pawn squares", "slots occupied"):
                mark = "  ok" if t.accuracy >= TARGET else "  BELOW TARGET"
            print(f"{row.detector if first else '':<10} {row.level if first else '':<7} {name:<15} {t.scored:>6} {t.hidden:>6} {t.correct:>7} {100 * t.accuracy:8.2f}%  {det} {frm} {cpu}{mark}")
            first = False
    print()
    cal = [ms for row in rows for ms in row.calibrate_ms]
    failed = sum(r.calibration_failed for r in rows)
    under = sum(r.marker_under_hand for r in rows)
    frame_all = [ms for row in rows for ms in row.frame_ms]
    print(f"full calibration (all four markers found from scratch): median {statistics.median(cal):.1f} ms over {len(cal)} frames;")
    print(f"  failed on {failed} scenes; a hand covered a marker in {under} more (calibrated on the frame without the hand).")
    slowest = max(statistics.median(r.frame_ms) for r in rows if r.frame_ms)
    slowest_cpu = max(statistics.median(r.frame_cpu_ms) for r in rows if r.frame_cpu_ms)
    p95 = sorted(frame_all)[int(0.95 * (len(frame_all) - 1))]
    print("frame = one marker re-check + the detector, wall clock; frame cpu = the same in CPU time.")
    print(f"slowest detector/level median {slowest:.2f} ms wall, {slowest_cpu:.2f} ms CPU (target < {TARGET_MS:.0f} ms);"
          f" 95th percentile over all frames {p95:.2f} ms wall.")


def _hidden_unseen(condition: Condition, trial: Trial) -> bool:
    """Print how the colours ``condition``'s table hides were read; True when every pawn of them was unsure."""
    ok = True
    for colour in condition.hides:
        o = trial.pawn_colours.get(colour)
        if o is None:
            continue
        met = o.unsure == o.total
        ok = ok and met
        print(f"{'':<10} {'':<19} {colour + ' pawns':<15} {o.total:>5} unsure {o.unsure}, correct {o.correct}, wrong {o.wrong}{'' if met else '  NOT ALL UNSEEN'}")
    return ok


def run_robustness(kinds: list[str], scenes: int, names: list[str] | None = None) -> bool:
    """Print the robustness table; True when every target is met."""
    print(f"Robustness: {scenes} scenes per detector (easy level, seeds 0..{scenes - 1}), each perturbation applied after the table")
    print("was set up on its clean frame; every frame MJPG-compressed (JPEG q90) as a USB camera sends it.")
    print("times per frame: decode = JPEG decode; search = a full marker search; frame = marker re-check, white")
    print("reference, unseen zones and the detector; total = all three.")
    print()
    head = (
        f"{'detector':<10} {'perturbation':<19} {'measure':<15} {'n':>5} {'correct':>8} {'unsure':>7} {'wrong':>7}"
        f"  {'decode':>6} {'search':>6} {'frame':>6} {'total':>6}"
    )
    print(head)
    print("-" * len(head))
    ok = True
    worst_total = 0.0
    conditions: list[Perturbation] = [*PERTURBATIONS, *REAL_TABLE, *taught_decks()]
    if names:
        conditions = [p for p in conditions if p.name in names]
    missing_svg = False
    for kind in kinds:
        for p in conditions:
            if isinstance(p, Condition) and kind not in p.detectors:
                continue
            if isinstance(p, Condition) and "svg" in p.name and not _svg_installed():
                missing_svg = True
                print(f"{kind:<10} {p.name:<19} (the SVG deck is not installed: make decks)")
                continue
            trial = taught_trial(kind, p, scenes) if isinstance(p, Taught) else run_trial(kind, p, range(scenes))
            dec = statistics.median(trial.decode_ms) if trial.decode_ms else float("nan")
            sea = statistics.median(trial.search_ms) if trial.search_ms else float("nan")
            frm = statistics.median(trial.frame_ms) if trial.frame_ms else float("nan")
            worst_total = max(worst_total, dec + sea + frm)
            first = True
            for name, o in trial.outcomes.items():
                marks = []
                if o.share("wrong") > WRONG_AT_MOST:
                    marks.append("WRONG > 1%")
                    ok = False
                if p.name in ROBUST_TARGETS and name != "card faces" and o.share("correct") < ROBUST_CORRECT:
                    marks.append("CORRECT < 95%")
                    ok = False
                if p.name in EVERYDAY and o.share("correct") < EVERYDAY_CORRECT:
                    marks.append("CORRECT < 90%")
                    ok = False
                times = f"  {dec:6.1f} {sea:6.1f} {frm:6.1f} {dec + sea + frm:6.1f}" if first else ""
                print(
                    f"{kind if first else '':<10} {p.name if first else '':<19} {name:<15} {o.total:>5} {100 * o.share('correct'):7.1f}%"
                    f" {100 * o.share('unsure'):6.1f}% {100 * o.share('wrong'):6.1f}%{times}{'  ' + ', '.join(marks) if marks else ''}"
                )
                first = False
            if trial.setup_failed:
                print(f"{'':<10} {'':<19} (the table could not be calibrated in {trial.setup_failed} scenes: all its zones counted unsure)")
            if isinstance(p, Condition) and p.hides and trial.pawn_colours:
                ok = _hidden_unseen(p, trial) and ok
            sys.stdout.flush()
    print()
    print("targets: wrong-but-confident <= 1 % for every detector and perturbation; zones, cubes, pawns and pyramid")
    print(f"occupancy >= 95 % correct under {', '.join(ROBUST_TARGETS)}; every measure >= 90 % correct on an everyday")
    print(f"table ({', '.join(EVERYDAY)}).  slowest median total {worst_total:.1f} ms per frame.")
    print("a table that hides a pawn colour (board-yellow) leaves every pawn of that colour unsure.")
    print("perturbations:")
    for p in conditions:
        print(f"  {p.name:<19} {p.description}")
    if missing_svg:
        print("the SVG deck's rows were not run: `make decks` installs it (npm), cairosvg draws it (the test extra)")
        ok = False
    print("all targets met" if ok else "some targets NOT met (marked above)")
    return ok


@dataclasses.dataclass(frozen=True)
class Taught(Condition):
    """A deck condition whose deck is first taught by ``companion camera deck``'s teaching
    (:func:`vision.render.laid_deck.teach_rendered`), then read with what it learnt."""

    deck: Deck | None = None


def taught_decks() -> list[Taught]:
    """``deck-serif/taught`` and the like: each other deck, taught."""
    out = []
    for condition in REAL_TABLE:
        deck = DECKS.get(condition.name)
        if deck is not None:
            fields = {f.name: getattr(condition, f.name) for f in dataclasses.fields(condition)}
            fields.update(name=f"{condition.name}/taught", description=f"{condition.description.replace(', not taught', '').replace(' (templates not taught)', '')}: taught from 13 of its cards first")
            out.append(Taught(**fields, deck=deck))
    return out


def taught_trial(kind: str, condition: Taught, scenes: int) -> Trial:
    """The condition's scenes read with the deck taught as a table would teach it."""
    with tempfile.TemporaryDirectory(prefix="taught-deck-") as folder:
        teach_rendered(condition.deck, folder)
        return run_trial(kind, condition, range(scenes), configure=lambda s: dataclasses.replace(s, card_templates=folder))
EVERYDAY_SET: tuple[tuple[str, str], ...] = (
    ("normal", "none"),
    ("wood", "oak"),
    ("green felt", "green-felt"),
    ("webcam", "bayer-sharpen"),
    ("lens shading", "lens-shading"),
    ("laid by hand", "by-hand"),
    ("taught deck", "deck-svg/taught"),
)
"""Issue 23's everyday set: (label, condition) at the easy level. "normal" is the renderer's own
tables, whose cards are the renderer's own deck (the built-in glyph templates were cut from it);
then a bare wood table, green baize, a webcam's Bayer demosaic and sharpening, its lens
shading, cards laid by hand, and an ordinary deck taught: a real deck design (the cardsJS SVG
faces) taught as ``companion camera deck`` teaches it, then read with what it learnt. Target:
correct >= 90 % and wrong <= 1 % on every row."""


def run_everyday(kinds: list[str], scenes: int) -> bool:
    """Print correct and confidently-wrong shares per detector on the everyday set; True when
    every row meets the target."""
    by_name: dict[str, Perturbation] = {p.name: p for p in [*PERTURBATIONS, *REAL_TABLE, *taught_decks()]}
    print(f"Everyday set: {scenes} scenes per detector and condition (easy level, seeds 0..{scenes - 1}), whole pipeline, MJPG frames.")
    head = f"{'detector':<10} {'condition':<13} {'measure':<15} {'n':>5} {'correct':>8} {'unsure':>7} {'wrong':>7}"
    print(head)
    print("-" * len(head))
    ok = True
    for kind in kinds:
        pooled: dict[str, list[int]] = {}
        for label, name in EVERYDAY_SET:
            p = by_name[name]
            if isinstance(p, Condition) and kind not in p.detectors:
                continue
            if isinstance(p, Condition) and "svg" in p.name and not _svg_installed():
                print(f"{kind:<10} {label:<13} (the SVG deck is not installed: make decks; cairosvg draws it, the test extra)")
                ok = False
                continue
            trial = taught_trial(kind, p, scenes) if isinstance(p, Taught) else run_trial(kind, p, range(scenes))
            for measure, o in trial.outcomes.items():
                marks = []
                if o.share("wrong") > WRONG_AT_MOST:
                    marks.append("WRONG > 1%")
                if o.share("correct") < EVERYDAY_CORRECT:
                    marks.append("CORRECT < 90%")
                ok = ok and not marks
                row = pooled.setdefault(measure, [0, 0, 0])
                row[0], row[1], row[2] = row[0] + o.correct, row[1] + o.unsure, row[2] + o.wrong
                print(
                    f"{kind:<10} {label:<13} {measure:<15} {o.total:>5} {100 * o.share('correct'):7.1f}% {100 * o.share('unsure'):6.1f}%"
                    f" {100 * o.share('wrong'):6.1f}%{'  ' + ', '.join(marks) if marks else ''}"
                )
            sys.stdout.flush()
        for measure, (c, u, w) in pooled.items():
            n = c + u + w
            print(f"{kind:<10} {'(all)':<13} {measure:<15} {n:>5} {100 * c / n:7.1f}% {100 * u / n:6.1f}% {100 * w / n:6.1f}%")
    print()
    print(f"target: correct >= {100 * EVERYDAY_CORRECT:.0f} % and wrong <= {100 * WRONG_AT_MOST:.0f} % on every row;", "met" if ok else "NOT met (marked above)")
    return ok


def _svg_installed() -> bool:
    from vision.render.decks import svg_deck

    return svg_deck() is not None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenes", type=int, default=50, help="scenes per detector and level (default 50)")
    parser.add_argument("--levels", nargs="+", default=list(LEVELS), choices=list(LEVELS))
    parser.add_argument("--detectors", nargs="+", default=["occupancy", "cubes", "pawns", "cards"], choices=["occupancy", "cubes", "pawns", "cards"])
    parser.add_argument("--threads", type=int, default=1, help="OpenCV threads (default 1: one core's cost)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of the table (accuracy section)")
    parser.add_argument("--section", choices=["accuracy", "robustness", "everyday", "all"], help="default: all (accuracy only with --json)")
    parser.add_argument("--robust-scenes", type=int, default=12, help="scenes per detector in the robustness section (default 12)")
    parser.add_argument("--quick", action="store_true", help="10 scenes per level, 4 per robustness row: a minute or so")
    parser.add_argument("--conditions", nargs="+", help="robustness rows to run, by name (default: all)")
    args = parser.parse_args(argv)
    if args.section is None:
        args.section = "accuracy" if args.json else "all"
    if args.quick:
        args.scenes, args.robust_scenes = min(args.scenes, 10), min(args.robust_scenes, 4)
    if args.scenes < 1:
        parser.error("--scenes must be at least 1")
    cv2.setNumThreads(args.threads)
    if args.section == "everyday":
        return 0 if run_everyday(args.detectors, args.robust_scenes) else 1
    robust_ok = True
    if args.section in ("robustness", "all"):
        robust_ok = run_robustness(args.detectors, args.robust_scenes, args.conditions)
        if args.section == "robustness":
            return 0 if robust_ok else 1
        print()
    rows = [run_one(kind, level, args.scenes) for kind in args.detectors for level in args.levels]
    if args.json:
        out = [
            {
                "detector": r.detector,
                "level": r.level,
                "scenes": r.scenes,
                "median_detect_ms": statistics.median(r.detect_ms) if r.detect_ms else None,
                "median_frame_ms": statistics.median(r.frame_ms) if r.frame_ms else None,
                "median_frame_cpu_ms": statistics.median(r.frame_cpu_ms) if r.frame_cpu_ms else None,
                "calibration_failed": r.calibration_failed,
                "measures": {n: {"scored": t.scored, "hidden": t.hidden, "correct": t.correct, "accuracy": t.accuracy} for n, t in r.tallies.items()},
            }
            for r in rows
        ]
        print(json.dumps(out, indent=2))
    else:
        print_table(rows, args)
    middle_ok = all(
        t.accuracy >= TARGET
        for r in rows
        if r.level == "middle"
        for n, t in r.tallies.items()
        if n in ("zone states", "cube zones", "pawn squares", "slots occupied")
    )
    return 0 if middle_ok and robust_ok else 1


if __name__ == "__main__":
    sys.exit(main())
