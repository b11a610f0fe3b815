"""The referee console: behind the PIN, enter what no sensor sees, undo or correct a move.

Everything entered here becomes an observation and goes down the session's one path into the log;
nothing here touches game state directly.
"""

from __future__ import annotations

import hmac
import logging
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, redirect, render_template, request

from companion.core import Observation, ObservationKind
from companion.core.sources import REFEREE
from web import table_session
from web.answers import view_answer
from web.auth import (
    PinGuard, check_csrf, client_address, csrf_token, grant_referee, is_referee, referee_required,
    revoke_referee, safe_next,
)
from web.entries import json_body, submit_entry
from web.links import links, player_link

log = logging.getLogger(__name__)

bp = Blueprint("referee", __name__)


def _guard() -> PinGuard:
    guard: PinGuard = current_app.extensions["pin_guard"]
    return guard


@bp.get("/referee/login")
def login_form() -> str:
    session_ = table_session(current_app)
    return render_template("login.html", game=session_.game, csrf=csrf_token(), error=None, next=safe_next(request.args.get("next")))


@bp.post("/referee/login")
def login() -> Any:
    session_ = table_session(current_app)
    client = client_address()
    wait = _guard().locked_for(client)
    if wait > 0:
        return Response(f"too many wrong PINs; try again in {int(wait) + 1} s\n", status=429, mimetype="text/plain")
    check_csrf()
    pin = request.form.get("pin", "")
    if not hmac.compare_digest(pin.encode()[:64], str(current_app.config["REFEREE_PIN"]).encode()):
        _guard().failed(client)
        log.warning("wrong referee PIN from %s", client)
        return render_template(
            "login.html", game=session_.game, csrf=csrf_token(), error="wrong PIN", next=safe_next(request.form.get("next"))
        ), 403
    _guard().succeeded(client)
    grant_referee()
    return redirect(safe_next(request.form.get("next")), code=303)


@bp.post("/referee/logout")
def logout() -> Any:
    check_csrf()
    revoke_referee()
    return redirect("/", code=303)


@bp.get("/referee")
@referee_required
def console() -> str:
    session_ = table_session(current_app)
    game = session_.game
    seated = {p: player_link(current_app, p) for p in session_.header.players}
    audio = _audio()
    return render_template(
        "referee.html", game=game, csrf=csrf_token(), verbs=sorted(game.codec.by_verb), links=seated,
        every_panel=True,  # the console sets up any game: its setup picker draws that game's cards
        sound=audio is not None, quiet=audio is not None and audio.announcer.quiet,
    )


def _audio() -> Any:
    """The table's sound (companion.app.voice.TableAudio) if the table service plays any; a bare web app has none."""
    return getattr(current_app.extensions.get("host"), "audio", None)


@bp.post("/referee/rotate-links")
@referee_required
def rotate_links() -> Any:
    """Every player's link is replaced (a phone lost, a link shared too widely); open player pages stop working."""
    links(current_app).rotate()
    return redirect("/referee#links", code=303)


@bp.post("/api/referee/move")
@referee_required
def referee_move() -> Any:
    body = json_body()
    if isinstance(body, Response):
        return body
    move = body.get("move")
    if not isinstance(move, dict):
        return Response('send {"move": {...notation move...}}\n', status=400, mimetype="text/plain")
    return submit_entry(ObservationKind.MOVE, move, REFEREE)


@bp.post("/api/referee/undo")
@referee_required
def referee_undo() -> Any:
    """Take back the last move in force; with ``{"seq": N}`` only if row N still is that move."""
    body = request.get_json(silent=True)
    seq = body.get("seq") if isinstance(body, dict) else None
    if seq is not None and (not isinstance(seq, int) or isinstance(seq, bool)):
        return Response('"seq" must be a row number\n', status=400, mimetype="text/plain")
    if seq is None:
        return submit_entry(ObservationKind.UNDO, {}, REFEREE)
    # The take-back the console showed: a second tap of "Yes, take it back" writes nothing.
    session_ = table_session(current_app)
    row, repeat = session_.take_back(Observation(REFEREE, session_.clock.wall(), ObservationKind.UNDO, {"seq": seq}))
    return jsonify({"row": session_.public_row(row), "board": session_.board(), "repeat": repeat}), 422 if row.error else 200


@bp.post("/api/referee/correct")
@referee_required
def referee_correct() -> Any:
    body = json_body()
    if isinstance(body, Response):
        return body
    if not isinstance(body.get("move"), dict):
        return Response('send {"move": {...the move that should have been made...}}\n', status=400, mimetype="text/plain")
    seq = body.get("seq")
    if seq is not None and (not isinstance(seq, int) or isinstance(seq, bool)):
        return Response('"seq" must be a row number\n', status=400, mimetype="text/plain")
    payload: dict[str, Any] = {"move": body["move"]} if seq is None else {"move": body["move"], "seq": seq}
    return submit_entry(ObservationKind.CORRECTION, payload, REFEREE)


@bp.get("/api/referee/view")
@referee_required
def referee_view() -> Any:
    return Response(view_answer(current_app, table_session(current_app), None), mimetype="application/json")


@bp.get("/api/whoami")
def whoami() -> Any:
    return jsonify({"referee": is_referee(), "csrf": csrf_token()})


@bp.post("/api/referee/quiet")
@referee_required
def referee_quiet() -> Any:
    """Quiet mode on or off: ``{"quiet": true}`` plays nothing (what waits to be said is dropped)."""
    body = json_body()
    if isinstance(body, Response):
        return body
    quiet = body.get("quiet")
    if not isinstance(quiet, bool):
        return Response('send {"quiet": true} or {"quiet": false}\n', status=400, mimetype="text/plain")
    audio = _audio()
    if audio is None:
        return Response("this table plays no sound ([feedback] tones and speech are off)\n", status=409, mimetype="text/plain")
    audio.announcer.quiet = quiet
    log.info("the console turned quiet mode %s", "on" if quiet else "off")
    return jsonify({"quiet": quiet})
