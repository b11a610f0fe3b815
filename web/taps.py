"""Entry by tapping: the move builder's offer for a player's page and the referee's console, and
"take back" with its preview. Offers change nothing; a finished move is posted to the ordinary
move endpoints and goes down the session's one path like every other entry.
"""

from __future__ import annotations

import json
import logging
import threading
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request

from companion.core import Observation, ObservationKind
from companion.core.sources import link_source
from companion.entry.builder import Draft
from companion.core.errors import NotationError
from web import table_session
from web.auth import check_csrf, referee_required
from web.entries import json_body
from web.limits import offer_refused
from web.offers import OfferKey, offer_body, offer_cache, offer_warmer
from web.players import player_or_404

log = logging.getLogger(__name__)

bp = Blueprint("taps", __name__)

DRAFT_LIMIT = 4096
"""Longest draft a page may send, in characters."""
BUILD_WAIT_S = 5.0
"""Longest an ask waits for the same offer another thread is building, before building it itself."""


def _draft(by: str | None) -> Draft | Response:
    raw = request.args.get("draft", "")
    if len(raw) > DRAFT_LIMIT:
        return Response(f"the draft is longer than {DRAFT_LIMIT} characters\n", status=413, mimetype="text/plain")
    try:
        obj = json.loads(raw) if raw else None
        return Draft.from_json(obj, by)
    except (ValueError, RecursionError):
        return Response("the draft must be JSON\n", status=400, mimetype="text/plain")
    except NotationError as exc:
        return Response(f"{exc.message}\n", status=400, mimetype="text/plain")


def _offer(viewer: str | None, by: str | None, link: str | None) -> Any:
    """The offer for ``draft`` as ``viewer`` sees the table: from the cache if this state, viewer and
    draft were asked before, else built (within the offer limits of ``link`` and the address)."""
    draft = _draft(by)
    if isinstance(draft, Response):
        return draft
    session_ = table_session(current_app)
    state, seq = session_.snapshot()  # states are immutable: the offer is worked out off the lock
    cache = offer_cache(current_app)
    key = OfferKey(session_.instance, seq, viewer, draft.key())
    if viewer is not None and draft == Draft(by=viewer):
        offer_warmer(current_app).asked(session_, viewer, seq)  # this page is open: warm its next rows' offers
    body = cache.begin(key)
    if isinstance(body, threading.Event):  # being built (warmed as the row landed): wait for it, not build it twice
        body.wait(BUILD_WAIT_S)
        body = cache.get(key)
        mine = False
    else:
        mine = body is None
    if body is None:
        try:
            refused = offer_refused(link)
            if refused is not None:
                return refused
            body = offer_body(current_app, session_, state, seq, viewer, draft)
        except NotationError as exc:
            return Response(f"{exc.message}\n", status=400, mimetype="text/plain")
        finally:
            if mine:
                cache.finish(key)
        cache.put(key, body)
    response = Response(body, mimetype="application/json")
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/api/p/<player>/<token>/offer")
def player_offer(player: str, token: str) -> Any:
    player_or_404(player, token)
    return _offer(player, player, player)


@bp.get("/api/referee/offer")
@referee_required
def referee_offer() -> Any:
    session_ = table_session(current_app)
    by = request.args.get("by") or None
    if by is not None and by not in session_.header.players:
        return Response(f"{by[:40]!r} is not at this table\n", status=400, mimetype="text/plain")
    return _offer(None, by, None)


# -- take back --------------------------------------------------------------------------------


@bp.get("/api/p/<player>/<token>/take-back")
def player_take_back_preview(player: str, token: str) -> Any:
    player_or_404(player, token)
    return jsonify(table_session(current_app).take_back_preview(player))


@bp.post("/api/p/<player>/<token>/take-back")
def player_take_back(player: str, token: str) -> Any:
    player_or_404(player, token)
    check_csrf()
    return _take_back({"player": player}, link_source(player))


@bp.get("/api/referee/take-back")
@referee_required
def referee_take_back_preview() -> Any:
    return jsonify(table_session(current_app).take_back_preview(None))


def _take_back(extra: dict[str, Any], source: str) -> Any:
    body = json_body()
    if isinstance(body, Response):
        return body
    seq = body.get("seq")
    if not isinstance(seq, int) or isinstance(seq, bool):
        return Response('send {"seq": N}: the row the preview said it would take back\n', status=400, mimetype="text/plain")
    session_ = table_session(current_app)
    row, repeat = session_.take_back(Observation(source, session_.clock.wall(), ObservationKind.UNDO, {"seq": seq, **extra}))
    status = 422 if row.error is not None else 200
    return jsonify({"row": session_.public_row(row), "board": session_.board(), "repeat": repeat}), status
