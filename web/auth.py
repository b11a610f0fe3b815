"""Who may do what: anyone watches; the referee PIN changes things; a player's token opens their view.

- The PIN is printed at start-up. A signed session cookie remembers a referee who entered it.
- Wrong PINs are rate-limited per client address: a few tries, then a lock-out that doubles.
- Every state-changing request carries the session's CSRF token (a form field or the
  ``X-CSRF-Token`` header) and, where the browser sends one, an ``Origin`` of this very host.
- Player tokens are HMACs of the player's name under the table's secret, so the links printed at
  start-up keep working after a restart and cannot be guessed from the name.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import logging
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar
from urllib.parse import urlsplit

from flask import Response, abort, current_app, jsonify, request, session

log = logging.getLogger(__name__)

F = TypeVar("F", bound=Callable[..., Any])

CSRF_FIELD = "csrf"
CSRF_HEADER = "X-CSRF-Token"


def player_token(secret: bytes, game_id: str, player: str) -> str:
    return hmac.new(secret, f"{game_id}\0{player}".encode(), hashlib.sha256).hexdigest()[:24]


@dataclass
class PinGuard:
    """Counts wrong PINs per client address and locks an address out for a while after too many."""

    free_tries: int = 5
    base_lockout_s: float = 30.0
    clock: Callable[[], float] = time.monotonic
    _failures: dict[str, tuple[int, float]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def locked_for(self, client: str) -> float:
        """Seconds this client must still wait before trying again (0 = may try)."""
        with self._lock:
            count, until = self._failures.get(client, (0, 0.0))
        return max(0.0, until - self.clock())

    def failed(self, client: str) -> None:
        with self._lock:
            count, _ = self._failures.get(client, (0, 0.0))
            count += 1
            until = 0.0
            if count >= self.free_tries:
                until = self.clock() + self.base_lockout_s * 2 ** (count - self.free_tries)
            self._failures[client] = (count, until)
            if len(self._failures) > 10_000:  # a flood of addresses must not grow memory without end
                self._failures.pop(next(iter(self._failures)))

    def succeeded(self, client: str) -> None:
        with self._lock:
            self._failures.pop(client, None)


def csrf_token() -> str:
    token = session.get(CSRF_FIELD)
    if not isinstance(token, str):
        token = secrets.token_urlsafe(24)
        session[CSRF_FIELD] = token
    return token


def is_referee() -> bool:
    return bool(session.get("referee") == current_app.config["PIN_EPOCH"])


def _same_origin() -> bool:
    origin = request.headers.get("Origin")
    if origin is None or origin == "null":
        return origin is None
    parts = urlsplit(origin)
    return parts.netloc == request.host


def check_csrf() -> None:
    """Refuse a state-changing request without this session's token or from another site."""
    sent = request.headers.get(CSRF_HEADER) or request.form.get(CSRF_FIELD)
    expected = session.get(CSRF_FIELD)
    if not _same_origin():
        abort(Response("cross-site request refused\n", status=403, mimetype="text/plain"))
    if not isinstance(sent, str) or not isinstance(expected, str) or not hmac.compare_digest(sent, expected):
        abort(Response("missing or wrong CSRF token; reload the page\n", status=403, mimetype="text/plain"))


def referee_required(view: F) -> F:
    """The referee PIN is needed; state-changing methods also need the CSRF token."""

    @functools.wraps(view)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        if not is_referee():
            if request.accept_mimetypes.best == "text/html" and request.method == "GET":
                abort(Response("enter the referee PIN first: /referee/login\n", status=401, mimetype="text/plain"))
            return jsonify({"error": "the referee PIN is needed"}), 401
        if request.method not in ("GET", "HEAD", "OPTIONS"):
            check_csrf()
        return view(*args, **kwargs)

    return wrapped  # type: ignore[return-value]


def client_address() -> str:
    return request.remote_addr or "unknown"
