"""``/events``: the live server-sent-event stream every page listens to.

A new stream starts with the current board. A stream that reconnects sends ``Last-Event-ID``
(the browser does it by itself; ``?last=`` works too) and first gets every row it missed, read
from the log, so a dropped connection loses no move.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator

from flask import Blueprint, Response, current_app, request

from web import broadcaster, table_session
from web.broadcast import Closing, Event, Overflow, board_event, row_event
from web.limits import stream_slot

log = logging.getLogger(__name__)

bp = Blueprint("stream", __name__)

RETRY_MS = 1500


def _last_event_id() -> int | None:
    raw = request.headers.get("Last-Event-ID") or request.args.get("last")
    if raw is None or raw == "":
        return None
    if not raw.isdigit() or len(raw) > 18:
        return -1
    return int(raw)


@bp.get("/events")
def events() -> Response:
    last = _last_event_id()
    if last == -1:
        return Response("Last-Event-ID must be a row number\n", status=400, mimetype="text/plain")
    slot = stream_slot()  # fewer streams than threads: a page always finds a thread (web.limits)
    if isinstance(slot, Response):
        return slot
    session = table_session(current_app)
    hub = broadcaster(current_app)
    heartbeat = float(current_app.config["HEARTBEAT_S"])
    # Subscribe before reading the backlog so nothing falls between the two.
    stream = hub.open()

    def generate() -> Iterator[bytes]:
        sent = last or 0
        try:
            yield f"retry: {RETRY_MS}\n\n".encode()
            if last is not None:
                for row in session.log.rows(after=last):
                    yield row_event(session, row).encode()
                    sent = row.seq
            yield board_event(session.board()).encode()
            while True:
                waiting = stream.take(timeout=heartbeat)
                if not waiting:
                    yield b": keep-alive\n\n"
                    continue
                # A board is the whole board: of those waiting, only the newest is worth sending.
                newest_board = max((i for i, e in enumerate(waiting) if e.name == "board"), default=-1)
                out = []
                for i, event in enumerate(waiting):
                    if event.name == "board" and i != newest_board:
                        continue
                    if event.id is not None and event.id <= sent:
                        continue  # already sent from the backlog
                    if event.id is not None:
                        sent = event.id
                    out.append(event.wire)
                if out:
                    yield b"".join(out)  # everything waiting in one write: one chunk, one send()
        except Overflow:
            yield Event("resume", str(sent)).encode()
        except Closing:
            return
        finally:
            hub.close(stream)
            slot()

    response = Response(generate(), mimetype="text/event-stream")
    response.call_on_close(slot)  # also when the stream never started (the slot is given back once)
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    return response
