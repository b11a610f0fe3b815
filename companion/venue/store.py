"""The venue's own SQLite: each table's public events, exactly once, in the table's log order.

An event is stored only when its seq is the next one for its table; an older one is a duplicate
(ignored, counted), a later one is a gap: it is not stored, and the caller asks the table to
replay from the last stored seq. The venue never judges a move: it keeps what tables published.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
from enum import Enum
from pathlib import Path

from companion.core import JsonObject

log = logging.getLogger(__name__)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    venue TEXT NOT NULL, tab TEXT NOT NULL, seq INTEGER NOT NULL, hash TEXT NOT NULL, body TEXT NOT NULL,
    PRIMARY KEY (venue, tab, seq)
);
CREATE TABLE IF NOT EXISTS boards (venue TEXT NOT NULL, tab TEXT NOT NULL, body TEXT NOT NULL, PRIMARY KEY (venue, tab));
"""


class Stored(Enum):
    NEW = "new"
    DUPLICATE = "duplicate"
    GAP = "gap"


class VenueStore:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._db = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.executescript(_SCHEMA)
        self._lock = threading.Lock()
        self.counters = {"stored": 0, "duplicates": 0, "gaps": 0}

    def close(self) -> None:
        self._db.close()

    def last_seq(self, venue: str, table: str) -> int:
        with self._lock:
            row = self._db.execute("SELECT MAX(seq) FROM events WHERE venue=? AND tab=?", (venue, table)).fetchone()
        return int(row[0] or 0)

    def add_event(self, venue: str, table: str, seq: int, hash_: str, body: JsonObject) -> Stored:
        with self._lock:
            row = self._db.execute("SELECT MAX(seq) FROM events WHERE venue=? AND tab=?", (venue, table)).fetchone()
            last = int(row[0] or 0)
            if seq <= last:
                self.counters["duplicates"] += 1
                return Stored.DUPLICATE
            if seq != last + 1:
                self.counters["gaps"] += 1
                return Stored.GAP
            self._db.execute(
                "INSERT INTO events VALUES (?, ?, ?, ?, ?)", (venue, table, seq, hash_, json.dumps(body, sort_keys=True))
            )
            self.counters["stored"] += 1
            return Stored.NEW

    def set_board(self, venue: str, table: str, board: JsonObject) -> None:
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO boards VALUES (?, ?, ?)", (venue, table, json.dumps(board)))

    def seqs(self, venue: str, table: str) -> list[int]:
        with self._lock:
            return [int(r[0]) for r in self._db.execute("SELECT seq FROM events WHERE venue=? AND tab=? ORDER BY seq", (venue, table))]

    def boards(self) -> dict[tuple[str, str], JsonObject]:
        with self._lock:
            rows = self._db.execute("SELECT venue, tab, body FROM boards ORDER BY venue, tab").fetchall()
        return {(str(v), str(t)): json.loads(b) for v, t, b in rows}
