"""The game log: append-only, hash-chained, on standard-library SQLite.

One row per observation (the header is row 1), with the move it became, the verdict, wall and
monotonic time, source, ``prev_hash`` and ``hash = sha256(prev_hash + canonical row)``. The
database runs in WAL mode with ``synchronous=FULL``: once :meth:`GameLog.append_many` returns,
the rows survive a crash or a power cut. Nothing is ever updated or deleted; corrections and
undo are new rows, and ``verify`` names the first row whose chain does not hold.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.core import Header, JsonObject, JsonValue, canonical_json
from companion.errors import LogError, LogIntegrityError

log = logging.getLogger(__name__)

GENESIS = "0" * 64
SCHEMA_VERSION = 1
HEADER_KIND = "header"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS rows (
    seq        INTEGER PRIMARY KEY,
    kind       TEXT NOT NULL,
    source     TEXT NOT NULL,
    table_time REAL,
    wall_time  REAL NOT NULL,
    mono_time  REAL NOT NULL,
    payload    TEXT NOT NULL,
    move       TEXT,
    verdict    TEXT,
    alert      TEXT,
    error      TEXT,
    prev_hash  TEXT NOT NULL,
    hash       TEXT NOT NULL
);
"""

_COLUMNS = "seq, kind, source, table_time, wall_time, mono_time, payload, move, verdict, alert, error, prev_hash, hash"


@dataclass(frozen=True)
class NewRow:
    """A row on its way in: everything but its place in the chain."""

    kind: str
    source: str
    table_time: float | None
    wall_time: float
    mono_time: float
    payload: JsonObject
    move: JsonObject | None = None
    verdict: JsonObject | None = None
    alert: JsonObject | None = None
    error: str | None = None


@dataclass(frozen=True)
class LogRow(NewRow):
    """A row as stored: with its sequence number and its link in the hash chain."""

    seq: int = 0
    prev_hash: str = GENESIS
    hash: str = ""

    def to_json(self) -> JsonObject:
        out: JsonObject = {
            "seq": self.seq,
            "kind": self.kind,
            "source": self.source,
            "table_time": self.table_time,
            "wall_time": self.wall_time,
            "mono_time": self.mono_time,
            "payload": self.payload,
            "move": self.move,
            "verdict": self.verdict,
            "alert": self.alert,
            "error": self.error,
            "prev_hash": self.prev_hash,
            "hash": self.hash,
        }
        return out


def _texts(row: NewRow) -> tuple[str, str | None, str | None, str | None]:
    """The canonical JSON of a row's JSON columns, made once: they are both stored and hashed."""
    return canonical_json(row.payload), _dump(row.move), _dump(row.verdict), _dump(row.alert)


def _chain(prev_hash: str, seq: int, row: NewRow, texts: tuple[str, str | None, str | None, str | None]) -> str:
    # The canonical row is canonical_json([seq, kind, source, table_time, wall_time, mono_time,
    # payload, move, verdict, alert, error]); built from the stored texts, so nothing is encoded twice.
    scalars = [canonical_json(v) for v in (seq, row.kind, row.source, row.table_time, row.wall_time, row.mono_time)]
    body = ",".join(scalars + [t if t is not None else "null" for t in texts] + [canonical_json(row.error)])
    return hashlib.sha256((prev_hash + "[" + body + "]").encode("utf-8")).hexdigest()


def row_hash(prev_hash: str, seq: int, row: NewRow) -> str:
    """``sha256(prev_hash + canonical row)``; the canonical row is every column but the hashes."""
    return _chain(prev_hash, seq, row, _texts(row))


def _loads(text: str | None, seq: int, column: str) -> Any:
    if text is None:
        return None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise LogIntegrityError(f"row {seq}: the {column} column is not valid JSON", seq) from exc


def _row_from_sql(values: Sequence[Any]) -> LogRow:
    seq = int(values[0])
    return LogRow(
        kind=values[1],
        source=values[2],
        table_time=values[3],
        wall_time=values[4],
        mono_time=values[5],
        payload=_loads(values[6], seq, "payload"),
        move=_loads(values[7], seq, "move"),
        verdict=_loads(values[8], seq, "verdict"),
        alert=_loads(values[9], seq, "alert"),
        error=values[10],
        seq=seq,
        prev_hash=values[11],
        hash=values[12],
    )


