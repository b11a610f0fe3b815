"""Who may do what: anyone watches; the referee PIN changes things; a player's token opens their view.

- The PIN is printed at start-up. A signed session cookie remembers a referee who entered it.
- Wrong PINs are rate-limited per client address (a few tries, then a lock-out that doubles) and in
  all (a global budget), with counts kept in a file that survives restarts.
- Logging out revokes the login on the server, not only in the cookie.
- Every state-changing request carries the session's CSRF token (a form field or the
  ``X-CSRF-Token`` header) and, where the browser sends one, an ``Origin`` of this very host.
- Player tokens are HMACs of a link key and the player's name under the table's secret, so they
  cannot be guessed from the name. Which key is whose, and so which link is live, is the table's
  link book (:mod:`web.links`): a link follows its player from game to game and is revoked when
  they leave the table.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
import logging
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit

from flask import Response, abort, current_app, jsonify, redirect, request, session, url_for

from companion.log.private_file import write_private

log = logging.getLogger(__name__)

F = TypeVar("F", bound=Callable[..., Any])

CSRF_FIELD = "csrf"
CSRF_HEADER = "X-CSRF-Token"


def player_token(secret: bytes, key: str, player: str) -> str:
    """A player's link token under link ``key`` (the table's, or the player's own: :class:`web.links.LinkBook`)."""
    return hmac.new(secret, f"{key}\0{player}".encode(), hashlib.sha256).hexdigest()[:24]


GLOBAL_FAILURES = 20
"""Wrong PINs from all addresses together within :data:`GLOBAL_WINDOW_S` before every login waits."""
GLOBAL_WINDOW_S = 600.0


@dataclass
class PinGuard:
    """Counts wrong PINs per client address and in all, and remembers them across restarts.

    - Per address: ``free_tries`` wrong PINs, then a lock-out that doubles with each further one.
    - In all: at most :data:`GLOBAL_FAILURES` wrong PINs in :data:`GLOBAL_WINDOW_S` from every
      address together (so many addresses guess no faster than one); then every address but the
      Pi's own (loopback) waits until the oldest failure leaves the window.
    - ``path``: a small JSON file (mode 0600) beside the table secret, written at each failure,
      read at start-up, so a restart resets nothing. Times in it are wall-clock seconds.
    """

    free_tries: int = 5
    base_lockout_s: float = 30.0
    clock: Callable[[], float] = time.time
    path: Path | None = None
    global_failures: int = GLOBAL_FAILURES
    global_window_s: float = GLOBAL_WINDOW_S
    _failures: dict[str, tuple[int, float]] = field(default_factory=dict)
    _recent: list[float] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        if self.path is not None:
            self._load()

    def _load(self) -> None:
        assert self.path is not None
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            self._recent = [float(t) for t in data.get("recent", [])][-self.global_failures :]
            self._failures = {str(k): (int(v[0]), float(v[1])) for k, v in data.get("addresses", {}).items()}
        except FileNotFoundError:
            return
        except (OSError, ValueError, TypeError, AttributeError, IndexError) as exc:
            # An unreadable count must not open the door: start as if the budget were spent.
            log.warning("%s: cannot read the PIN failure counts (%s); the global budget starts spent", self.path, exc)
            self._recent = [self.clock()] * self.global_failures

    def _save(self) -> None:
        if self.path is None:
            return
        data = {"recent": self._recent, "addresses": {k: list(v) for k, v in self._failures.items()}}
        write_private(self.path, json.dumps(data).encode("utf-8"))

    def _global_wait(self, now: float) -> float:
        self._recent = [t for t in self._recent if t > now - self.global_window_s]
        if len(self._recent) < self.global_failures:
            return 0.0
        return self._recent[-self.global_failures] + self.global_window_s - now

    def locked_for(self, client: str) -> float:
        """Seconds this client must still wait before trying again (0 = may try)."""
        now = self.clock()
        with self._lock:
            _count, until = self._failures.get(client, (0, 0.0))
            wait = max(0.0, until - now)
            if client not in LOOPBACK_CLIENTS:
                wait = max(wait, self._global_wait(now))
        return wait

    def failed(self, client: str) -> None:
        now = self.clock()
        with self._lock:
            count, _ = self._failures.pop(client, (0, 0.0))
            count += 1
            until = 0.0
            if count >= self.free_tries:
                until = now + self.base_lockout_s * 2 ** min(count - self.free_tries, 16)
            self._failures[client] = (count, until)
            if len(self._failures) > 10_000:  # a flood of addresses must not grow memory without end
                self._failures.pop(next(iter(self._failures)))
            self._recent.append(now)
            self._recent = self._recent[-self.global_failures :]
            self._save()

    def succeeded(self, client: str) -> None:
        with self._lock:
            if self._failures.pop(client, None) is not None:
                self._save()


LOOPBACK_CLIENTS = frozenset({"127.0.0.1", "::1"})


def csrf_token() -> str:
    token = session.get(CSRF_FIELD)
    if not isinstance(token, str):
        token = secrets.token_urlsafe(24)
        session[CSRF_FIELD] = token
    return token


class RefereeGrants:
    """Referee logins alive on the server: logging out ends one here, not only in the cookie."""

    def __init__(self) -> None:
        self._live: set[str] = set()
        self._lock = threading.Lock()

    def grant(self) -> str:
        grant = secrets.token_urlsafe(16)
        with self._lock:
            if len(self._live) > 1000:  # many logins, never logged out: the oldest are forgotten
                self._live.pop()
            self._live.add(grant)
        return grant

    def revoke(self, grant: object) -> None:
        with self._lock:
            self._live.discard(str(grant))

    def __contains__(self, grant: object) -> bool:
        with self._lock:
            return isinstance(grant, str) and grant in self._live


def _grants() -> RefereeGrants:
    grants: RefereeGrants = current_app.extensions["referee_grants"]
    return grants


def grant_referee() -> None:
    """The PIN was right: this browser's session is the referee's until logout or restart."""
    session["referee"] = current_app.config["PIN_EPOCH"]
    session["grant"] = _grants().grant()


def revoke_referee() -> None:
    """Logout: the grant ends on the server, so a copy of the old cookie opens nothing."""
    _grants().revoke(session.get("grant"))
    session.pop("referee", None)
    session.pop("grant", None)


def is_referee() -> bool:
    return bool(session.get("referee") == current_app.config["PIN_EPOCH"] and session.get("grant") in _grants())


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
            if request.method == "GET" and not request.path.startswith("/api/") and request.accept_mimetypes.accept_html:
                # A browser goes to the PIN form, and comes back here after it; an API client gets JSON.
                return redirect(url_for("referee.login_form", next=request.path), code=303)
            return jsonify({"error": "the referee PIN is needed"}), 401
        if request.method not in ("GET", "HEAD", "OPTIONS"):
            check_csrf()
        return view(*args, **kwargs)

    return wrapped  # type: ignore[return-value]


def safe_next(raw: str | None) -> str:
    """Where to go after the PIN: a path on this site only (never another host), else the console."""
    if raw and raw.startswith("/") and not raw.startswith("//") and "\\" not in raw and len(raw) <= 200:
        return raw
    return "/referee"


def client_address() -> str:
    return request.remote_addr or "unknown"
