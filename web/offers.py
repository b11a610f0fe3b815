"""The builder's offers as the pages get them: each built once per state, viewer and draft (issue 26).

An offer is a pure function of the state (the log row it stands at), who looks (a player's link or the
referee) and the draft. A page asks again for the same offer often: on every board change, from each
open tab, after a move of its own. So an answer is kept, as the bytes sent, in a bounded LRU keyed by
the game instance (its player-link key), the row, the viewer and the draft; a new row makes a new key
and drops the answers of earlier rows at once. Building an offer costs CPU (the engine judges the
candidates); answering from here costs a dictionary lookup, and spends no token of the offer buckets
(``web.limits.OFFER_LINK_RATE``): those bound the building.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from dataclasses import dataclass

from flask import Flask

log = logging.getLogger(__name__)

OFFERS_KEPT = 512
"""Answers kept (a few taps' worth for every seat at the table, several times over)."""
OFFER_BYTES_KEPT = 8 * 1024 * 1024
"""Bytes of answers kept; the oldest go first beyond either bound."""


@dataclass(frozen=True)
class OfferKey:
    """What an offer depends on."""

    game: str
    """The game instance (:attr:`Session.instance`): a new game's rows start again at 1."""
    seq: int
    """The log row the state stands at."""
    viewer: str | None
    """Whose page: a player, or None for the referee."""
    draft: str
    """The draft, with who acts, as one canonical string (:meth:`companion.entry.draft.Draft.key`)."""


class OfferCache:
    """Offers as sent, kept per :class:`OfferKey`; thread-safe, bounded in count and in bytes."""

    def __init__(self, entries: int = OFFERS_KEPT, size: int = OFFER_BYTES_KEPT) -> None:
        self.entries = entries
        self.size = size
        self._kept: OrderedDict[OfferKey, bytes] = OrderedDict()
        self._bytes = 0
        self._newest: dict[str, int] = {}
        self._lock = threading.Lock()
        self.hits = 0
        self.built = 0

    def get(self, key: OfferKey) -> bytes | None:
        with self._lock:
            body = self._kept.get(key)
            if body is None:
                return None
            self._kept.move_to_end(key)
            self.hits += 1
            return body

    def put(self, key: OfferKey, body: bytes) -> None:
        with self._lock:
            self.built += 1
            newest = self._newest.get(key.game, 0)
            if key.seq < newest:
                return  # built on a row already superseded: nobody will ask for it again
            if key.seq > newest:  # a new row: every answer of the rows before it is stale
                self._newest = {key.game: key.seq}
                for old in [k for k in self._kept if k.game != key.game or k.seq < key.seq]:
                    self._bytes -= len(self._kept.pop(old))
            if key in self._kept:
                self._bytes -= len(self._kept.pop(key))
            self._kept[key] = body
            self._bytes += len(body)
            while self._kept and (len(self._kept) > self.entries or self._bytes > self.size):
                _, dropped = self._kept.popitem(last=False)
                self._bytes -= len(dropped)

    def __len__(self) -> int:
        with self._lock:
            return len(self._kept)

    def counts(self) -> dict[str, int]:
        with self._lock:
            return {"kept": len(self._kept), "bytes": self._bytes, "hits": self.hits, "built": self.built}


def offer_cache(app: Flask) -> OfferCache:
    found: OfferCache = app.extensions["offer_cache"]
    return found


def init_app(app: Flask) -> None:
    app.extensions["offer_cache"] = OfferCache()
