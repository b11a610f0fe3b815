"""``companion camera check``: is the camera good enough where it hangs, and what to change
(vision/camera_check.py). ``companion camera lens``: a one-time lens calibration with a printed
ChArUco board (vision/lens.py). ``companion camera deck``: teach the table's deck
(companion/cli/camera_deck.py)."""

from __future__ import annotations

import argparse
import logging
from typing import Any

from companion.core import Zone
from companion.core.errors import ConfigError

log = logging.getLogger(__name__)


def add_parser(sub: Any) -> None:
    p = sub.add_parser("camera", help="check the overhead camera, calibrate its lens, learn its colours or its deck")
    csub = p.add_subparsers(dest="camera_command", metavar="ACTION")
    csub.required = True
    c = csub.add_parser("check", help="measure focus, pixels per mm, exposure, white reference, glare and the mat; say what to fix")
    _source_args(c)
    c.add_argument("--frames", type=int, default=15, help="frames to read first, so the camera's exposure settles (default 15)")
    c.set_defaults(run=check)
    b = csub.add_parser("board", help="write the ChArUco board to print for `camera lens` (print at 100 %%: 30 mm squares)")
    b.add_argument("path", nargs="?", default="charuco-board.png")
    b.set_defaults(run=board)
    lens = csub.add_parser("lens", help="calibrate the lens once: move the printed ChArUco board round the whole picture")
    _source_args(lens, markers=False)
    lens.add_argument("--frames", type=int, default=300, help="frames to read (default 300: 30 s at 10 frames/s)")
    lens.add_argument("--every", type=int, default=10, help="use every Nth frame that shows the board (default 10)")
    lens.add_argument("--out", default="lens.json", help="where to save the calibration (set [camera] lens_file to it)")
    lens.set_defaults(run=calibrate_lens)
    col = csub.add_parser("colours", help="learn the cubes' (or pawns') colours from one of each, apart, in one zone")
    col.add_argument("--config", required=True, help="the table config: its [camera] source, markers and zones")
    col.add_argument("--zone", required=True, help="the zone holding one piece of each colour (e.g. cube-pile)")
    col.add_argument("--pieces", choices=["cubes", "pawns"], default="cubes")
    col.add_argument("--frames", type=int, default=15, help="frames to read first, so the camera's exposure settles (default 15)")
    col.set_defaults(run=learn_colours)
    from companion.cli import camera_deck

    camera_deck.add_parser(csub, _source_args)


def _source_args(c: argparse.ArgumentParser, markers: bool = True) -> None:
    c.add_argument("--config", help="the table config: its [camera] source" + (" and markers" if markers else ""))
    c.add_argument("--source", help="instead of --config: usb:0, usb:/dev/videoN, picamera2 or file:PATH")
    if markers:
        c.add_argument("--markers", nargs=2, type=float, metavar=("WIDTH_MM", "HEIGHT_MM"), help="with --source: marker centres' rectangle")
        c.add_argument("--marker-mm", type=float, default=60.0, help="with --source: the markers' printed size (default 60)")


def _camera(args: argparse.Namespace) -> tuple[str, Any]:
    """(source spec, vision settings) from --config or --source/--markers."""
    from vision.calibration import MarkerLayout
    from vision.settings import VisionSettings

    if args.config:
        from companion.app.config import load_config

        config = load_config(args.config)
        if config.camera is None:
            raise ConfigError(f"{args.config}: no [camera] table")
        return config.camera.source, VisionSettings.from_mapping(config.camera.settings)
    if args.source and not hasattr(args, "markers"):
        return str(args.source), VisionSettings()
    if not args.source or not args.markers:
        raise ConfigError("camera: give --config TABLE.toml, or --source and --markers WIDTH_MM HEIGHT_MM")
    layout = MarkerLayout.rectangle(args.markers[0], args.markers[1], args.marker_mm)
    return str(args.source), VisionSettings(markers=layout)


def _zones(args: argparse.Namespace) -> tuple[Zone, ...]:
    """The table config's zones (its pawn grids), or none without ``--config``."""
    if not getattr(args, "config", None):
        return ()
    from companion.app.config import load_config

    return tuple(load_config(args.config).zones)


