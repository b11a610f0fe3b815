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

from companion.entry.builder import Draft, offer
from companion.referee.session import Session

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
        self._building: dict[OfferKey, threading.Event] = {}
        self._lock = threading.Lock()
        self.hits = 0
        self.built = 0
        self.warmed = 0

    def get(self, key: OfferKey) -> bytes | None:
        with self._lock:
            body = self._kept.get(key)
            if body is None:
                return None
            self._kept.move_to_end(key)
            self.hits += 1
            return body

    def begin(self, key: OfferKey) -> bytes | threading.Event | None:
        """The answer kept for ``key``; or, while another thread builds it, the event set when that build
        is over; or None: the caller builds it, and calls :meth:`finish` once done (or given up)."""
        with self._lock:
            body = self._kept.get(key)
            if body is not None:
                self._kept.move_to_end(key)
                self.hits += 1
                return body
            under_way = self._building.get(key)
            if under_way is not None:
                return under_way
            self._building[key] = threading.Event()
            return None

    def finish(self, key: OfferKey) -> None:
        """A build :meth:`begin` handed out is over (kept with :meth:`put`, or not): whoever waits goes on."""
        with self._lock:
            done = self._building.pop(key, None)
        if done is not None:
            done.set()

    def put(self, key: OfferKey, body: bytes, warmed: bool = False) -> None:
        with self._lock:
            if warmed:
                self.warmed += 1
            else:
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
            return {"kept": len(self._kept), "bytes": self._bytes, "hits": self.hits, "built": self.built,
                    "warmed": self.warmed}


def offer_body(app: Flask, session: Session, state: object, seq: int, viewer: str | None, draft: Draft) -> bytes:
    """The offer for ``draft`` as ``viewer`` sees ``state`` (at row ``seq``), as sent. Raises
    :class:`companion.core.errors.NotationError` for a draft the game cannot read."""
    found = offer(session.game, state, session.header.players, viewer, draft)
    found["seq"] = seq
    return app.json.dumps(found).encode()


WARM_WITHIN_ROWS = 8
"""A page that asked for its offer this few rows ago is open still: it asks again on every row."""
WARMER_IDLE_S = 30.0
"""The warming thread ends after this long without a row (a new one starts with the next)."""


class OfferWarmer:
    """Builds, when a row lands, the offer each open player page will ask for on its board event.

    A player's page asks for its builder's first offer (the empty draft) after every row. Built here, in
    one thread of its own as soon as the row is written, it is ready (or under way, and waited for:
    :meth:`OfferCache.begin`) when the page asks, instead of built only then, one page after another.
    Only players whose page asked at one of the last :data:`WARM_WITHIN_ROWS` rows are warmed: no CPU is
    spent for a page nobody has open. A warmed offer is kept under its player's own key, like any other.
    """

    def __init__(self, app: Flask) -> None:
        self.app = app
        self._asked: dict[tuple[str, str], int] = {}
        """(game instance, player) -> the last row at which that player's page asked for its first offer."""
        self._due: Session | None = None
        self._wake = threading.Condition()
        self._thread: threading.Thread | None = None

    def asked(self, session: Session, player: str, seq: int) -> None:
        """``player``'s page asked for its first offer at row ``seq``."""
        game = session.instance
        with self._wake:
            if (game, player) not in self._asked:  # a new page, or a new game: the last game's pages are gone
                self._asked = {k: at for k, at in self._asked.items() if k[0] == game}
            self._asked[(game, player)] = seq

    def row_landed(self, session: Session) -> None:
        """Rows were written: warm the open pages' offers (only the newest rows' are ever built)."""
        game = session.instance
        with self._wake:
            if not any(asked_in == game for asked_in, _ in self._asked):
                return
            self._due = session
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="offer-warmer", daemon=True)
                self._thread.start()
            self._wake.notify()

    def _run(self) -> None:
        while True:
            with self._wake:
                if self._due is None:
                    self._wake.wait(WARMER_IDLE_S)
                if self._due is None:  # a quiet table: the thread ends, the next row starts another
                    self._thread = None
                    return
                session, self._due = self._due, None
            # Read off this lock: a take-back calls row_landed while it holds the session's lock.
            state, seq = session.snapshot()
            game = session.instance
            with self._wake:
                players = [p for (asked_in, p), at in self._asked.items()
                           if asked_in == game and seq - at <= WARM_WITHIN_ROWS and p in session.header.players]
            for player in players:
                with self._wake:
                    if self._due is not None:
                        break  # a newer row landed: its offers are the ones the pages will ask for
                try:
                    self._warm(session, state, seq, player)
                except Exception:  # a bug in one game's offer must not stop warming; the page's own ask will show it
                    log.exception("could not warm %s's offer at row %d", player[:40], seq)

    def _warm(self, session: Session, state: object, seq: int, player: str) -> None:
        cache = offer_cache(self.app)
        draft = Draft.from_json(None, player)
        key = OfferKey(session.instance, seq, player, draft.key())
        if cache.begin(key) is not None:
            return  # kept already, or under way
        try:
            cache.put(key, offer_body(self.app, session, state, seq, player, draft), warmed=True)
        finally:
            cache.finish(key)


def offer_cache(app: Flask) -> OfferCache:
    found: OfferCache = app.extensions["offer_cache"]
    return found


def offer_warmer(app: Flask) -> OfferWarmer:
    found: OfferWarmer = app.extensions["offer_warmer"]
    return found


def init_app(app: Flask) -> None:
    app.extensions["offer_cache"] = OfferCache()
    app.extensions["offer_warmer"] = OfferWarmer(app)
