"""Zones for the camera: checking their polygons, and the small rasters the detectors warp into.

A zone's polygon is in table millimetres (x east, y north, origin at marker 0). The camera never
warps the whole frame: each detector warps only the bounding box of its zone into a
:class:`ZoneRaster` (north up, ``px_per_mm`` pixels per millimetre) and looks inside its mask.
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from companion.core import Zone, ZoneKind
from companion.core.errors import ConfigError
from companion.core.zones import Watch
from vision.frame import FloatArray, Image

Polygon = tuple[tuple[float, float], ...]

MIN_AREA_MM2 = 50.0


def signed_area(polygon: Sequence[tuple[float, float]]) -> float:
    """Shoelace area; positive when the corners run counter-clockwise seen from above (y north)."""
    total = 0.0
    for (x1, y1), (x2, y2) in zip(polygon, (*polygon[1:], polygon[0])):
        total += x1 * y2 - x2 * y1
    return total / 2.0


def _segments_cross(a: tuple[float, float], b: tuple[float, float], c: tuple[float, float], d: tuple[float, float]) -> bool:
    def orient(p: tuple[float, float], q: tuple[float, float], r: tuple[float, float]) -> float:
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    d1, d2, d3, d4 = orient(c, d, a), orient(c, d, b), orient(a, b, c), orient(a, b, d)
    return d1 * d2 < 0 and d3 * d4 < 0


def _self_intersects(polygon: Polygon) -> bool:
    edges = list(zip(polygon, (*polygon[1:], polygon[0])))
    n = len(edges)
    for i in range(n):
        for j in range(i + 2, n):
            if i == 0 and j == n - 1:
                continue  # neighbours through the closing corner
            if _segments_cross(*edges[i], *edges[j]):
                return True
    return False


def check_zone(zone: Zone) -> Zone:
    """Raise :class:`ConfigError` naming the zone when its polygon cannot be watched by the camera.

    What the camera watches in the zone's kind says how the outline's corners are read (a grid of
    pawns, a card read by its face); the kind may also restrict the zone's name."""
    where = f'zone "{zone.name}"'
    poly = zone.polygon
    if not poly:
        return zone
    for i, point in enumerate(poly):
        if len(point) != 2 or not all(isinstance(v, (int, float)) and math.isfinite(v) for v in point):
            raise ConfigError(f"{where}: polygon[{i}] must be [x, y], two finite numbers in millimetres")
    if len(poly) < 3:
        raise ConfigError(f"{where}: polygon needs at least 3 corners, got {len(poly)}")
    if _self_intersects(poly):
        raise ConfigError(f"{where}: polygon edges cross each other; list the corners in order around the outline")
    area = signed_area(poly)
    if abs(area) < MIN_AREA_MM2:
        raise ConfigError(f"{where}: polygon encloses {abs(area):.0f} mm², too small to see (at least {MIN_AREA_MM2:.0f})")
    watch = zone.kind.camera
    if watch is Watch.PAWNS and (len(poly) != 4 or area < 0):
        raise ConfigError(
            f"{where}: the grid polygon is its 4 corners south-west, south-east, north-east, north-west "
            "(x 1..8 runs from the first corner to the second, y 1..6 from the first to the fourth)"
        )
    if (problem := zone.kind.name_problem(zone.name)) is not None:
        raise ConfigError(f"{where}: {problem}")
    if watch is Watch.CARD_FACE and (len(poly) != 4 or area > 0):
        raise ConfigError(
            f"{where}: a {zone.kind.name} polygon is the card's 4 corners top-left, top-right, "
            "bottom-right, bottom-left as the player reads the card"
        )
    return zone


def check_zones(zones: Sequence[Zone]) -> tuple[Zone, ...]:
    """Check every zone (see :func:`check_zone`) and that no two share a name."""
    seen: set[str] = set()
    for zone in zones:
        if zone.name in seen:
            raise ConfigError(f'zone "{zone.name}": the name is used twice')
        seen.add(zone.name)
        check_zone(zone)
    return tuple(zones)


