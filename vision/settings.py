"""Every tunable of the camera pipeline, with its default and the config key that sets it."""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

from companion.core.errors import ConfigError
from vision.calibration import MarkerLayout
from vision.colours import CUBE_COLOURS, PAWN_COLOURS, ColourRange


@dataclass(frozen=True)
class VisionSettings:
    """Settings for the vision pipeline; the config's ``[camera]`` table may set any of them."""

    settle_s: float = field(default=1.0, metadata={"doc": "a zone's new view is reported once it has held this long (s)"})
    settle_remove_s: float = field(default=2.0, metadata={"doc": "a view taking something away (card, cube, pawn) must hold this long (s)"})
    px_per_mm: float = field(default=1.0, metadata={"doc": "resolution zones are resampled at (pixels per mm)"})
    zone_inset_mm: float = field(default=4.0, metadata={"doc": "card zones are judged this far inside their outline"})
    occupied_fraction: float = field(default=0.45, metadata={"doc": "share of a card zone that must differ from the mat"})
    mat_distance: float = field(default=0.07, metadata={"doc": "colour difference from the mat (chroma) that counts as not mat"})
    dark_level: int = field(default=30, metadata={"doc": "mean brightness below which a pixel is too dark to judge (0..255)"})
    mat_bgr: tuple[float, float, float] | None = field(default=None, metadata={"doc": "the mat's colour; None: measured at calibration"})
    cube_size_mm: float = field(default=12.0, metadata={"doc": "side of a cube"})
    cube_colours: tuple[ColourRange, ...] = field(default=CUBE_COLOURS, metadata={"doc": "cube colours (HSV ranges)"})
    pawn_size_mm: float = field(default=18.0, metadata={"doc": "diameter of a pawn seen from above"})
    pawn_colours: tuple[ColourRange, ...] = field(default=PAWN_COLOURS, metadata={"doc": "pawn colours (HSV ranges)"})
    lens_file: str | None = field(default=None, metadata={"doc": "lens calibration from `companion camera lens` (JSON); None: frames used as taken"})
    card_templates: str | None = field(default=None, metadata={"doc": "folder of rank/suit template pictures; None: built-in"})
    card_rank_mm: float | None = field(default=None, metadata={"doc": "height of the rank's ink in the card's corner index (mm); None: the deck's"})
    card_suit_mm: float | None = field(default=None, metadata={"doc": "height of the suit's ink under it (mm); None: the deck's"})
    card_min_score: float = field(default=0.65, metadata={"doc": "a card face is named only when its glyphs match this well (0..1)"})
    face_window_s: float = field(default=3.0, metadata={"doc": "a pyramid card's face is the majority of its reads in this window"})
    markers: MarkerLayout = field(default_factory=MarkerLayout, metadata={"doc": "the four ArUco markers"})
    marker_tolerance_px: float = field(default=2.5, metadata={"doc": "a marker moving further than this means the camera moved"})
    marker_search_s: float = field(default=0.5, metadata={"doc": "least time between full searches for hidden markers"})

    def __post_init__(self) -> None:
        for name in ("settle_s", "settle_remove_s", "px_per_mm", "cube_size_mm", "pawn_size_mm", "face_window_s", "marker_tolerance_px"):
            value = getattr(self, name)
            if not (isinstance(value, (int, float)) and math.isfinite(value) and value > 0):
                raise ConfigError(f"camera.{name}: {value!r} must be a number above 0")
        if not 0.2 <= self.px_per_mm <= 8:
            raise ConfigError(f"camera.px_per_mm: {self.px_per_mm} must be between 0.2 and 8")
        for name in ("occupied_fraction", "mat_distance", "card_min_score"):
            value = getattr(self, name)
            if not (isinstance(value, (int, float)) and 0 < value < 1):
                raise ConfigError(f"camera.{name}: {value!r} must be between 0 and 1")
        for name, lo, hi in (("card_rank_mm", 4.0, 25.0), ("card_suit_mm", 3.0, 20.0)):
            value = getattr(self, name)
            if value is not None and not (isinstance(value, (int, float)) and lo <= value <= hi):
                raise ConfigError(f"camera.{name}: {value!r} must be the index's height in mm, {lo:g} to {hi:g} (measure the ink of a 10's rank, or let `companion camera deck` measure it)")
        if not self.cube_colours or not self.pawn_colours:
            raise ConfigError("camera: cube_colours and pawn_colours need at least one colour each")

    @classmethod
    def from_mapping(cls, raw: Mapping[str, Any], where: str = "camera", ignore: Collection[str] = ("source", "players_by_colour")) -> "VisionSettings":
        """Settings from a config table; one :class:`ConfigError` naming the key on any problem."""
        known = {f.name for f in fields(cls)}
        changes: dict[str, Any] = {}
        for key, value in raw.items():
            if key in ignore:
                continue
            if key not in known:
                raise ConfigError(f"{where}.{key}: unknown setting (known: {', '.join(sorted(known))})")
            if key in ("cube_colours", "pawn_colours"):
                changes[key] = _colours(value, f"{where}.{key}", getattr(cls(), key))
            elif key == "markers":
                changes[key] = _markers(value, f"{where}.markers")
            elif key == "mat_bgr":
                if not (isinstance(value, list) and len(value) == 3 and all(isinstance(v, (int, float)) and 0 <= v <= 255 for v in value)):
                    raise ConfigError(f"{where}.mat_bgr: must be [blue, green, red], each 0..255")
                changes[key] = (float(value[0]), float(value[1]), float(value[2]))
            elif key in ("card_templates", "lens_file"):
                if not isinstance(value, str):
                    raise ConfigError(f"{where}.{key}: must be a path")
                changes[key] = value
            else:
                if isinstance(value, bool) or not isinstance(value, (int, float)):
                    raise ConfigError(f"{where}.{key}: must be a number, got {value!r}")
                changes[key] = int(value) if key == "dark_level" else float(value)
        try:
            return replace(cls(), **changes)
        except ConfigError as exc:
            raise ConfigError(str(exc).replace("camera.", f"{where}.", 1)) from exc


