"""Player links belong to the player at the table, not to one game (issue 22).

- A link is ``/p/<name>/<token>``, the token an HMAC of the player's link key and name under the
  table's secret (:func:`web.auth.player_token`), so it cannot be guessed from the name.
- Everyone shares the table's link key until their link is revoked; then they get a key of their own.
  So the same player keeps the same link through Play again and every new game they are in.
- A player who is no longer at the table (the next game does not seat them) has their link revoked:
  if they sit down again later, they get a new one.
- The referee can rotate every link at once (a new table key, no own keys).
- A link only ever opens a game its player is in: :func:`web.players.player_or_404` checks the seat.
- The book is kept in a small JSON file (mode 0600) beside the log and its secret, so links survive a
  restart; without a file (tests, the demo) it lives in memory with a fresh key.
"""

from __future__ import annotations

import hmac
import json
import logging
import secrets
import threading
from collections.abc import Callable, Iterable
from pathlib import Path

from flask import Flask

from companion.log.private_file import write_private
from web.auth import player_token

log = logging.getLogger(__name__)

KEY_BYTES = 12


def _new_key() -> str:
    return secrets.token_hex(KEY_BYTES)


class LinkBook:
    """Whose link opens what at this table; thread-safe, and written through to ``path`` on each change."""

    def __init__(self, secret: bytes, path: Path | None = None) -> None:
        self._secret = secret
        self._path = path
        self._lock = threading.Lock()
        self._table_key = _new_key()
        self._own: dict[str, str] = {}
        self._seated: tuple[str, ...] = ()
        self._listeners: list[Callable[[], None]] = []
        if path is not None:
            self._read(path)

    def _read(self, path: Path) -> None:
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return
        except (OSError, ValueError) as exc:
            # An unreadable book revokes every link (a fresh key): safe, and the referee hands out new ones.
            log.warning("%s: cannot read the player links (%s); every link is new", path, exc)
            return
        if not isinstance(raw, dict) or not isinstance(raw.get("table"), str):
            log.warning("%s: not a link book; every link is new", path)
            return
        own = raw.get("own", {})
        seated = raw.get("seated", [])
        self._table_key = raw["table"]
        self._own = {str(p): str(k) for p, k in own.items()} if isinstance(own, dict) else {}
        self._seated = tuple(str(p) for p in seated) if isinstance(seated, list) else ()

    def _write(self) -> None:
        if self._path is None:
            return
        data = {"table": self._table_key, "own": self._own, "seated": list(self._seated)}
        write_private(self._path, (json.dumps(data, sort_keys=True) + "\n").encode("utf-8"))

    def token(self, player: str) -> str:
        """``player``'s link token now."""
        with self._lock:
            key = self._own.get(player, self._table_key)
        return player_token(self._secret, key, player)

    def opens(self, player: str, token: str) -> bool:
        """Whether ``token`` is ``player``'s current link (compared in constant time)."""
        return hmac.compare_digest(token.encode()[:64], self.token(player).encode())

    def path_for(self, player: str) -> str:
        """The player page's path, ``p/<name>/<token>`` (no leading slash: it follows a base URL)."""
        return f"p/{player}/{self.token(player)}"

    @property
    def seated(self) -> tuple[str, ...]:
        with self._lock:
            return self._seated

    def seat(self, players: Iterable[str]) -> tuple[str, ...]:
        """The table now seats ``players``: the link of anyone who has left is revoked. Returns those revoked."""
        now = tuple(players)
        with self._lock:
            gone = tuple(p for p in self._seated if p not in now)
            for player in gone:
                self._own[player] = _new_key()
            changed = gone or now != self._seated
            self._seated = now
            if changed:
                self._write()
        if gone:
            log.info("player links revoked for %s (no longer at the table)", ", ".join(gone))
        if changed:
            self._tell()
        return gone

    def rotate(self) -> None:
        """Every link is new: the table key is replaced and no one keeps a key of their own."""
        with self._lock:
            self._table_key = _new_key()
            self._own = {}
            self._write()
        log.info("every player link rotated")
        self._tell()

    def on_change(self, listener: Callable[[], None]) -> None:
        """Call ``listener`` after the links change (someone left, or a rotation), e.g. to rewrite the access file."""
        self._listeners.append(listener)

    def _tell(self) -> None:
        for listener in list(self._listeners):
            listener()


def links(app: Flask) -> LinkBook:
    """The app's link book."""
    book: LinkBook = app.extensions["links"]
    return book


def player_link(app: Flask, player: str) -> str:
    """``player``'s page, ``/p/<name>/<token>``."""
    return "/" + links(app).path_for(player)
