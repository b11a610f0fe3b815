"""Flask's signed-cookie sessions, each cookie's signature checked once (issue 22).

Every request opens the session: Flask builds a signing serializer and checks the cookie's HMAC each
time. After a row lands, eight phones ask about twenty times with the same few cookies; checking each
again was about a tenth of the service's CPU per tap. Here a cookie that was verified is remembered,
by its exact text and the keys that verified it, with its signing time: it is answered again without the
HMAC as long as it would still verify (its age within the session lifetime, as itsdangerous judges
it). A changed byte is a different text, checked afresh; nothing else about sessions changes.
"""

from __future__ import annotations

import copy
import logging
import threading
import time
from collections import OrderedDict
from typing import Any

from flask import Flask, Request
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface
from itsdangerous import BadSignature, URLSafeTimedSerializer

log = logging.getLogger(__name__)

COOKIES_KEPT = 1024
"""Verified cookies remembered (each table's phones hold one each; a new login makes a new one)."""


class CheckedOnceSessions(SecureCookieSessionInterface):
    """:class:`SecureCookieSessionInterface`, remembering the cookies it has verified."""

    def __init__(self, kept: int = COOKIES_KEPT) -> None:
        self.kept = kept
        self._verified: OrderedDict[tuple[Any, str], tuple[dict[str, Any], int]] = OrderedDict()
        self._serializers: dict[Any, URLSafeTimedSerializer | None] = {}
        self._lock = threading.Lock()

    @staticmethod
    def _keys(app: Flask) -> Any:
        return (app.secret_key, tuple(app.config["SECRET_KEY_FALLBACKS"] or ()))

    def get_signing_serializer(self, app: Flask) -> URLSafeTimedSerializer | None:
        keys = self._keys(app)
        with self._lock:
            if keys not in self._serializers:
                self._serializers = {keys: super().get_signing_serializer(app)}  # only the keys in force
            return self._serializers[keys]

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        s = self.get_signing_serializer(app)
        if s is None:
            return None
        val = request.cookies.get(self.get_cookie_name(app))
        if not val:
            return self.session_class()
        max_age = int(app.permanent_session_lifetime.total_seconds())
        seen = (self._keys(app), val)
        with self._lock:
            known = self._verified.get(seen)
            if known is not None:
                self._verified.move_to_end(seen)
        if known is not None:
            data, signed = known
            age = int(time.time()) - signed
            if 0 <= age <= max_age:  # what itsdangerous accepts (SignatureExpired otherwise)
                return self.session_class(_own(data))
        try:
            data, when = s.loads(val, max_age=max_age, return_timestamp=True)
        except BadSignature:
            return self.session_class()
        with self._lock:
            self._verified[seen] = (_own(data), int(when.timestamp()))
            while len(self._verified) > self.kept:
                self._verified.popitem(last=False)
        return self.session_class(data)


def _own(data: dict[str, Any]) -> dict[str, Any]:
    """A copy of a session's data that changing cannot reach the remembered one (ours hold strings:
    a shallow copy; anything mutable inside is copied deeply)."""
    if all(isinstance(v, (str, int, float, bool, type(None))) for v in data.values()):
        return dict(data)
    return copy.deepcopy(data)


def init_app(app: Flask) -> None:
    app.session_interface = CheckedOnceSessions()
