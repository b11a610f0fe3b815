"""Printable ArUco markers for the table corners.

    .venv/bin/python -m vision.markers OUT_DIR [--size-mm 60] [--dictionary DICT_4X4_50] [--dpi 300]

writes ``marker-0.png`` ... ``marker-3.png``: each marker ``size-mm`` wide (its black border
included) on white paper with a quiet margin of half a marker, at ``dpi`` dots per inch. Print at
100 % ("actual size"), then check the black square with a ruler.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

from vision.calibration import MarkerLayout
from vision.frame import Image

MM_PER_INCH = 25.4


def marker_picture(layout: MarkerLayout, marker_id: int, dpi: int = 300) -> Image:
    """One marker with its white margin, sized for printing at ``dpi``."""
    side = int(round(layout.size_mm / MM_PER_INCH * dpi))
    margin = side // 2
    marker = cv2.aruco.generateImageMarker(layout.aruco_dictionary(), marker_id, side, borderBits=1)
    page = np.full((side + 2 * margin, side + 2 * margin), 255, np.uint8)
    page[margin : margin + side, margin : margin + side] = marker
    label = f"{marker_id} {layout.corner_name(marker_id)}"
    cv2.putText(page, label, (margin // 4, page.shape[0] - margin // 4), cv2.FONT_HERSHEY_SIMPLEX, side / 400, 160, max(1, side // 150))
    return page


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Write the four table-corner ArUco markers as PNG files to print.")
    parser.add_argument("out_dir", type=Path)
    parser.add_argument("--size-mm", type=float, default=MarkerLayout().size_mm)
    parser.add_argument("--dictionary", default=MarkerLayout().dictionary)
    parser.add_argument("--dpi", type=int, default=300)
    args = parser.parse_args(argv)
    layout = MarkerLayout(args.dictionary, args.size_mm)
    args.out_dir.mkdir(parents=True, exist_ok=True)
    for marker_id in layout.ids:
        path = args.out_dir / f"marker-{marker_id}.png"
        if not cv2.imwrite(str(path), marker_picture(layout, marker_id, args.dpi), [cv2.IMWRITE_PNG_COMPRESSION, 9]):
            print(f"cannot write {path}", file=sys.stderr)
            return 1
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
