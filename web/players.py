"""Player views: each player's own link (name + token) shows what only they may see, and takes
their secret entries (an Everest plan). A wrong token is a plain 404: it does not say who exists."""

from __future__ import annotations

import logging
from typing import Any

from flask import Blueprint, Response, abort, current_app, render_template

from companion.core import ObservationKind
from companion.core.sources import link_source
from web import table_session
from web.answers import view_answer
from web.auth import check_csrf, csrf_token
from web.entries import json_body, submit_entry
from web.links import links

log = logging.getLogger(__name__)

bp = Blueprint("players", __name__)


def player_or_404(player: str, token: str) -> str:
    session_ = table_session(current_app)
    if player not in session_.header.players:  # a link never acts in a game its player is not in
        abort(404)
    if not links(current_app).opens(player, token):
        log.warning("wrong player token for %r", player[:40])
        abort(404)
    return player


@bp.get("/p/<player>/<token>")
def player_page(player: str, token: str) -> str:
    player_or_404(player, token)
    session_ = table_session(current_app)
    return render_template("player.html", game=session_.game, player=player, token=token, csrf=csrf_token())


@bp.get("/api/p/<player>/<token>/view")
def player_view(player: str, token: str) -> Any:
    player_or_404(player, token)
    # Built once per moment for this player only (the link was checked above): web.answers.
    response = Response(view_answer(current_app, table_session(current_app), player), mimetype="application/json")
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/api/p/<player>/<token>/move")
def player_move(player: str, token: str) -> Any:
    player_or_404(player, token)
    check_csrf()
    body = json_body()
    if isinstance(body, Response):
        return body
    move = body.get("move")
    if not isinstance(move, dict):
        return Response('send {"move": {...notation move...}}\n', status=400, mimetype="text/plain")
    if move.get("by", player) != player:
        return Response("a player may only enter their own moves\n", status=403, mimetype="text/plain")
    return submit_entry(ObservationKind.MOVE, {**move, "by": player}, link_source(player))
