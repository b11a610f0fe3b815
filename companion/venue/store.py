"""The venue's own SQLite: each table's public events, exactly once, in the table's log order.

Events are keyed by (venue, table, instance, seq): ``instance`` names one game at a table (a new
game is a new log whose seqs start again at 1). An event is stored only when its seq is the next
one for its game; an older one is a duplicate (ignored, counted); a later one waits in a bounded
buffer until the rows before it arrive (the caller asks the table to replay them) and is then stored
in order. The venue never judges a move: it keeps what tables published.

The venue's copy is not the truth (each table's hash-chained log is), so the database runs with
``synchronous=NORMAL``: a power cut may lose the last events here, and the venue asks for them again.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

from companion.core import JsonObject

log = logging.getLogger(__name__)

BUFFER_LIMIT = 2000
"""Events held per game while an earlier one is missing; past this they are dropped and asked for again."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    venue TEXT NOT NULL, tab TEXT NOT NULL, instance TEXT NOT NULL, seq INTEGER NOT NULL,
    hash TEXT NOT NULL, body TEXT NOT NULL,
    PRIMARY KEY (venue, tab, instance, seq)
);
CREATE TABLE IF NOT EXISTS games (
    venue TEXT NOT NULL, tab TEXT NOT NULL, instance TEXT NOT NULL, board TEXT NOT NULL,
    updated INTEGER NOT NULL,
    PRIMARY KEY (venue, tab, instance)
);
"""


class Stored(Enum):
    NEW = "new"
    DUPLICATE = "duplicate"
    BUFFERED = "buffered"
    """Past a missing event: held (or, past the buffer, dropped) until the gap is replayed."""


GameKey = tuple[str, str, str]
"""(venue, table, instance)."""


@dataclass(frozen=True)
class Behind:
    """A game the venue knows has rows it has not stored: the next one it needs, and how far the table is."""

    venue: str
    table: str
    instance: str
    next_seq: int
    table_seq: int


class Changes:
    """What changed since a version: every store write bumps the version and names the (venue, table)."""

    KEEP = 4096

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self.version = 0
        self._recent: list[tuple[int, str, str, int]] = []

    def note(self, venue: str, table: str, seq: int) -> None:
        with self._cond:
            self.version += 1
            self._recent.append((self.version, venue, table, seq))
            if len(self._recent) > self.KEEP:
                del self._recent[: self.KEEP // 2]
            self._cond.notify_all()

    def wait(self, since: int, timeout: float) -> tuple[int, dict[str, int]]:
        """Block until the version passes ``since`` (or ``timeout``); return the version and, per
        "venue/table", the highest seq noted since (an empty dict after a timeout)."""
        with self._cond:
            self._cond.wait_for(lambda: self.version > since, timeout=timeout)
            changed: dict[str, int] = {}
            for version, venue, table, seq in reversed(self._recent):  # newest first: stop at the first one seen
                if version <= since:
                    break
                key = f"{venue}/{table}"
                changed[key] = max(changed.get(key, 0), seq)
            return self.version, changed


class VenueStore:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._db = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(_SCHEMA)
        self._lock = threading.Lock()
        self._last: dict[GameKey, int] = {}
        self._buffer: dict[GameKey, dict[int, tuple[str, JsonObject]]] = {}
        self._table_seq: dict[GameKey, int] = {}
        """The highest seq a table is known to have (its board, or an event past a gap)."""
        self._games: dict[GameKey, tuple[int, JsonObject]] = {}
        """Every game's latest board and when it came (an update counter), kept in memory for the pages."""
        for v, t, i, b, u in self._db.execute("SELECT venue, tab, instance, board, updated FROM games"):
            self._games[(str(v), str(t), str(i))] = (int(u), json.loads(b))
        self._updates = max((u for u, _ in self._games.values()), default=0)
        self._last_event: dict[GameKey, JsonObject] = {}
        self.changes = Changes()
        self.counters = {"stored": 0, "duplicates": 0, "buffered": 0, "overflow": 0}

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # -- writing (the collector) -----------------------------------------------------------------

    def _last_locked(self, key: GameKey) -> int:
        if key not in self._last:
            row = self._db.execute(
                "SELECT MAX(seq) FROM events WHERE venue=? AND tab=? AND instance=?", key
            ).fetchone()
            self._last[key] = int(row[0] or 0)
        return self._last[key]

    def last_seq(self, venue: str, table: str, instance: str) -> int:
        with self._lock:
            return self._last_locked((venue, table, instance))

    def add_event(self, venue: str, table: str, instance: str, seq: int, hash_: str, body: JsonObject) -> Stored:
        key = (venue, table, instance)
        with self._lock:
            last = self._last_locked(key)
            self._table_seq[key] = max(self._table_seq.get(key, 0), seq)
            if seq <= last:
                self.counters["duplicates"] += 1
                return Stored.DUPLICATE
            if seq != last + 1:
                held = self._buffer.setdefault(key, {})
                if seq in held:
                    self.counters["duplicates"] += 1
                elif len(held) >= BUFFER_LIMIT:
                    self.counters["overflow"] += 1
                else:
                    held[seq] = (hash_, body)
                    self.counters["buffered"] += 1
                return Stored.BUFFERED
            values = [(venue, table, instance, seq, hash_, json.dumps(body, sort_keys=True))]
            held = self._buffer.get(key, {})
            nxt = seq + 1
            while nxt in held:
                h, b = held.pop(nxt)
                values.append((venue, table, instance, nxt, h, json.dumps(b, sort_keys=True)))
                nxt += 1
            for stale in [s for s in held if s < nxt]:
                del held[stale]
            self._db.executemany("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?)", values)
            self._last[key] = nxt - 1
            self._last_event[key] = json.loads(values[-1][5])
            self.counters["stored"] += len(values)
        self.changes.note(venue, table, nxt - 1)
        return Stored.NEW

    def set_board(self, venue: str, table: str, board: JsonObject) -> None:
        """The table's latest public board, for the game it names (``board["instance"]``)."""
        instance = str(board["instance"])
        seq = int(board["seq"])
        key = (venue, table, instance)
        with self._lock:
            self._table_seq[key] = max(self._table_seq.get(key, 0), seq)
            self._updates += 1
            self._games[key] = (self._updates, dict(board))
            self._db.execute(
                "INSERT OR REPLACE INTO games VALUES (?, ?, ?, ?, ?)",
                (venue, table, instance, json.dumps(board), self._updates),
            )
        self.changes.note(venue, table, seq)

    def behind(self) -> list[Behind]:
        """Each table's current game that the venue knows has rows it has not stored."""
        with self._lock:
            current = self._current_locked()
            out = []
            for (venue, table), instance in current.items():
                key = (venue, table, instance)
                target, last = self._table_seq.get(key, 0), self._last_locked(key)
                if target > last:
                    out.append(Behind(venue, table, instance, last + 1, target))
            return out

    # -- reading (the pages) ----------------------------------------------------------------------

    def _current_locked(self) -> dict[tuple[str, str], str]:
        latest: dict[tuple[str, str], tuple[int, str]] = {}
        for (venue, table, instance), (updated, _) in self._games.items():
            if updated > latest.get((venue, table), (-1, ""))[0]:
                latest[(venue, table)] = (updated, instance)
        return {k: i for k, (_, i) in latest.items()}

    def current(self, venue: str, table: str) -> str | None:
        """The instance of the game the table played last (by its latest board)."""
        with self._lock:
            return self._current_locked().get((venue, table))

    def seqs(self, venue: str, table: str, instance: str | None = None) -> list[int]:
        with self._lock:
            inst = instance if instance is not None else self._current_locked().get((venue, table), "")
            return [
                int(r[0])
                for r in self._db.execute(
                    "SELECT seq FROM events WHERE venue=? AND tab=? AND instance=? ORDER BY seq", (venue, table, inst)
                )
            ]

    def events(self, venue: str, table: str, instance: str, after: int = 0, limit: int = 200) -> list[JsonObject]:
        with self._lock:
            rows = self._db.execute(
                "SELECT seq, body FROM events WHERE venue=? AND tab=? AND instance=? AND seq>? ORDER BY seq LIMIT ?",
                (venue, table, instance, after, limit),
            ).fetchall()
        return [json.loads(b) for _, b in rows]

    def last_events(self, venue: str, table: str, instance: str, count: int) -> list[JsonObject]:
        """The latest ``count`` events of a game, oldest first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT body FROM events WHERE venue=? AND tab=? AND instance=? ORDER BY seq DESC LIMIT ?",
                (venue, table, instance, count),
            ).fetchall()
        return [json.loads(b) for (b,) in reversed(rows)]

    def tables(self, venue: str, only: set[str] | None = None) -> list[JsonObject]:
        """Every table of a venue (or those in ``only``) at a glance: its current game's board, how much
        the venue holds of it, and its last event."""
        with self._lock:
            current = self._current_locked()
            out: list[JsonObject] = []
            for (v, table), instance in sorted(current.items()):
                if v != venue or (only is not None and table not in only):
                    continue
                key = (venue, table, instance)
                if key not in self._last_event:
                    row = self._db.execute(
                        "SELECT body FROM events WHERE venue=? AND tab=? AND instance=? ORDER BY seq DESC LIMIT 1", key
                    ).fetchone()
                    if row is not None:
                        self._last_event[key] = json.loads(row[0])
                out.append(
                    {
                        "table": table,
                        "instance": instance,
                        "board": self._games[key][1],
                        "stored": self._last_locked(key),
                        "last_event": self._last_event.get(key),
                    }
                )
        return out

    def games(self, venue: str) -> list[JsonObject]:
        """Every game the venue has a board for, finished or not, in the order they were last updated."""
        with self._lock:
            found = sorted(((u, t, i, b) for (v, t, i), (u, b) in self._games.items() if v == venue), key=lambda f: f[0])
        return [{"table": t, "instance": i, "board": b} for _, t, i, b in found]

    def counts(self) -> dict[str, Any]:
        with self._lock:
            return dict(self.counters)