def parse_zones(raw: Any, kinds: Iterable[ZoneKind]) -> tuple[Zone, ...]:
    """Zones from the config's ``[[zones]]`` array (name, kind, polygon; player, index, reader), each
    of one of ``kinds`` (the game's, :attr:`companion.contract.game.Game.zone_kinds`)."""
    by_name = {k.name: k for k in kinds}
    if not isinstance(raw, list):
        raise ConfigError("zones: must be an array of tables ([[zones]])")
    zones = []
    for n, item in enumerate(raw):
        where = f"zones[{n}]"
        if not isinstance(item, Mapping):
            raise ConfigError(f"{where}: must be a table ([[zones]])")
        unknown = set(item) - {"name", "kind", "player", "index", "reader", "polygon"}
        if unknown:
            raise ConfigError(f"{where}: unknown key {sorted(unknown)[0]!r}")
        name = item.get("name")
        if not isinstance(name, str) or not name:
            raise ConfigError(f"{where}.name: must be a non-empty string")
        kind = by_name.get(str(item.get("kind")))
        if kind is None:
            raise ConfigError(f"{where}.kind: {item.get('kind')!r} is not a zone kind ({', '.join(by_name)})")
        polygon_raw = item.get("polygon", [])
        if not isinstance(polygon_raw, list):
            raise ConfigError(f"{where}.polygon: must be a list of [x, y] points in millimetres")
        points = []
        for i, point in enumerate(polygon_raw):
            ok = isinstance(point, list) and len(point) == 2
            ok = ok and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in point)
            if not ok:
                raise ConfigError(f"{where}.polygon[{i}]: must be [x, y], two numbers in millimetres, got {point!r}")
            points.append((float(point[0]), float(point[1])))
        player, index, reader = item.get("player"), item.get("index"), item.get("reader")
        if player is not None and not isinstance(player, str):
            raise ConfigError(f"{where}.player: must be a player name")
        if index is not None and (not isinstance(index, int) or isinstance(index, bool)):
            raise ConfigError(f"{where}.index: must be a whole number")
        if reader is not None and not isinstance(reader, str):
            raise ConfigError(f"{where}.reader: must be a reader path")
        zone = Zone(name=name, kind=kind, player=player, index=index, reader=reader, polygon=tuple(points))
        try:
            check_zone(zone)
        except ConfigError as exc:
            raise ConfigError(f"{where}: {exc}") from exc
        zones.append(zone)
    return check_zones(zones)


def load_zones(toml_text: str, kinds: Iterable[ZoneKind]) -> tuple[Zone, ...]:
    """Zones from TOML text holding ``[[zones]]`` blocks, of ``kinds``."""
    try:
        data = tomllib.loads(toml_text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"zones: not valid TOML ({exc})") from exc
    return parse_zones(data.get("zones", []), kinds)


@dataclass(frozen=True, eq=False)
class ZoneRaster:
    """A north-up raster over a zone's bounding box: where a detector warps the camera picture to.

    Raster pixel (u, v) is table point (x0 + u / s, y1 - v / s), with s = ``px_per_mm``.
    ``mask`` is 255 inside the polygon (shrunk by the inset, minus any excluded polygons).
    """

    zone: Zone
    px_per_mm: float
    x0: float
    y1: float
    width: int
    height: int
    roi_from_table: FloatArray
    mask: Image

    def to_raster(self, points: Sequence[tuple[float, float]]) -> FloatArray:
        s = self.px_per_mm
        return np.array([((x - self.x0) * s, (self.y1 - y) * s) for x, y in points], np.float64)

    def to_table(self, u: float, v: float) -> tuple[float, float]:
        return self.x0 + u / self.px_per_mm, self.y1 - v / self.px_per_mm

    def fill(self, polygon: Sequence[tuple[float, float]], value: int = 255) -> Image:
        """A raster-sized mask with ``polygon`` (table mm) filled."""
        out = np.zeros((self.height, self.width), np.uint8)
        pts = np.round(self.to_raster(polygon)).astype(np.int32)
        cv2.fillPoly(out, [pts], value)
        return out


def make_raster(
    zone: Zone,
    px_per_mm: float,
    *,
    pad_mm: float = 0.0,
    inset_mm: float = 0.0,
    exclude: Sequence[Sequence[tuple[float, float]]] = (),
    region: Sequence[tuple[float, float]] | None = None,
) -> ZoneRaster:
    """The raster for ``zone`` (or a ``region`` of it): its bounding box grown by ``pad_mm``."""
    poly = np.array(region if region is not None else zone.polygon, np.float64)
    if len(poly) < 3:
        raise ConfigError(f'zone "{zone.name}": no polygon, so the camera cannot watch it')
    x0, y0 = poly.min(axis=0) - pad_mm
    x1, y1 = poly.max(axis=0) + pad_mm
    s = float(px_per_mm)
    width, height = max(1, int(math.ceil((x1 - x0) * s))), max(1, int(math.ceil((y1 - y0) * s)))
    roi_from_table = np.array([[s, 0.0, -s * x0], [0.0, -s, s * y1], [0.0, 0.0, 1.0]])
    raster = ZoneRaster(zone, s, float(x0), float(y1), width, height, roi_from_table, np.zeros((height, width), np.uint8))
    mask = raster.fill([(float(x), float(y)) for x, y in poly])
    for other in exclude:
        cv2.fillPoly(mask, [np.round(raster.to_raster(other)).astype(np.int32)], 0)
    radius = int(round(inset_mm * s))
    if radius > 0:
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))
        mask = np.asarray(cv2.erode(mask, kernel), np.uint8)
    object.__setattr__(raster, "mask", mask)
    return raster


def warp_zone(image: Image, table_from_image: FloatArray, raster: ZoneRaster) -> Image:
    """The camera picture resampled onto ``raster`` (only the zone's box is computed)."""
    m = raster.roi_from_table @ table_from_image
    out = cv2.warpPerspective(image, m, (raster.width, raster.height), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    return np.asarray(out, np.uint8)
