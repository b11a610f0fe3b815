"""``companion camera check``: is the camera good enough where it hangs, and what to change
(vision/camera_check.py). ``companion camera lens``: a one-time lens calibration with a printed
ChArUco board (vision/lens.py)."""

from __future__ import annotations

import argparse
import logging
from typing import Any

from companion.errors import ConfigError

log = logging.getLogger(__name__)


def add_parser(sub: Any) -> None:
    p = sub.add_parser("camera", help="check the overhead camera, or calibrate its lens")
    csub = p.add_subparsers(dest="camera_command", metavar="ACTION")
    csub.required = True
    c = csub.add_parser("check", help="measure focus, pixels per mm, exposure, white reference, glare and the mat; say what to fix")
    _source_args(c)
    c.add_argument("--frames", type=int, default=15, help="frames to read first, so the camera's exposure settles (default 15)")
    c.set_defaults(run=check)


def _source_args(c: argparse.ArgumentParser) -> None:
    c.add_argument("--config", help="the table config: its [camera] source and markers")
    c.add_argument("--source", help="instead of --config: usb:0, usb:/dev/videoN, picamera2 or file:PATH")
    c.add_argument("--markers", nargs=2, type=float, metavar=("WIDTH_MM", "HEIGHT_MM"), help="with --source: marker centres' rectangle")
    c.add_argument("--marker-mm", type=float, default=60.0, help="with --source: the markers' printed size (default 60)")


def _camera(args: argparse.Namespace) -> tuple[str, Any]:
    """(source spec, vision settings) from --config or --source/--markers."""
    from vision.calibration import MarkerLayout
    from vision.settings import VisionSettings

    if args.config:
        from companion.config import load_config

        config = load_config(args.config)
        if config.camera is None:
            raise ConfigError(f"{args.config}: no [camera] table")
        return config.camera.source, VisionSettings.from_mapping(config.camera.settings)
    if not args.source or not args.markers:
        raise ConfigError("camera: give --config TABLE.toml, or --source and --markers WIDTH_MM HEIGHT_MM")
    layout = MarkerLayout.rectangle(args.markers[0], args.markers[1], args.marker_mm)
    return str(args.source), VisionSettings(markers=layout)


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
    result = check_frame(frame.image, settings.markers, settings.mat_distance)
    for line in result.report():
        print(line)
    print("the camera is ready" if result.ok else "fix the lines marked FIX, then run this again (docs/vision.md, 'Setting up the camera')")
    return 0 if result.ok else 1
