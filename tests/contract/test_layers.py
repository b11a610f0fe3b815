"""Layers point one way (issue 20): each part of the code imports only the layers below it.

Read from the source with ``ast`` (every ``import`` and ``from ... import``, also inside functions),
so a new upward import fails here before it tangles anything. The layers, bottom up:

    companion.core                         the nouns, errors, codec, picks: imports nothing of ours
    companion.contract                     what a game is (the Game base, GameSpec)
    companion.games                        the registry and the game packages (each only itself)
    companion.entry / .log / .table        entry by tapping; the log and notation; the table model
    companion.referee                      the session
    companion.venue                        broker, publisher, collector, venue store
    hardware, vision                       readers and the camera: they know only the nouns
    web                                    the pages
    companion.app / .cli / .demo           composition: anything
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

CORE = {"companion.core"}
BELOW_ENTRY = CORE | {"companion.contract", "companion.games"}
MIDDLE = BELOW_ENTRY | {"companion.entry", "companion.log", "companion.table"}
ALLOWED: dict[str, set[str]] = {
    "companion.core": set(),
    "companion.contract": CORE,
    "companion.games": CORE | {"companion.contract"},
    "companion.entry": BELOW_ENTRY,
    "companion.log": BELOW_ENTRY,
    "companion.table": BELOW_ENTRY,
    "companion.referee": MIDDLE,
    "companion.venue": MIDDLE | {"companion.referee"},
    "hardware": CORE,
    "vision": CORE,
    "web": MIDDLE | {"companion.referee", "companion.venue"},
}
"""Each layer and what it may import besides itself (app, cli and demo may import anything)."""
FREE = ("companion.app", "companion.cli", "companion.demo", "companion.__main__", "companion")


def layer_of(module: str) -> str | None:
    for layer in sorted(ALLOWED, key=len, reverse=True):
        if module == layer or module.startswith(layer + "."):
            return layer
    return None


def ours(module: str) -> bool:
    return module.split(".")[0] in ("companion", "hardware", "vision", "web")


def imports(path: Path, module: str) -> set[str]:
    found: set[str] = set()
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                found.add(".".join(base + ([node.module] if node.module else [])))
            elif node.module:
                found.add(node.module)
    return {m for m in found if ours(m)}


def modules() -> list[tuple[str, Path]]:
    out = []
    for top in ("companion", "hardware", "vision", "web"):
        for path in sorted((ROOT / top).rglob("*.py")):
            if "render" in path.relative_to(ROOT).parts[:2] and top == "vision":
                continue  # vision/render draws test scenes of the games' tables: tooling, not the pipeline
            parts = path.relative_to(ROOT).with_suffix("").parts
            out.append((".".join(parts[:-1] if parts[-1] == "__init__" else parts), path))
    return out


def test_every_module_has_a_layer_or_is_composition() -> None:
    strays = [m for m, _ in modules() if layer_of(m) is None and not m.startswith(FREE)]
    assert strays == []


@pytest.mark.parametrize("module, path", [pytest.param(m, p, id=m) for m, p in modules() if layer_of(m) is not None])
def test_imports_point_down(module: str, path: Path) -> None:
    layer = layer_of(module)
    assert layer is not None
    allowed = ALLOWED[layer] | {layer}
    upward = sorted(m for m in imports(path, module) if layer_of(m) not in allowed and m != "companion")
    assert upward == [], f"{module} ({layer}) imports {upward}"


@pytest.mark.parametrize("module, path", [pytest.param(m, p, id=m) for m, p in modules() if m.startswith("companion.games.")])
def test_a_game_imports_no_other_game(module: str, path: Path) -> None:
    own = ".".join(module.split(".")[:3])
    others = sorted(m for m in imports(path, module) if m.startswith("companion.games.") and not m.startswith(own))
    assert others == [], f"{module} imports another game: {others}"
