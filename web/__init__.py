"""The web side: a Flask application factory serving the scoreboard, the log and the live stream.

Pages work offline (no CDN: every script and style is in ``web/static``), are phone-first, and
update over server-sent events. The app is handed a running :class:`~companion.session.Session`;
it never changes game state except through the session's one path in.
"""

from __future__ import annotations

import logging
import secrets
from pathlib import Path
from typing import Any

from flask import Flask

from companion.session import Session
from web.auth import PinGuard, RefereeGrants, game_key
from web.broadcast import Broadcaster

log = logging.getLogger(__name__)


def create_app(session: Session, test_config: dict[str, Any] | None = None) -> Flask:
    """The Flask app for one table's session."""
    app = Flask(__name__)
    app.config.update(
        HEARTBEAT_S=15.0,
        MAX_CONTENT_LENGTH=16 * 1024,  # web.limits.MAX_BODY
        THREADS=64,
        BIND_HOST=None,
        ALLOWED_HOSTS=(),
        PIN_STATE_PATH=None,
        RATE_LIMITS_OFF=False,
        # A new signing key and PIN epoch each start: a referee logs in again after a restart.
        SECRET_KEY=secrets.token_bytes(32),
        PIN_EPOCH=secrets.token_hex(8),
        REFEREE_PIN=None,
        TABLE_SECRET=None,
        SESSION_COOKIE_SAMESITE="Strict",
        SESSION_COOKIE_HTTPONLY=True,
        PIN_FREE_TRIES=5,
        PIN_LOCKOUT_S=30.0,
    )
    if test_config:
        app.config.update(test_config)
    if not app.config["REFEREE_PIN"]:
        raise ValueError("create_app needs a REFEREE_PIN")
    if not app.config["TABLE_SECRET"]:
        app.config["TABLE_SECRET"] = secrets.token_bytes(32)
    app.extensions["session"] = session
    app.extensions["broadcaster"] = Broadcaster(session)
    pin_path = app.config["PIN_STATE_PATH"]
    app.extensions["pin_guard"] = PinGuard(
        app.config["PIN_FREE_TRIES"], app.config["PIN_LOCKOUT_S"], path=Path(pin_path) if pin_path else None
    )
    app.extensions["referee_grants"] = RefereeGrants()
    # Player links open this game instance only (issue 15): the log's header row is part of the key.
    app.config["GAME_KEY"] = game_key(session.game.id, session.log.row(1))

    from web import disputes, hosts, limits, pages, players, referee, stream

    hosts.init_app(app)  # first: a request for a foreign host name is refused before anything else
    limits.init_app(app, int(app.config["THREADS"]))
    disputes.init_app(app, session)

    app.register_blueprint(pages.bp)
    app.register_blueprint(stream.bp)
    app.register_blueprint(referee.bp)
    app.register_blueprint(players.bp)

    @app.after_request
    def _security_headers(response: Any) -> Any:
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        # "same-origin": our own form posts carry a real Origin (with "no-referrer" Chromium sends "null").
        response.headers.setdefault("Referrer-Policy", "same-origin")
        response.headers.setdefault(
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; "
            "frame-ancestors 'none'; form-action 'self'; base-uri 'none'",
        )
        response.headers.setdefault("X-Frame-Options", "DENY")
        return response

    @app.errorhandler(RecursionError)
    @app.errorhandler(OverflowError)
    def _bad_number_or_nesting(exc: Exception) -> Any:
        # Deeply nested JSON or a number too large for the log: the request is bad, not the server.
        return limits.refuse("bad_input", 400, "the request holds a number too large or nesting too deep")

    return app


def table_session(app: Flask) -> Session:
    session: Session = app.extensions["session"]
    return session


def broadcaster(app: Flask) -> Broadcaster:
    b: Broadcaster = app.extensions["broadcaster"]
    return b