def _dump(value: JsonValue) -> str | None:
    return None if value is None else canonical_json(value)


class GameLog:
    """One game's log in one SQLite file. Thread-safe; appends are durable when they return."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        try:
            self._db = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(_SCHEMA)
            version = self._db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
        except sqlite3.DatabaseError as exc:
            raise LogError(f"{self.path}: cannot open the game log ({exc})") from exc
        if version is None:
            self._db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        elif int(version[0]) != SCHEMA_VERSION:
            raise LogError(f"{self.path}: log schema {version[0]} is not the supported {SCHEMA_VERSION}")
        self._lock = threading.Lock()
        last = self._db.execute("SELECT seq, hash FROM rows ORDER BY seq DESC LIMIT 1").fetchone()
        self._last_seq, self._last_hash = (int(last[0]), str(last[1])) if last else (0, GENESIS)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> "GameLog":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def last_seq(self) -> int:
        return self._last_seq

    def append(self, row: NewRow) -> LogRow:
        return self.append_many([row])[0]

    def append_many(self, rows: Sequence[NewRow]) -> list[LogRow]:
        """Append rows in one transaction (one fsync): all are durable, or none are."""
        if not rows:
            return []
        with self._lock:
            seq, prev = self._last_seq, self._last_hash
            stored: list[LogRow] = []
            values: list[tuple[Any, ...]] = []
            for row in rows:
                seq += 1
                texts = _texts(row)
                digest = _chain(prev, seq, row, texts)
                stored.append(LogRow(**row.__dict__, seq=seq, prev_hash=prev, hash=digest))
                values.append((seq, row.kind, row.source, row.table_time, row.wall_time, row.mono_time, *texts, row.error, prev, digest))
                prev = digest
            try:
                self._db.execute("BEGIN IMMEDIATE")
                self._db.executemany(f"INSERT INTO rows ({_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)", values)
                self._db.execute("COMMIT")
            except sqlite3.Error as exc:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise LogError(f"{self.path}: could not write to the game log ({exc})") from exc
            self._last_seq, self._last_hash = seq, prev
            return stored

    def rows(self, after: int = 0, limit: int | None = None) -> Iterator[LogRow]:
        """Rows with ``seq > after``, in order."""
        sql = f"SELECT {_COLUMNS} FROM rows WHERE seq > ? ORDER BY seq"
        params: tuple[int, ...] = (after,)
        if limit is not None:
            sql += " LIMIT ?"
            params = (after, limit)
        with self._lock:
            try:
                fetched = self._db.execute(sql, params).fetchall()
            except sqlite3.DatabaseError as exc:
                raise LogError(f"{self.path}: cannot read the game log ({exc})") from exc
        for values in fetched:
            yield _row_from_sql(values)

    def row(self, seq: int) -> LogRow | None:
        with self._lock:
            values = self._db.execute(f"SELECT {_COLUMNS} FROM rows WHERE seq = ?", (seq,)).fetchone()
        return _row_from_sql(values) if values else None

    def header(self) -> Header | None:
        """The game this log belongs to, from row 1; None for an empty log."""
        first = self.row(1)
        if first is None:
            return None
        if first.kind != HEADER_KIND:
            raise LogError(f"{self.path}: row 1 is not a game header")
        from companion.notation import parse_header

        return parse_header(first.payload)

    def verify(self) -> int:
        """Check every row's link and hash; return the number of rows, or raise naming the first bad row."""
        prev = GENESIS
        expected_seq = 0
        for row in self.rows():
            expected_seq += 1
            if row.seq != expected_seq:
                raise LogIntegrityError(
                    f"row {expected_seq} is missing (the next row is {row.seq}): rows were removed", expected_seq
                )
            if row.prev_hash != prev:
                raise LogIntegrityError(
                    f"row {row.seq}: prev_hash does not match the hash of row {row.seq - 1}: rows were changed or reordered",
                    row.seq,
                )
            if row_hash(prev, row.seq, row) != row.hash:
                raise LogIntegrityError(f"row {row.seq}: its contents do not match its hash: the row was changed", row.seq)
            prev = row.hash
        return expected_seq
