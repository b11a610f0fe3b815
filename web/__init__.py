"""The web side: a Flask application factory serving the scoreboard, the log and the live stream.

Pages work offline (no CDN: every script and style is in ``web/static``), are phone-first, and
update over server-sent events. The app is handed a running :class:`~companion.session.Session`;
it never changes game state except through the session's one path in.
"""

from __future__ import annotations

import logging
import secrets
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from flask import Flask, g, has_request_context, request

from companion.core import Header

from companion.referee.session import Session
from web.auth import PinGuard, RefereeGrants
from web.broadcast import Broadcaster
from web.headers import add_security_headers
from web.links import LinkBook

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
        LINKS_PATH=None,
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
    app.extensions["slot"] = SessionSlot(session)
    app.extensions["broadcaster"] = Broadcaster(session)
    app.extensions["host"] = None  # a GameHost (TableService) lets the console start new games
    pin_path = app.config["PIN_STATE_PATH"]
    app.extensions["pin_guard"] = PinGuard(
        app.config["PIN_FREE_TRIES"], app.config["PIN_LOCKOUT_S"], path=Path(pin_path) if pin_path else None
    )
    app.extensions["referee_grants"] = RefereeGrants()
    # Player links belong to the players at the table and follow them from game to game (web.links).
    links_path = app.config["LINKS_PATH"]
    app.extensions["links"] = LinkBook(app.config["TABLE_SECRET"], Path(links_path) if links_path else None)
    app.extensions["links"].seat(session.header.players)

    from web import answers, cookies, disputes, hosts, lifecycle, limits, offers, pages, panels, players, referee, stream, taps

    hosts.init_app(app)  # first: a request for a foreign host name is refused before anything else
    cookies.init_app(app)
    limits.init_app(app, int(app.config["THREADS"]))
    disputes.init_app(app, session)
    offers.init_app(app)
    app.extensions["broadcaster"].on_rows.append(offers.offer_warmer(app).row_landed)
    answers.init_app(app)

    panels.init_app(app)
    app.register_blueprint(pages.bp)
    app.register_blueprint(stream.bp)
    app.register_blueprint(referee.bp)
    app.register_blueprint(players.bp)
    app.register_blueprint(taps.bp)
    app.register_blueprint(lifecycle.bp)

    @app.before_request
    def _hold_the_game() -> None:
        if request.path != "/events":  # a stream is ended on a swap instead of waited for
            g.game_session = slot(app).enter()

    @app.teardown_request
    def _release_the_game(exc: BaseException | None) -> None:
        if g.pop("game_session", None) is not None:
            slot(app).leave()

    @app.after_request
    def _security_headers(response: Any) -> Any:
        return add_security_headers(response, form_action="'self'")

    @app.errorhandler(RecursionError)
    @app.errorhandler(OverflowError)
    def _bad_number_or_nesting(exc: Exception) -> Any:
        # Deeply nested JSON or a number too large for the log: the request is bad, not the server.
        return limits.refuse("bad_input", 400, "the request holds a number too large or nesting too deep")

    return app


def table_session(app: Flask) -> Session:
    """The game this request sees: the same one from its start to its end, even if the table moves
    on to a new game meanwhile (see :class:`SessionSlot`)."""
    if has_request_context() and "game_session" in g:
        held: Session = g.game_session
        return held
    return slot(app).current


class GameHost(Protocol):
    """What starts a new game at this table (the running TableService)."""

    def new_game(self, header: Header) -> Session: ...


class SessionSlot:
    """The table's current game, swapped when a new game starts.

    Every request (but a live stream, which is ended with a "game" event and reconnects) holds the
    game it started with until it ends; a swap waits for those requests, and new ones wait for the
    swap: no request ever sees a game whose log is being closed.
    """

    SWAP_WAIT_S = 10.0

    def __init__(self, session: Session) -> None:
        self._session = session
        self._cond = threading.Condition()
        self._busy = 0
        self._swapping = False

    @property
    def current(self) -> Session:
        with self._cond:
            return self._session

    def enter(self) -> Session:
        with self._cond:
            while self._swapping:
                self._cond.wait()
            self._busy += 1
            return self._session

    def leave(self) -> None:
        with self._cond:
            self._busy -= 1
            self._cond.notify_all()

    def swap(self, make: Callable[[Session], Session]) -> Session:
        """Replace the game with ``make(old)`` once no request holds the old one."""
        with self._cond:
            self._swapping = True
            self._cond.wait_for(lambda: self._busy == 0, timeout=self.SWAP_WAIT_S)
            if self._busy:
                log.warning("starting a new game while %d requests still read the last one", self._busy)
            try:
                self._session = make(self._session)
            finally:
                self._swapping = False
                self._cond.notify_all()
            return self._session


def slot(app: Flask) -> SessionSlot:
    found: SessionSlot = app.extensions["slot"]
    return found


def moved_on(app: Flask, session: Session) -> None:
    """The table's game is now ``session``: player links (anyone who left loses theirs), dispute
    snapshots and every open page follow. Called while no request holds a game (:meth:`SessionSlot.swap`)."""
    from web import disputes
    from web.links import links

    links(app).seat(session.header.players)
    disputes.init_app(app, session)
    broadcaster(app).switch(session)


def let_go_of_the_game(app: Flask) -> None:
    """This request stops holding the game it started with (it is about to replace it)."""
    if g.pop("game_session", None) is not None:
        slot(app).leave()


def host(app: Flask) -> GameHost | None:
    found: GameHost | None = app.extensions["host"]
    return found


def broadcaster(app: Flask) -> Broadcaster:
    b: Broadcaster = app.extensions["broadcaster"]
    return b
