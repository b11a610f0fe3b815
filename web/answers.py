"""The answers every open page asks for after each row, built once per moment and seat (issue 22).

After a row lands, every open page asks again: each scoreboard for the board, each player's page for its
own view (with the board). What they get is a pure function of the moment (:meth:`Session.moment`: the
log's last row and the health reports so far) and of who asks. So each answer is built once, kept as
the bytes sent, and the same bytes go to every page asking at that moment; a newer moment drops them all.

A view is kept per seat: a player's view is only ever looked up under that player's own name (its link
was checked first), the referee's whole view under ``None``; the board is public.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import Flask

from companion.referee.session import Session

log = logging.getLogger(__name__)

Moment = tuple[int, int]
"""The log's last row and the health reports so far (:meth:`companion.referee.session.Session.moment`)."""


@dataclass(frozen=True)
class AnswerKey:
    """What one answer depends on."""

    game: str
    """The game instance (:attr:`Session.instance`): a new game's rows start again at 1."""
    moment: Moment
    what: str
    """``board`` or ``view``."""
    seat: str | None
    """Whose view: a player, or None for the referee's (and for the board, which is everyone's)."""


class Answers:
    """The newest moment's answers as sent; thread-safe. Bounded by the table: one board and a view per seat."""

    def __init__(self) -> None:
        self._kept: dict[AnswerKey, bytes] = {}
        self._newest: tuple[str, Moment] | None = None
        self._lock = threading.Lock()
        self.hits = 0
        self.built = 0

    def get(self, key: AnswerKey) -> bytes | None:
        with self._lock:
            body = self._kept.get(key)
            if body is not None:
                self.hits += 1
            return body

    def put(self, key: AnswerKey, body: bytes) -> None:
        with self._lock:
            self.built += 1
            at = (key.game, key.moment)
            if self._newest is not None and at[0] == self._newest[0] and key.moment < self._newest[1]:
                return  # built at a moment already superseded: nobody will ask for it again
            if at != self._newest:  # a new moment (or a new game): every earlier answer is stale
                self._kept.clear()
                self._newest = at
            self._kept[key] = body

    def answer(self, key: AnswerKey, build: Callable[[], tuple[Moment, bytes]]) -> bytes:
        """The answer kept for ``key``, else ``build()``'s, kept under the moment it was built at (a row
        may have landed since ``key``'s moment was read: the answer is kept as what it is)."""
        body = self.get(key)
        if body is None:
            moment, body = build()
            self.put(AnswerKey(key.game, moment, key.what, key.seat), body)
        return body

    def counts(self) -> dict[str, int]:
        with self._lock:
            return {"kept": len(self._kept), "hits": self.hits, "built": self.built}


def json_bytes(app: Flask, value: Any) -> bytes:
    """``value`` as :func:`flask.jsonify` sends it (the app's JSON settings, a final newline)."""
    return (app.json.dumps(value, separators=(",", ":")) + "\n").encode()


def board_answer(app: Flask, session: Session) -> bytes:
    """The public board as ``/api/board`` sends it."""

    def build() -> tuple[Moment, bytes]:
        moment, board = session.stamped_board()
        return moment, json_bytes(app, board)

    return answers(app).answer(AnswerKey(session.instance, session.moment(), "board", None), build)


def view_answer(app: Flask, session: Session, seat: str | None) -> bytes:
    """``seat``'s view with the board (``{"board", "player", "view"}``; the referee's, ``seat`` None,
    has no ``player``), as the player's page and the console get it. The board's bytes are the ones
    kept for ``/api/board`` at that moment: encoded once for every page."""

    def build() -> tuple[Moment, bytes]:
        moment, view, board = session.view_snapshot(seat)
        kept = answers(app)
        board_key = AnswerKey(session.instance, moment, "board", None)
        board_body = kept.get(board_key)
        if board_body is None:
            board_body = json_bytes(app, board)
            kept.put(board_key, board_body)
        def dumps(value: Any) -> bytes:
            return app.json.dumps(value, separators=(",", ":")).encode()

        who = b"" if seat is None else b',"player":' + dumps(seat)
        # The keys in sorted order, as jsonify writes them; the board without its final newline.
        return moment, b'{"board":' + board_body.rstrip(b"\n") + who + b',"view":' + dumps(view) + b"}\n"

    return answers(app).answer(AnswerKey(session.instance, session.moment(), "view", seat), build)


def answers(app: Flask) -> Answers:
    found: Answers = app.extensions["answers"]
    return found


def init_app(app: Flask) -> None:
    app.extensions["answers"] = Answers()
