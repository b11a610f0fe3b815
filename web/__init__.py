"""The web side: a Flask application factory serving the scoreboard, the log and the live stream.

Pages work offline (no CDN: every script and style is in ``web/static``), are phone-first, and
update over server-sent events. The app is handed a running :class:`~companion.session.Session`;
it never changes game state except through the session's one path in.
"""

from __future__ import annotations

import logging
import secrets
from typing import Any

from flask import Flask

from companion.session import Session
from web.auth import PinGuard
from web.broadcast import Broadcaster

log = logging.getLogger(__name__)


def create_app(session: Session, test_config: dict[str, Any] | None = None) -> Flask:
    """The Flask app for one table's session."""
    app = Flask(__name__)
    app.config.update(
        HEARTBEAT_S=15.0,
        MAX_CONTENT_LENGTH=64 * 1024,
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
    app.extensions["pin_guard"] = PinGuard(app.config["PIN_FREE_TRIES"], app.config["PIN_LOCKOUT_S"])

    from web import pages, players, referee, stream, taps

    app.register_blueprint(pages.bp)
    app.register_blueprint(stream.bp)
    app.register_blueprint(referee.bp)
    app.register_blueprint(players.bp)
    app.register_blueprint(taps.bp)

    @app.after_request
    def _security_headers(response: Any) -> Any:
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        # "same-origin": our own form posts carry a real Origin (with "no-referrer" Chromium sends "null").
        response.headers.setdefault("Referrer-Policy", "same-origin")
        response.headers.setdefault(
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'",
        )
        return response

    return app


def table_session(app: Flask) -> Session:
    session: Session = app.extensions["session"]
    return session


def broadcaster(app: Flask) -> Broadcaster:
    b: Broadcaster = app.extensions["broadcaster"]
    return b
