"""The web side: a Flask application factory serving the scoreboard, the log and the live stream.

Pages work offline (no CDN: every script and style is in ``web/static``), are phone-first, and
update over server-sent events. The app is handed a running :class:`~companion.session.Session`;
it never changes game state except through the session's one path in.
"""

from __future__ import annotations

import logging
from typing import Any

from flask import Flask

from companion.session import Session
from web.broadcast import Broadcaster

log = logging.getLogger(__name__)


def create_app(session: Session, test_config: dict[str, Any] | None = None) -> Flask:
    """The Flask app for one table's session."""
    app = Flask(__name__)
    app.config.update(
        HEARTBEAT_S=15.0,
        JSON_SORT_KEYS=False,
        MAX_CONTENT_LENGTH=64 * 1024,
    )
    if test_config:
        app.config.update(test_config)
    app.extensions["session"] = session
    app.extensions["broadcaster"] = Broadcaster(session)

    from web import pages, stream

    app.register_blueprint(pages.bp)
    app.register_blueprint(stream.bp)

    @app.after_request
    def _security_headers(response: Any) -> Any:
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "no-referrer")
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
