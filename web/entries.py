"""A person's entry from a page: read the JSON body, send it down the session's one path, answer."""

from __future__ import annotations

from typing import Any

from flask import Response, current_app, jsonify, request

from companion.core import Observation, ObservationKind
from web import table_session
from web.limits import move_too_large, refuse


def json_body() -> dict[str, Any] | Response:
    try:
        data = request.get_json(silent=True)
    except RecursionError:  # web.limits refuses deep bodies first; this is the backstop
        data = None
    if not isinstance(data, dict):
        return Response("the request body must be a JSON object\n", status=400, mimetype="text/plain")
    return data


def submit_entry(kind: ObservationKind, payload: dict[str, Any], source: str) -> tuple[Response, int]:
    """Log a person's entry through the session and answer with its row (422 if not accepted)."""
    problem = move_too_large(payload)
    if problem is not None:  # refused before it is logged: a flood of huge moves writes nothing
        return refuse("move_size", 413, problem), 413
    session_ = table_session(current_app)
    row = session_.process(Observation(source, session_.clock.wall(), kind, payload))
    public = session_.public_row(row)
    status = 200
    if row.error is not None:
        status = 422
    elif row.verdict is not None and not row.verdict.get("ok"):
        status = 409
    return jsonify({"row": public, "board": session_.board()}), status