def _colours(raw: Any, where: str, defaults: tuple[ColourRange, ...]) -> tuple[ColourRange, ...]:
    """``{red = {h = [170, 8], s_min = 110}, ...}``: named colours replace or add to the defaults."""
    if not isinstance(raw, Mapping):
        raise ConfigError(f"{where}: must be a table of colours, e.g. red = {{h = [170, 7], s_min = 110, v_min = 45}}")
    out = {c.name: c for c in defaults}
    for name, value in raw.items():
        out[name] = ColourRange.from_mapping(name, value, f"{where}.{name}")
    return tuple(out.values())


def _markers(raw: Any, where: str) -> MarkerLayout:
    """``{dictionary, size_mm, width_mm, height_mm}`` or ``{..., centres = [[id, x, y], ...]}``."""
    if not isinstance(raw, Mapping):
        raise ConfigError(f"{where}: must be a table (dictionary, size_mm, width_mm and height_mm, or centres)")
    unknown = set(raw) - {"dictionary", "size_mm", "width_mm", "height_mm", "centres"}
    if unknown:
        raise ConfigError(f"{where}.{sorted(unknown)[0]}: unknown key (dictionary, size_mm, width_mm, height_mm, centres)")
    base = MarkerLayout()
    dictionary = raw.get("dictionary", base.dictionary)
    size = raw.get("size_mm", base.size_mm)
    if not isinstance(dictionary, str):
        raise ConfigError(f"{where}.dictionary: must be a name like \"DICT_4X4_50\"")
    if isinstance(size, bool) or not isinstance(size, (int, float)):
        raise ConfigError(f"{where}.size_mm: must be a number")
    if "centres" in raw:
        centres = raw["centres"]
        ok = isinstance(centres, list) and all(
            isinstance(c, list) and len(c) == 3 and isinstance(c[0], int) and all(isinstance(v, (int, float)) for v in c[1:]) for c in centres
        )
        if not ok:
            raise ConfigError(f"{where}.centres: must be [[id, x_mm, y_mm], ...] for four markers")
        return MarkerLayout(dictionary, float(size), tuple((int(c[0]), float(c[1]), float(c[2])) for c in centres))
    width = raw.get("width_mm", 900.0)
    height = raw.get("height_mm", 600.0)
    for key, value in (("width_mm", width), ("height_mm", height)):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
            raise ConfigError(f"{where}.{key}: must be a number above 0")
    return MarkerLayout.rectangle(float(width), float(height), float(size), dictionary)
