"""Size and rate limits for every request (issue 15, items 2-4).

- Rates are token buckets: per client address for every request, tighter ones for state changes,
  for each player link, for the dispute view, and for offers built (per link and per address). The Pi's own loopback address has no per-address
  limit (nobody on the Wi-Fi is loopback); the per-link ones and the stream total apply to it too. A refusal's
  ``Retry-After`` is the truth (issue 22): a client that waits exactly that long gets through. A refused
  request made sooner than it was told spends a token, so a client that keeps hammering stays refused
  (the bucket may run into debt) until it slows down.
- Sizes: a short URL, a small JSON body of limited depth, short strings, a small move. An
  oversized move is refused before it reaches the session, so it never becomes a log row.
- Streams: ``/events`` takes a slot, per client and in all, and there are fewer slots than server
  threads: pages always find a free thread. A stream over the limit gets 503 with Retry-After.

Every refusal is one short plain-text message that never repeats the input, and is counted
(``/healthz`` shows the counts).
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections import Counter, OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from flask import Flask, Response, current_app, request

from companion.core.jsontext import too_deep

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Rate:
    """``burst`` requests at once, then ``per_s`` a second."""

    burst: float
    per_s: float


ADDRESS_RATE = Rate(burst=120, per_s=20)
"""Every request from one address: a phone loading a page fetches a handful of files."""
WRITE_RATE = Rate(burst=20, per_s=2)
"""State-changing requests (POST) from one address."""
LINK_RATE = Rate(burst=10, per_s=1)
"""Moves through one player link: a person taps, at most about one a second."""
DISPUTE_RATE = Rate(burst=10, per_s=2)
"""``/api/log/<seq>`` (the dispute view) from one address."""
OFFER_LINK_RATE = Rate(burst=20, per_s=3)
"""Offers built for one player link (issue 26): a page asks for one on every tap and on every board
change (at most twice a second for those); an offer the cache answers spends nothing."""
OFFER_ADDRESS_RATE = Rate(burst=40, per_s=6)
"""Offers built for one address (the referee's console, or several links open on one phone)."""

MAX_URL = 8192
"""Longest path plus query string."""
MAX_BODY = 16 * 1024
"""Largest request body (Flask's MAX_CONTENT_LENGTH and waitress's max_request_body_size)."""
MAX_HEADER = 16 * 1024
"""Largest request head (waitress's max_request_header_size)."""
MAX_JSON_DEPTH = 8
"""Deepest nesting of a JSON body: a move is a flat object with a list or two."""
MAX_MOVE_BYTES = 2048
"""Largest move, as compact JSON."""
MAX_FIELD = 128
"""Longest string anywhere in a move (a card id, a player's name, a room)."""
MAX_ITEMS = 64
"""Longest list or object anywhere in a move (a hand of cards counted at the end of a round)."""

STREAMS_PER_CLIENT = 6
"""Open ``/events`` streams one address may hold (a phone with a few tabs)."""
def stream_headroom(threads: int) -> int:
    """Server threads a stream can never take, so pages and moves always find one free: an eighth, at least 2."""
    return max(2, threads // 8)

RETRY_AFTER_S = 5
LOOPBACK_CLIENTS = frozenset({"127.0.0.1", "::1"})
"""The Pi itself (its kiosk screen, the benchmark): no per-address limit, as no one on the Wi-Fi is
loopback. The limits on all clients together (streams in all, each player link) still apply."""
KEYS_KEPT = 10_000
"""Buckets remembered; the oldest is forgotten first, so a flood of addresses cannot grow memory."""


class Buckets:
    """Token buckets by key (an address, a player link), thread-safe and bounded in number.

    ``Retry-After`` is the truth: a refusal says when a request will be allowed, and a client that
    comes back then is. Only a request made before the time its key was last told is charged a
    token while refused (down to one burst of debt), so a client that hammers on stays refused and
    one that waits as told is never set back by its own earlier refusals."""

    def __init__(self, rate: Rate, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.clock = clock
        self._buckets: OrderedDict[str, _Bucket] = OrderedDict()
        self._lock = threading.Lock()

    def spend(self, key: str) -> float:
        """Spend a token for ``key``: 0 if allowed, else the seconds until a request would be."""
        now = self.clock()
        rate = self.rate
        with self._lock:
            tokens, then, told = self._buckets.pop(key, (rate.burst, now, now))
            tokens = min(rate.burst, tokens + (now - then) * rate.per_s)
            if tokens >= 1:
                self._buckets[key] = _Bucket(tokens - 1, now, now)
                wait = 0.0
            else:
                if now < told:  # back before the time it was told: hammering, which costs
                    tokens = max(-rate.burst, tokens - 1)
                # Truthful: a request made this many seconds later finds a whole token (and is allowed).
                wait = (1 - tokens) / rate.per_s
                self._buckets[key] = _Bucket(tokens, now, now + wait)
            while len(self._buckets) > KEYS_KEPT:
                self._buckets.popitem(last=False)
        return wait


class _Bucket(NamedTuple):
    tokens: float
    then: float
    """When ``tokens`` was counted."""
    told: float
    """The time a refusal last told the key to come back at (``then`` when none stands)."""


class StreamSlots:
    """Open event streams, per address and in all."""

    def __init__(self, total: int, per_client: int) -> None:
        self.total = total
        self.per_client = per_client
        self._open: Counter[str] = Counter()
        self._lock = threading.Lock()

    def take(self, client: str) -> bool:
        with self._lock:
            if sum(self._open.values()) >= self.total:
                return False
            if client not in LOOPBACK_CLIENTS and self._open[client] >= self.per_client:
                return False
            self._open[client] += 1
            return True

    def give_back(self, client: str) -> None:
        with self._lock:
            self._open[client] -= 1
            if self._open[client] <= 0:
                del self._open[client]

    @property
    def in_use(self) -> int:
        with self._lock:
            return sum(self._open.values())


class Limits:
    """The app's buckets, stream slots and refusal counts."""

    def __init__(self, threads: int) -> None:
        self.address = Buckets(ADDRESS_RATE)
        self.write = Buckets(WRITE_RATE)
        self.link = Buckets(LINK_RATE)
        self.dispute = Buckets(DISPUTE_RATE)
        self.offer_link = Buckets(OFFER_LINK_RATE)
        self.offer_address = Buckets(OFFER_ADDRESS_RATE)
        self.streams = StreamSlots(max(1, threads - stream_headroom(threads)), STREAMS_PER_CLIENT)
        self.refused: Counter[str] = Counter()
        self._lock = threading.Lock()

    def count(self, what: str) -> None:
        with self._lock:
            self.refused[what] += 1

    def counts(self) -> dict[str, int]:
        with self._lock:
            return dict(self.refused)


def limits(app: Flask) -> Limits:
    found: Limits = app.extensions["limits"]
    return found


def refuse(what: str, status: int, message: str, retry_after: float | None = None) -> Response:
    """One short plain-text refusal, counted under ``what``."""
    limits(current_app).count(what)
    response = Response(message + "\n", status=status, mimetype="text/plain")
    if retry_after is not None:
        response.headers["Retry-After"] = str(max(1, math.ceil(retry_after)))  # never sooner than true
    return response


def _client() -> str:
    return request.remote_addr or "unknown"


def _check_request() -> Response | None:
    """Before every request: URL and body size, JSON depth, then the rates that apply."""
    rates = not current_app.config.get("RATE_LIMITS_OFF")
    if len(request.full_path) > MAX_URL:
        return refuse("url", 414, f"the address is too long (at most {MAX_URL} characters)")
    length = request.content_length
    if length is not None and length > current_app.config["MAX_CONTENT_LENGTH"]:
        return refuse("body", 413, f"the request body is too large (at most {current_app.config['MAX_CONTENT_LENGTH']} bytes)")
    if request.is_json and request.method == "POST":
        if too_deep(request.get_data(cache=True), MAX_JSON_DEPTH):
            return refuse("json", 400, f"the JSON body nests too deep (at most {MAX_JSON_DEPTH} levels)")
    if not rates:
        return None
    found = limits(current_app)
    client = _client()
    local = client in LOOPBACK_CLIENTS
    wait = 0.0 if local else found.address.spend(client)
    if wait:
        return refuse("rate", 429, "too many requests from this address; slow down", wait)
    if request.method == "POST" and not local:
        wait = found.write.spend(client)
        if wait:
            return refuse("rate", 429, "too many changes from this address; slow down", wait)
    parts = request.path.split("/")
    if len(parts) >= 5 and parts[1] == "api" and parts[2] == "p" and request.method == "POST":
        wait = found.link.spend(f"{parts[3][:64]}/{parts[4][:64]}")
        if wait:
            return refuse("rate", 429, "too many moves through this player link; slow down", wait)
    if len(parts) == 4 and parts[1] == "api" and parts[2] == "log" and parts[3] and not local:
        wait = found.dispute.spend(client)
        if wait:
            return refuse("rate", 429, "too many dispute views from this address; slow down", wait)
    return None


def offer_refused(link: str | None) -> Response | None:
    """Before an offer is built (not when the cache answers it): the offer buckets of the player link
    (None: the referee's console) and of the address; a 429 with a truthful ``Retry-After``, or None."""
    if current_app.config.get("RATE_LIMITS_OFF"):
        return None
    found = limits(current_app)
    if link is not None:
        wait = found.offer_link.spend(link)
        if wait:
            return refuse("offers", 429, "too many offers asked through this player link; slow down", wait)
    client = _client()
    if client not in LOOPBACK_CLIENTS:
        wait = found.offer_address.spend(client)
        if wait:
            return refuse("offers", 429, "too many offers asked from this address; slow down", wait)
    return None


def move_too_large(move: Any) -> str | None:
    """Why a move is refused before it is logged (too large, too long a field), or None."""
    import json

    try:
        size = len(json.dumps(move, separators=(",", ":")))
    except (TypeError, ValueError, RecursionError):
        return "the move is not plain JSON"
    if size > MAX_MOVE_BYTES:
        return f"the move is too large ({size} bytes; at most {MAX_MOVE_BYTES})"

    def walk(value: Any) -> str | None:
        if isinstance(value, str):
            return f"a field of the move is too long (at most {MAX_FIELD} characters)" if len(value) > MAX_FIELD else None
        if isinstance(value, (list, dict)):
            if len(value) > MAX_ITEMS:
                return f"a list in the move is too long (at most {MAX_ITEMS} items)"
            items = list(value.items()) if isinstance(value, dict) else [(None, v) for v in value]
            for key, item in items:
                problem = walk(key) if key is not None else None
                problem = problem or walk(item)
                if problem:
                    return problem
        return None

    return walk(move)


def stream_slot() -> Response | Callable[[], None]:
    """A slot for one more ``/events`` stream (call the result to give it back), or a 503 to send."""
    found = limits(current_app)
    client = _client()
    if not found.streams.take(client):
        return refuse("streams", 503, "too many open live streams; retrying shortly", RETRY_AFTER_S)
    released = threading.Event()

    def give_back() -> None:
        if not released.is_set():
            released.set()
            found.streams.give_back(client)

    return give_back


def init_app(app: Flask, threads: int) -> None:
    app.extensions["limits"] = Limits(threads)
    app.before_request(_check_request)
