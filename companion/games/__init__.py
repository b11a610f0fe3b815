"""The game registry: every game package it can find, by id. There is no list to edit.

A game is a package whose ``SPEC`` is a :class:`~companion.contract.spec.GameSpec`. The registry finds:
- every package in this folder (``companion/games/<pkg>/``);
- packages named in the ``COMPANION_GAMES`` environment variable (comma-separated module names: a game
  kept outside the tree, or the tests' toy game);
- packages installed with an entry point in the ``table_companion.games`` group.

A package that fails to import fails alone: it is logged, listed by :func:`broken`, and named when its
id is asked for; the other games go on.
"""

from __future__ import annotations

import importlib
import logging
import os
import pkgutil
import threading
from collections.abc import Mapping
from importlib.metadata import entry_points
from typing import Any

from companion.contract.game import Game
from companion.contract.spec import GameSpec
from companion.core.errors import UnknownGameError

log = logging.getLogger(__name__)

ENV_PACKAGES = "COMPANION_GAMES"
ENTRY_POINT_GROUP = "table_companion.games"

_lock = threading.Lock()
_specs: dict[str, GameSpec] | None = None
_broken: dict[str, str] = {}


def _package_names() -> list[str]:
    names = [f"{__name__}.{m.name}" for m in pkgutil.iter_modules(__path__) if m.ispkg and not m.name.startswith("_")]
    names += [n.strip() for n in os.environ.get(ENV_PACKAGES, "").split(",") if n.strip()]
    names += [ep.value for ep in entry_points(group=ENTRY_POINT_GROUP)]
    return list(dict.fromkeys(names))


def _discover() -> dict[str, GameSpec]:
    found: dict[str, GameSpec] = {}
    for name in _package_names():
        try:
            module = importlib.import_module(name)
        except Exception as exc:  # one broken game must not take the others down; it is named, not hidden
            _broken[name] = f"{type(exc).__name__}: {exc}"
            log.error("the game package %s cannot be imported (%s); the other games go on", name, _broken[name])
            log.debug("why %s cannot be imported", name, exc_info=True)
            continue
        spec = getattr(module, "SPEC", None)
        if not isinstance(spec, GameSpec):
            _broken[name] = "it has no SPEC (a companion.contract.spec.GameSpec)"
            log.error("the game package %s %s", name, _broken[name])
            continue
        other = found.get(spec.id)
        if other is not None:
            raise RuntimeError(f'two game packages declare the id "{spec.id}": {other.package} and {name}')
        found[spec.id] = spec
    return dict(sorted(found.items()))


def specs() -> Mapping[str, GameSpec]:
    """Every game found, by id, in id order (discovered once, on first use)."""
    global _specs
    with _lock:
        if _specs is None:
            _specs = _discover()
        return _specs


def game_ids() -> tuple[str, ...]:
    return tuple(specs())


def broken() -> Mapping[str, str]:
    """Game packages that could not be loaded, with why."""
    specs()
    return dict(_broken)


def get_spec(game_id: str) -> GameSpec:
    """The declaration of the game with this id, or :class:`UnknownGameError` naming the ids there are."""
    found = specs().get(game_id)
    if found is None:
        known = ", ".join(specs()) or "none"
        failed = f"; packages that failed to load: {', '.join(_broken)}" if _broken else ""
        raise UnknownGameError(f'unknown game "{game_id}" (known: {known}{failed})')
    return found


def get_game(game_id: str) -> Game[Any]:
    """The game with this id, or :class:`UnknownGameError` naming the ids there are."""
    return get_spec(game_id).game


def rediscover() -> None:
    """Forget what was found (a test that adds a package to ``COMPANION_GAMES``)."""
    global _specs
    with _lock:
        _specs = None
        _broken.clear()
