"""The public pages and their JSON: scoreboard, log, rules catalogue. Nothing here changes state."""

from __future__ import annotations

import io
import logging
from typing import Any

from flask import Blueprint, Response, abort, current_app, jsonify, render_template, request

from companion.core import JsonObject
from companion.log.public import card_names
from web import table_session
from web.answers import board_answer
from web.auth import is_referee
from web.bgstats import play_links
from web.disputes import dispute_states
from web.limits import limits
from web.offers import offer_cache

log = logging.getLogger(__name__)

bp = Blueprint("pages", __name__)

PAGE_LIMIT = 500
MAX_SEQ = 10**15
NEAR_SIMULTANEOUS_S = 1.0
"""Plays this close in table time are shown side by side in a dispute."""


@bp.get("/")
def scoreboard() -> str:
    session = table_session(current_app)
    return render_template("scoreboard.html", game=session.game, board=session.board(), big=False)


@bp.get("/big")
def big_screen() -> str:
    """The table display: large type, the QR code that opens the scoreboard on a phone."""
    session = table_session(current_app)
    return render_template("scoreboard.html", game=session.game, board=session.board(), big=True)


def public_url() -> str:
    configured = current_app.config.get("PUBLIC_URL")
    return str(configured) if configured else request.host_url


@bp.get("/qr.svg")
def qr_code() -> Response:
    """A QR code of this scoreboard's address (only ever this address: no open QR generator)."""
    import segno

    buffer = io.BytesIO()
    segno.make(public_url(), error="m").save(buffer, kind="svg", scale=8, border=2, dark="#000", light="#fff")
    response = Response(buffer.getvalue(), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "max-age=300"
    return response


@bp.get("/log")
def log_page() -> str:
    session = table_session(current_app)
    return render_template("log.html", game=session.game, players=session.header.players)


@bp.get("/api/board")
def api_board() -> Response:
    return Response(board_answer(current_app, table_session(current_app)), mimetype="application/json")


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


@bp.get("/api/log/<int:seq>")
def api_row(seq: int) -> Response:
    """One row for a dispute: the row, the rule texts, the state before and after, competing plays."""
    session = table_session(current_app)
    if seq > MAX_SEQ:  # sqlite's integers stop at 2**63: a larger number is simply no row
        return Response("there is no such row\n", status=404, mimetype="text/plain")
    row = session.log.row(seq)
    if row is None:
        return Response(f"there is no row {seq}\n", status=404, mimetype="text/plain")
    before, after = dispute_states(current_app).around(seq)  # from snapshots, not a whole replay
    game = session.game
    rules = []
    for rule_id in (row.verdict or {}).get("rules", []):
        try:
            rule = game.rule(rule_id)
        except KeyError:
            continue
        rules.append({"id": rule.id, "title": rule.title, "source": rule.source, "passage": rule.passage})
    competing = []
    if row.table_time is not None and row.move is not None:
        for other in session.log.rows(after=max(0, seq - 50), limit=100):
            if (
                other.seq != seq
                and other.move is not None
                and other.table_time is not None
                and abs(other.table_time - row.table_time) <= NEAR_SIMULTANEOUS_S
            ):
                competing.append(session.public_row(other))
    scores = (game.scoreboard(before), game.scoreboard(after))
    out: JsonObject = {
        "row": session.public_row(row),
        "rules": rules,
        "before": scores[0],
        "after": scores[1],
        "names": card_names(game, after, scores),  # the scoreboards' cards as people name them
        "competing": competing,
    }
    if is_referee():
        out["before_full"] = game.view(before, None)
        out["after_full"] = game.view(after, None)
    return jsonify(out)


@bp.get("/api/bgstats")
def api_bgstats() -> tuple[Response, int] | Response:
    """The finished game as a BG Stats play and the link that hands it to the app (409 until it is over)."""
    answer = play_links(current_app).for_session(table_session(current_app))
    if answer is None:
        return jsonify({"error": "the game is not over yet: a play is saved once it is"}), 409
    return jsonify(answer)


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
    refused = limits(current_app).counts()
    offers = offer_cache(current_app).counts()  # kept, bytes, answered from the cache, built
    return jsonify({"ok": True, "seq": session.log.last_seq, "health": session.health, "refused": refused, "offers": offers})
