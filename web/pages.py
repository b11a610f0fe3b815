"""The public pages and their JSON: scoreboard, log, rules catalogue. Nothing here changes state."""

from __future__ import annotations

import logging
from typing import Any

from flask import Blueprint, Response, abort, current_app, jsonify, render_template, request

from companion.core import JsonObject
from web import table_session

log = logging.getLogger(__name__)

bp = Blueprint("pages", __name__)

PAGE_LIMIT = 500


@bp.get("/")
def scoreboard() -> str:
    session = table_session(current_app)
    return render_template("scoreboard.html", game=session.game, board=session.board())


@bp.get("/log")
def log_page() -> str:
    session = table_session(current_app)
    return render_template("log.html", game=session.game, players=session.header.players)


@bp.get("/api/board")
def api_board() -> Response:
    return jsonify(table_session(current_app).board())


def _int_arg(name: str, default: int, low: int, high: int) -> int:
    raw = request.args.get(name)
    if raw is None:
        return default
    if not raw.isdigit() or len(raw) > 12:
        abort(Response(f"{name} must be a whole number\n", status=400, mimetype="text/plain"))
    return max(low, min(high, int(raw)))


def _involves(row: JsonObject, player: str) -> bool:
    move = row.get("move") or {}
    return move.get("by") == player or player in (move.get("target"), move.get("to"))


@bp.get("/api/log")
def api_log() -> Response:
    """Public log rows after ``after``; ``illegal=1`` keeps only illegal moves, ``player=P`` only P's."""
    session = table_session(current_app)
    after = _int_arg("after", 0, 0, 10**15)
    limit = _int_arg("limit", 200, 1, PAGE_LIMIT)
    illegal = request.args.get("illegal") in ("1", "true", "yes")
    player = request.args.get("player") or None
    if player is not None and player not in session.header.players:
        return Response(f"player {player[:40]!r} is not at this table\n", status=400, mimetype="text/plain")
    rows: list[JsonObject] = []
    last = after
    # Filters apply after reading; read in pages until the page is full or the log ends.
    while len(rows) < limit:
        page = list(session.log.rows(after=last, limit=PAGE_LIMIT))
        if not page:
            break
        for row in page:
            last = row.seq
            public = session.public_row(row)
            if illegal and not (public["verdict"] and not public["verdict"].get("ok")):
                continue
            if player is not None and not _involves(public, player):
                continue
            rows.append(public)
            if len(rows) >= limit:
                break
    return jsonify({"rows": rows, "next": last, "end": session.log.last_seq})


@bp.get("/api/rules")
def api_rules() -> Response:
    game = table_session(current_app).game
    rules: list[dict[str, Any]] = [
        {"id": r.id, "title": r.title, "source": r.source, "passage": r.passage} for r in game.rules.values()
    ]
    return jsonify({"game": game.id, "rules": rules})


@bp.get("/healthz")
def healthz() -> Response:
    session = table_session(current_app)
    return jsonify({"ok": True, "seq": session.log.last_seq, "health": session.health})