def check(args: argparse.Namespace) -> int:
    from vision.camera_check import check_frame
    from vision.sources import open_source

    if args.frames < 1:
        raise ConfigError("camera check: --frames must be at least 1")
    spec, settings = _camera(args)
    source = open_source(spec)
    source.open()
    try:
        frame = None
        for _ in range(args.frames):
            got = source.read()
            if got is None:
                break
            frame = got
    finally:
        source.close()
    if frame is None:
        raise ConfigError(f"camera check: {spec} gave no picture")
    w, h = frame.size
    print(f"{spec}: {w}x{h}, frame {frame.index + 1}")
    image = frame.image
    if settings.lens_file:
        from vision.lens import LensCalibration, Undistorter

        image = Undistorter(LensCalibration.load(settings.lens_file))(image)  # as the pipeline sees it
    result = check_frame(
        image, settings.markers, settings.mat_distance, settings.cube_colours, bool(settings.lens_file), _zones(args), settings.pawn_colours
    )
    for line in result.report():
        print(line)
    print("the camera is ready" if result.ok else "fix the lines marked FIX, then run this again (docs/vision.md, 'Setting up the camera')")
    return 0 if result.ok else 1


def board(args: argparse.Namespace) -> int:
    import cv2

    from vision.lens import SQUARE_MM, SQUARES, board_picture

    if not cv2.imwrite(args.path, board_picture()):
        raise ConfigError(f"camera board: cannot write {args.path}")
    print(f"wrote {args.path}: {SQUARES[0]} x {SQUARES[1]} squares of {SQUARE_MM:g} mm at 10 px/mm; print it at 100 % and glue it flat")
    return 0


def calibrate_lens(args: argparse.Namespace) -> int:
    from vision.lens import board_corners
    from vision.lens import calibrate_lens as fit
    from vision.sources import open_source

    if args.frames < 1 or args.every < 1:
        raise ConfigError("camera lens: --frames and --every must be at least 1")
    spec, _ = _camera(args)
    source = open_source(spec)
    source.open()
    kept = []
    seen = 0
    try:
        for _ in range(args.frames):
            frame = source.read()
            if frame is None:
                break
            if board_corners(frame.image) is not None:
                if seen % args.every == 0:
                    kept.append(frame.image)
                seen += 1
    finally:
        source.close()
    print(f"{spec}: the board was seen in {seen} frames; using {len(kept)}")
    lens = fit(kept)
    lens.save(args.out)
    w, h = lens.image_size
    print(f"lens calibrated at {w}x{h} from {lens.views} views, reprojection error {lens.rms_px:.2f} px; saved to {args.out}")
    print(f'set lens_file = "{args.out}" in the config\'s [camera] table')
    return 0


def learn_colours(args: argparse.Namespace) -> int:
    from companion.app.config import load_config
    from vision.colour_samples import learn_colours as learn
    from vision.colour_samples import measure_zone, to_toml
    from vision.settings import VisionSettings
    from vision.sources import open_source

    config = load_config(args.config)
    if config.camera is None:
        raise ConfigError(f"{args.config}: no [camera] table")
    settings = VisionSettings.from_mapping(config.camera.settings)
    zone = next((z for z in config.zones if z.name == args.zone and z.polygon), None)
    if zone is None:
        raise ConfigError(f"camera colours: no zone {args.zone!r} with a polygon in {args.config}")
    source = open_source(config.camera.source)
    source.open()
    try:
        frame = None
        for _ in range(max(1, args.frames)):
            frame = source.read() or frame
    finally:
        source.close()
    if frame is None:
        raise ConfigError(f"camera colours: {config.camera.source} gave no picture")
    cubes = args.pieces == "cubes"
    defaults = settings.cube_colours if cubes else settings.pawn_colours
    patches = measure_zone(frame.image, settings.markers, zone, settings.cube_size_mm if cubes else settings.pawn_size_mm)
    ranges, samples = learn(patches, defaults)
    for sample in samples:
        print(f"{sample.name:<8} hue {sample.hue:5.1f}  saturation {sample.saturation:5.1f}  value {sample.value:5.1f}  ({sample.pixels} px)")
    print("put this in the config's [camera] table:")
    print(to_toml("cube_colours" if cubes else "pawn_colours", ranges))
    return 0
