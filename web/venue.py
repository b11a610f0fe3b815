"""The venue page (issue 16): every table of a venue at a glance, each table one tap away, and the
standings across finished games.

It shows only what the tables published (the venue's store); it never runs a game's rules and has
nothing to change, so it has no PIN and no forms. Live updates: ``/events`` says which tables
changed (server-sent events) and the page fetches ``/api/tables`` or ``/api/table/<table>`` again.

Every answer is bounded whatever the tables publish: ``/api/tables`` is paged (:data:`TABLES_PAGE`
tables, then ``next`` names the table to go on ``after``) and carries the top of the standings
(:data:`STANDINGS_SHOWN`); each board and event in it is bounded by the collector
(:mod:`companion.venue.limits`).
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable, Iterator
from typing import Any

from flask import Flask, Response, abort, jsonify, render_template, request

from companion.core import JsonObject
from companion.venue.standings import standings
from companion.venue.store import VenueStore
from web import panels
from web.headers import add_security_headers
from web.hosts import allowed_hosts, host_name, own_addresses

log = logging.getLogger(__name__)

HEARTBEAT_S = 15.0
EVENTS_SHOWN = 200
WAKE_S = 0.5
TABLES_PAGE = 100
"""Tables in one ``/api/tables`` answer (and names in its ``only``)."""
MAX_ONLY = TABLES_PAGE
STANDINGS_SHOWN = 50
"""Players and finished games in ``/api/tables`` (the page); ``/api/standings`` gives :data:`STANDINGS_API`."""
STANDINGS_API = 500
MAX_NAME = 64
"""Longest table name in a query (as :data:`companion.venue.limits.NAME_CHARS`)."""

Status = Callable[[], JsonObject]
"""The venue service's own status (broker connection, counters) for the page's footer."""


def create_venue_app(store: VenueStore, venue: str, status: Status | None = None, test_config: dict[str, Any] | None = None) -> Flask:
    app = Flask(__name__)  # web/templates and web/static, shared with the table's pages; the games' panels from their packages
    app.config.update(HEARTBEAT_S=HEARTBEAT_S, BIND_HOST=None, ALLOWED_HOSTS=(), PUBLIC_URL=None)
    if test_config:
        app.config.update(test_config)
    if app.config["BIND_HOST"] in ("0.0.0.0", "::"):
        app.extensions["own_addresses"] = own_addresses()
    stopping = threading.Event()
    app.extensions["venue_stopping"] = stopping

    def own_status() -> JsonObject:
        return {"store": store.counts(), **(status() if status is not None else {})}

    @app.before_request
    def _only_our_names() -> Response | None:
        # As the table's pages (web.hosts): a page elsewhere must not read the venue through DNS rebinding.
        if host_name(request.host) in allowed_hosts(app):
            return None
        log.warning("refused a request for an unknown host name (%d characters)", len(request.host))
        return Response("this address is not one the venue answers to\n", status=421, mimetype="text/plain")

    @app.after_request
    def _security_headers(response: Any) -> Any:
        return add_security_headers(response, form_action="'none'")

    def known_table(table: str) -> str:
        instance = store.current(venue, table)
        if instance is None:
            abort(404, f"no table {table!r} has published at venue {venue!r}")
        return instance

    panels.init_app(app)  # every game's panel draws its tables and their headline figures

    @app.get("/")
    def venue_page() -> str:
        return render_template("venue.html", venue=venue, page="venue", table=None)

    @app.get("/table/<table>")
    def table_page(table: str) -> str:
        known_table(table)
        return render_template("venue_table.html", venue=venue, page="table", table=table)

    @app.get("/api/tables")
    def api_tables() -> Response:
        """The tables by name, a page at a time (``?after=<table>`` for the next page, named by ``next``),
        or with ``?only=t1,t2`` just those (what a live page refetches when they change)."""
        raw = request.args.get("only")
        only = {t for t in raw.split(",") if t} if raw is not None else None
        if only is not None and len(only) > MAX_ONLY:
            return Response(f"only: at most {MAX_ONLY} tables\n", status=400, mimetype="text/plain")
        after = request.args.get("after")
        if after is not None and len(after) > MAX_NAME:
            return Response(f"after: a table name of at most {MAX_NAME} characters\n", status=400, mimetype="text/plain")
        page = store.tables(venue, only, after, TABLES_PAGE + 1)
        more = len(page) > TABLES_PAGE
        page = page[:TABLES_PAGE]
        return jsonify(
            {
                "venue": venue,
                "tables": page,
                "partial": only is not None or after is not None,
                "next": page[-1]["table"] if more else None,
                "standings": standings(store.games(venue), STANDINGS_SHOWN),
                "status": own_status(),
            }
        )

    @app.get("/api/standings")
    def api_standings() -> Response:
        return jsonify(standings(store.games(venue), STANDINGS_API))

    @app.get("/healthz")
    def healthz() -> Response:
        """The venue's own health: the broker connection, paho's network thread, the counts."""
        return jsonify(own_status())

    @app.get("/api/table/<table>")
    def api_table(table: str) -> Response:
        instance = known_table(table)
        raw = request.args.get("after")
        if raw is None:  # the page opening: the latest events
            events = store.last_events(venue, table, instance, EVENTS_SHOWN)
        elif not raw.isdigit() or len(raw) > 18:
            return Response("after must be a row number\n", status=400, mimetype="text/plain")
        else:
            events = store.events(venue, table, instance, after=int(raw), limit=EVENTS_SHOWN)
        summary = next(iter(store.tables(venue, {table})), None)
        return jsonify({"venue": venue, "table": table, "instance": instance, "summary": summary, "events": events})

    @app.get("/events")
    def events() -> Response:
        heartbeat = float(app.config["HEARTBEAT_S"])

        def generate() -> Iterator[bytes]:
            version = store.changes.version
            yield b"retry: 1500\n\n"
            yield f"event: changed\ndata: {json.dumps({'version': version, 'tables': {}})}\n\n".encode()
            quiet = 0.0
            while not stopping.is_set():
                version, changed = store.changes.wait(version, WAKE_S)  # short waits: a stopping venue ends its streams
                if changed:
                    quiet = 0.0
                    yield f"event: changed\ndata: {json.dumps({'version': version, 'tables': changed})}\n\n".encode()
                else:
                    quiet += WAKE_S
                    if quiet >= heartbeat:
                        quiet = 0.0
                        yield b": heartbeat\n\n"

        return Response(generate(), mimetype="text/event-stream", headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

    @app.errorhandler(404)
    def _not_found(exc: Any) -> Any:
        return Response(f"{getattr(exc, 'description', 'not found')}\n", status=404, mimetype="text/plain")

    return app
