"""Each game's web panel, served from the game's own folder (``GameSpec.panel``).

A panel is ``panel.js`` (it registers the game's board, views, card faces, pickers and venue summary
with ``TC.games.register``) and, optionally, ``panel.css``. The pages load the panels of the games
they show through :func:`panel_assets`; no template names a game.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

from flask import Blueprint, Flask, Response, abort, send_from_directory, url_for

from companion.core.errors import UnknownGameError
from companion.games import game_ids, get_spec

log = logging.getLogger(__name__)

bp = Blueprint("panels", __name__)

PANEL_FILES = ("panel.js", "panel.css")
"""The only files a panel folder serves: nothing else in a game's package is reachable over HTTP."""

CACHE_S = 300


@dataclass(frozen=True)
class PanelAssets:
    game: str
    js: str | None
    css: str | None


def _folder(game_id: str) -> Path:
    spec = get_spec(game_id)
    return spec.path(spec.panel)


@bp.get("/panels/<game_id>/<name>")
def panel_file(game_id: str, name: str) -> Response:
    if name not in PANEL_FILES:
        abort(404)
    try:
        folder = _folder(game_id)
    except UnknownGameError:
        abort(404)
    if not (folder / name).is_file():
        abort(404)
    response = send_from_directory(folder, name, max_age=CACHE_S)
    return response


def panel_assets(ids: list[str] | tuple[str, ...] | None = None) -> list[PanelAssets]:
    """The panel files of these games (every registered game when None), as URLs for a template."""
    out = []
    for game_id in game_ids() if ids is None else ids:
        try:
            folder = _folder(game_id)
        except UnknownGameError:
            continue  # a page for a game this install does not have draws the generic table
        js, css = (folder / f for f in PANEL_FILES)
        out.append(
            PanelAssets(
                game_id,
                url_for("panels.panel_file", game_id=game_id, name=js.name) if js.is_file() else None,
                url_for("panels.panel_file", game_id=game_id, name=css.name) if css.is_file() else None,
            )
        )
    return out


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
    app.jinja_env.globals["panel_assets"] = panel_assets
