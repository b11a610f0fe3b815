"""The venue's own SQLite: each table's public events, exactly once, in the table's log order.

Events are keyed by (venue, table, instance, seq): ``instance`` names one game at a table (a new
game is a new log whose seqs start again at 1). An event is stored only when its seq is the next
one for its game; an older one is a duplicate (ignored, counted); a later one waits in a bounded
buffer until the rows before it arrive (the caller asks the table to replay them) and is then stored
in order. The venue never judges a move: it keeps what tables published.

Each table is bounded (:class:`~companion.venue.limits.VenueLimits`): the games it keeps, the players
on a board, its stored rows and bytes, the events held past a gap; the venue is bounded in tables.
Past a bound the store forgets the table's least recently updated game (never its current one), or
refuses (:class:`BadMessage` for a board, :attr:`Stored.REFUSED` for an event) and counts it. A
table's excess only ever costs that table's own games: one table can flood nothing but itself.

The venue's copy is not the truth (each table's hash-chained log is), so the database runs with
``synchronous=NORMAL``: a power cut may lose the last events here, and the venue asks for them again.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any

from companion.core import JsonObject
from companion.venue.changes import Changes
from companion.venue.limits import BadMessage, VenueLimits

log = logging.getLogger(__name__)

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
    REFUSED = "refused"
    """Past the table's bounds (its current game alone fills them): not kept, and not asked for again."""


GameKey = tuple[str, str, str]
"""(venue, table, instance)."""
TableKey = tuple[str, str]
"""(venue, table)."""


@dataclass(frozen=True)
class Behind:
    """A game the venue knows has rows it has not stored: the next one it needs, and how far the table is."""

    venue: str
    table: str
    instance: str
    next_seq: int
    table_seq: int


@dataclass
class TableTally:
    """What one table holds at the venue, against its bounds."""

    games: dict[str, int] = field(default_factory=dict)
    """Instance → when it was last written to (the store's clock): the least recent is forgotten first."""
    current: str | None = None
    """The game of the table's latest board."""
    rows: int = 0
    chars: int = 0
    """Stored events, and their JSON text (ASCII: characters are bytes)."""
    held: int = 0
    held_chars: int = 0
    """Events waiting past a gap, and their text."""


