"""A table config for a rendered scene, as a person would write it for `companion camera ...`: the game,
a log in ``folder``, the camera reading ``source``, the scene's markers and every zone of it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from companion.core import Header


def toml_value(value: object) -> str:
    """A value as TOML (inline tables and arrays; strings via JSON, which TOML accepts)."""
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items()) + " }"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return json.dumps(value)


def write_scene_config(folder: Path, scene: Any, header: Header, source: Path) -> Path:
    """``folder``/table.toml for ``scene`` (a rendered scene: its ``layout`` and ``zones``) watched from ``source``."""
    layout = scene.layout
    lines = [
        f"game = {toml_value({'id': header.game, 'players': list(header.players), 'setup': dict(header.setup)})}",
        f"log = {toml_value({'path': str(folder / 'game.sqlite')})}",
        "[camera]",
        f"source = {toml_value(f'file:{source}')}",
        f"markers = {toml_value({'dictionary': layout.dictionary, 'size_mm': layout.size_mm, 'centres': [list(c) for c in layout.centres]})}",
    ]
    for z in scene.zones:
        fields = {"name": z.name, "kind": z.kind.name, "polygon": [list(p) for p in z.polygon], **({"index": z.index} if z.index is not None else {})}
        lines += ["[[zones]]", *(f"{k} = {toml_value(v)}" for k, v in fields.items())]
    config = folder / "table.toml"
    config.write_text("\n".join(lines) + "\n")
    return config