class VenueStore:
    def __init__(self, path: str | Path, limits: VenueLimits | None = None) -> None:
        self.path = Path(path)
        self.limits = limits or VenueLimits()
        self._db = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(_SCHEMA)
        self._lock = threading.Lock()
        self._last: dict[GameKey, int] = {}
        self._buffer: dict[GameKey, dict[int, tuple[str, str]]] = {}
        """Held events: seq → (hash, JSON text)."""
        self._table_seq: dict[GameKey, int] = {}
        """The highest seq a table is known to have (its board, or an event past a gap)."""
        self._games: dict[GameKey, tuple[int, JsonObject]] = {}
        """Every game's latest board and when it came (the store's clock), kept in memory for the pages."""
        self._tally: dict[TableKey, TableTally] = {}
        self._full: set[GameKey] = set()
        """Current games whose events no longer fit their table's bounds: refused, not asked for."""
        self._clock = 0
        for v, t, i, b, u in self._db.execute("SELECT venue, tab, instance, board, updated FROM games ORDER BY updated"):
            key, updated = (str(v), str(t), str(i)), int(u)
            self._games[key] = (updated, json.loads(b))
            tally = self._tally.setdefault(key[:2], TableTally())
            tally.games[key[2]] = updated
            tally.current = key[2]  # in update order: the last one is the table's current game
            self._clock = max(self._clock, updated)
        counts = "SELECT venue, tab, instance, COUNT(*), COALESCE(SUM(LENGTH(body)), 0) FROM events GROUP BY venue, tab, instance"
        for v, t, i, n, chars in self._db.execute(counts):
            tally = self._tally.setdefault((str(v), str(t)), TableTally())
            tally.games.setdefault(str(i), 0)
            tally.rows += int(n)
            tally.chars += int(chars)
        self._last_event: dict[GameKey, JsonObject] = {}
        self.changes = Changes()
        self.counters = {"stored": 0, "duplicates": 0, "buffered": 0, "overflow": 0, "refused": 0, "forgotten_games": 0}

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # -- bounds ------------------------------------------------------------------------------------

    def _admit_locked(self, venue: str, table: str, instance: str) -> TableTally:
        """The table's tally with ``instance`` as its most recently written game; a game past the
        table's bound forgets its least recent one. A table past the venue's bound is refused."""
        tally = self._tally.get((venue, table))
        if tally is None:
            if len(self._tally) >= self.limits.tables_per_venue:
                raise BadMessage(f"the venue keeps at most {self.limits.tables_per_venue} tables")
            tally = self._tally[(venue, table)] = TableTally()
        self._clock += 1
        fresh = instance not in tally.games
        tally.games[instance] = self._clock
        while fresh and len(tally.games) > self.limits.games_per_table and self._forget_oldest_locked(venue, table, tally, instance):
            pass
        return tally

    def _forget_oldest_locked(self, venue: str, table: str, tally: TableTally, keep: str) -> bool:
        """Forget the table's least recently written game other than its current one and ``keep``; whether there was one."""
        others = [i for i in tally.games if i != keep and i != tally.current]
        if not others:
            return False
        self._forget_locked(venue, table, tally, min(others, key=lambda i: tally.games[i]))
        return True

    def _forget_locked(self, venue: str, table: str, tally: TableTally, instance: str) -> None:
        key = (venue, table, instance)
        rows, chars = self._db.execute(
            "SELECT COUNT(*), COALESCE(SUM(LENGTH(body)), 0) FROM events WHERE venue=? AND tab=? AND instance=?", key
        ).fetchone()
        self._db.execute("DELETE FROM events WHERE venue=? AND tab=? AND instance=?", key)
        self._db.execute("DELETE FROM games WHERE venue=? AND tab=? AND instance=?", key)
        tally.rows -= int(rows)
        tally.chars -= int(chars)
        for _, text in self._buffer.pop(key, {}).values():
            tally.held -= 1
            tally.held_chars -= len(text)
        self._games.pop(key, None)
        self._last.pop(key, None)
        self._table_seq.pop(key, None)
        self._last_event.pop(key, None)
        self._full.discard(key)
        del tally.games[instance]
        self.counters["forgotten_games"] += 1
        log.info("forgot game %s of %s/%s (%d rows): the table is past its bounds", instance, venue, table, rows)

    def _room_locked(self, venue: str, table: str, tally: TableTally, instance: str, rows: int, chars: int) -> bool:
        """Make room for ``rows`` more events of ``instance`` by forgetting older games; whether they fit."""
        limits = self.limits
        while tally.rows + rows > limits.rows_per_table or tally.chars + chars > limits.bytes_per_table:
            if not self._forget_oldest_locked(venue, table, tally, instance):
                return False
        return True

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
        text = json.dumps(body, sort_keys=True)
        with self._lock:
            tally = self._admit_locked(venue, table, instance)
            last = self._last_locked(key)
            self._table_seq[key] = max(self._table_seq.get(key, 0), seq)
            if seq <= last:
                self.counters["duplicates"] += 1
                return Stored.DUPLICATE
            if key in self._full:
                self.counters["refused"] += 1
                return Stored.REFUSED
            if seq != last + 1:
                return self._hold_locked(key, tally, seq, hash_, text)
            values = [(venue, table, instance, seq, hash_, text)]
            held = self._buffer.get(key, {})
            nxt = seq + 1
            while nxt in held:
                h, t = held.pop(nxt)
                values.append((venue, table, instance, nxt, h, t))
                nxt += 1
            for stale in [s for s in held if s < nxt]:
                del held[stale]
            if not held:
                self._buffer.pop(key, None)
            tally.held -= len(values) - 1
            tally.held_chars -= sum(len(v[5]) for v in values[1:])
            chars = sum(len(v[5]) for v in values)
            if not self._room_locked(venue, table, tally, instance, len(values), chars):
                self._full.add(key)
                self.counters["refused"] += len(values)
                log.warning("%s/%s: game %s fills the table's bounds; its further events are refused", venue, table, instance)
                return Stored.REFUSED
            self._db.executemany("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?)", values)
            tally.rows += len(values)
            tally.chars += chars
            self._last[key] = nxt - 1
            self._last_event[key] = json.loads(values[-1][5])
            self.counters["stored"] += len(values)
        self.changes.note(venue, table, nxt - 1)
        return Stored.NEW

    def _hold_locked(self, key: GameKey, tally: TableTally, seq: int, hash_: str, text: str) -> Stored:
        held = self._buffer.setdefault(key, {})
        if seq in held:
            self.counters["duplicates"] += 1
        elif tally.held >= self.limits.buffered_per_table or tally.held_chars + len(text) > self.limits.buffered_bytes_per_table:
            self.counters["overflow"] += 1
        else:
            held[seq] = (hash_, text)
            tally.held += 1
            tally.held_chars += len(text)
            self.counters["buffered"] += 1
        if not held:
            del self._buffer[key]
        return Stored.BUFFERED

    def set_board(self, venue: str, table: str, board: JsonObject) -> None:
        """The table's latest public board, for the game it names (``board["instance"]``). A board
        with more players (or winners) than :attr:`VenueLimits.players_per_game` is refused."""
        instance = str(board["instance"])
        seq = int(board["seq"])
        most = self.limits.players_per_game
        for part in ("players", "winners"):
            names = board.get(part)
            if names is not None and (not isinstance(names, list) or len(names) > most):
                raise BadMessage(f"a board's {part} must be a list of at most {most}")
        key = (venue, table, instance)
        with self._lock:
            tally = self._admit_locked(venue, table, instance)
            tally.current = instance
            self._table_seq[key] = max(self._table_seq.get(key, 0), seq)
            self._games[key] = (self._clock, dict(board))
            self._db.execute(
                "INSERT OR REPLACE INTO games VALUES (?, ?, ?, ?, ?)",
                (venue, table, instance, json.dumps(board), self._clock),
            )
        self.changes.note(venue, table, seq)

    def behind(self) -> list[Behind]:
        """Each table's current game that the venue knows has rows it has not stored (and has room for)."""
        with self._lock:
            out = []
            for (venue, table), tally in self._tally.items():
                if tally.current is None or (key := (venue, table, tally.current)) in self._full:
                    continue
                target, last = self._table_seq.get(key, 0), self._last_locked(key)
                if target > last:
                    out.append(Behind(venue, table, tally.current, last + 1, target))
            return out

    # -- reading (the pages) ----------------------------------------------------------------------

    def current(self, venue: str, table: str) -> str | None:
        """The instance of the game the table played last (by its latest board)."""
        with self._lock:
            tally = self._tally.get((venue, table))
            return tally.current if tally is not None else None

    def seqs(self, venue: str, table: str, instance: str | None = None) -> list[int]:
        inst = instance if instance is not None else self.current(venue, table) or ""
        with self._lock:
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

    def tables(self, venue: str, only: set[str] | None = None, after: str | None = None, limit: int | None = None) -> list[JsonObject]:
        """The tables of a venue (or those in ``only``), by name, after ``after`` and at most ``limit``
        of them, at a glance: its current game's board, how much the venue holds of it, and its last event."""
        with self._lock:
            names = sorted(
                t for (v, t), tally in self._tally.items()
                if v == venue and tally.current is not None and (only is None or t in only) and (after is None or t > after)
            )
            out: list[JsonObject] = []
            for table in names[:limit]:
                instance = self._tally[(venue, table)].current
                assert instance is not None
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
        """Every game the venue has a board for, finished or not, in the order they were last updated,
        with how far the venue holds its events (``stored``)."""
        with self._lock:
            found = sorted(((u, k, b) for k, (u, b) in self._games.items() if k[0] == venue), key=lambda f: f[0])
            return [{"table": k[1], "instance": k[2], "board": b, "stored": self._last_locked(k)} for _, k, b in found]

    def counts(self) -> dict[str, Any]:
        with self._lock:
            return {**self.counters, "tables": len(self._tally)}
