"""The game log: append-only, hash-chained, on standard-library SQLite.

One row per observation (the header is row 1), with the move it became, the verdict, wall and
monotonic time, source, ``prev_hash`` and ``hash = HMAC-SHA256(chain key, prev_hash + canonical row)``.
The chain key is 32 random bytes kept on the Pi beside the log (:data:`CHAIN_KEY_FILE`, mode 0600):
without it nobody can recompute a chain, so an edit, a cut-out row or a renumbering is found even
when every later hash was redone. Logs from before keyed chains (plain ``sha256``) still verify;
the meta table says which kind a file is. The database runs in WAL mode with ``synchronous=FULL``:
once :meth:`GameLog.append_many` returns, the rows survive a crash or a power cut. Nothing is ever
updated or deleted; corrections and undo are new rows, and ``verify`` names the first row whose
chain does not hold. The head of the chain is published as a short fingerprint (:func:`fingerprint`)
so that players can later prove nothing was cut off the end (:meth:`GameLog.verify_head`).
"""

from __future__ import annotations

import hashlib
import hmac
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
from companion.core.errors import LogError, LogIntegrityError

log = logging.getLogger(__name__)

GENESIS = "0" * 64
SCHEMA_VERSION = 1
HEADER_KIND = "header"

CHAIN_KEYED = "hmac-sha256"
CHAIN_PLAIN = "sha256"
"""The kinds of chain, as the meta table names them; a log with rows and no ``chain`` entry is plain."""

CHAIN_KEY_FILE = "log-chain.key"
"""The chain key's file, in the log's folder: one key for every log of the table, archived ones too."""

CONTINUES = "continues"
"""The header row's field naming the broken log this one carries on from (file, seq, hash)."""

FINGERPRINT_HEX = 12
"""Hex digits of a row's hash in its fingerprint: 48 bits, three groups of four."""

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


def _chain(
    prev_hash: str, seq: int, row: NewRow, texts: tuple[str, str | None, str | None, str | None], key: bytes | None
) -> str:
    # The canonical row is canonical_json([seq, kind, source, table_time, wall_time, mono_time,
    # payload, move, verdict, alert, error]); built from the stored texts, so nothing is encoded twice.
    scalars = [canonical_json(v) for v in (seq, row.kind, row.source, row.table_time, row.wall_time, row.mono_time)]
    body = ",".join(scalars + [t if t is not None else "null" for t in texts] + [canonical_json(row.error)])
    message = (prev_hash + "[" + body + "]").encode("utf-8")
    if key is None:
        return hashlib.sha256(message).hexdigest()
    return hmac.new(key, message, hashlib.sha256).hexdigest()


def row_hash(prev_hash: str, seq: int, row: NewRow, key: bytes | None = None) -> str:
    """``HMAC-SHA256(key, prev_hash + canonical row)``, or plain ``sha256`` with no key (old logs);
    the canonical row is every column but the hashes."""
    return _chain(prev_hash, seq, row, _texts(row), key)


def fingerprint(digest: str) -> str:
    """A row's hash as players keep it: its first 12 hex digits in groups of four (``ab12 cd34 ef56``)."""
    short = digest[:FINGERPRINT_HEX]
    return " ".join(short[i : i + 4] for i in range(0, len(short), 4))


def parse_fingerprint(text: str) -> tuple[int | None, str]:
    """``"ab12 cd34 ef56"`` or ``"1234:ab12cd34ef56"`` -> (row or None, hex prefix); LogError if neither."""
    seq_text, sep, rest = text.partition(":")
    digits = (rest if sep else seq_text).replace(" ", "").replace("-", "").lower()
    seq: int | None = None
    if sep:
        if not seq_text.strip().isdigit():
            raise LogError(f'head "{text}": the part before ":" must be a row number')
        seq = int(seq_text)
    if len(digits) < 8 or any(c not in "0123456789abcdef" for c in digits) or len(digits) > 64:
        raise LogError(f'head "{text}": a fingerprint is 8 to 64 hex digits, such as "ab12 cd34 ef56"')
    return seq, digits


def chain_key_path(log_path: str | os.PathLike[str]) -> Path:
    """Where the chain key of the log at ``log_path`` lives: :data:`CHAIN_KEY_FILE` in its folder."""
    return Path(log_path).parent / CHAIN_KEY_FILE


def private_file(path: Path) -> None:
    """Create ``path`` empty with mode 0600 if it is missing, or take group and other access away.

    A file this user may not chmod (a read-only copy kept as evidence) is left as it is, with a warning.
    """
    try:
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
        return
    except FileExistsError:
        pass
    except OSError as exc:
        raise LogError(f"{path}: cannot create it ({exc.strerror})") from exc
    try:
        if path.stat().st_mode & 0o077:
            os.chmod(path, 0o600)
    except OSError as exc:
        log.warning("%s: readable by other users, and cannot be made private (%s)", path, exc.strerror)


def read_chain_key(path: Path, create: bool = False) -> bytes | None:
    """The chain key in ``path``; made (32 random bytes, 0600, fsynced) if missing and ``create``."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        if not create:
            return None
        import secrets

        data = secrets.token_bytes(32)
        spare = path.with_name(f".{path.name}.{os.getpid()}.new")
        fd = os.open(spare, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
        try:
            os.write(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        try:
            os.link(spare, path)  # atomic, and never replaces a key another process just made
        except FileExistsError:
            data = path.read_bytes()
        finally:
            spare.unlink()
        dir_fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
    except OSError as exc:
        raise LogError(f"{path}: cannot read the log's chain key ({exc.strerror})") from exc
    if len(data) < 32:
        raise LogError(f"{path}: the log's chain key is {len(data)} bytes; it must be at least 32")
    return data


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
    """One game's log in one SQLite file. Thread-safe; appends are durable when they return.

    ``key_file`` is where the chain key is (default :func:`chain_key_path`); a new log makes it if
    missing. The log file, its WAL and shared-memory files are private to this user (0600).
    """

    def __init__(self, path: str | os.PathLike[str], key_file: str | os.PathLike[str] | None = None) -> None:
        self.path = Path(path)
        self.key_file = Path(key_file) if key_file is not None else chain_key_path(self.path)
        if self.path.parent.is_dir():
            private_file(self.path)  # SQLite gives the -wal and -shm files the database file's mode
        try:
            self._db = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(_SCHEMA)
            version = self._db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
            chain = self._db.execute("SELECT value FROM meta WHERE key='chain'").fetchone()
            last = self._db.execute("SELECT seq, hash FROM rows ORDER BY seq DESC LIMIT 1").fetchone()
        except sqlite3.DatabaseError as exc:
            raise LogError(f"{self.path}: cannot open the game log ({exc})") from exc
        for extra in ("-wal", "-shm"):
            side = self.path.with_name(self.path.name + extra)
            if side.exists():
                private_file(side)
        if version is None:
            self._db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        elif int(version[0]) != SCHEMA_VERSION:
            raise LogError(f"{self.path}: log schema {version[0]} is not the supported {SCHEMA_VERSION}")
        if chain is not None:
            self.chain = str(chain[0])
        elif last is not None:
            self.chain = CHAIN_PLAIN  # written before keyed chains: it stays plain to its end
        else:
            self.chain = CHAIN_KEYED
            self._db.execute("INSERT INTO meta VALUES ('chain', ?)", (CHAIN_KEYED,))
        if self.chain not in (CHAIN_KEYED, CHAIN_PLAIN):
            raise LogError(f'{self.path}: unknown hash chain kind "{self.chain}"')
        self._key = read_chain_key(self.key_file, create=last is None) if self.chain == CHAIN_KEYED else None
        self._lock = threading.Lock()
        self._last_seq, self._last_hash = (int(last[0]), str(last[1])) if last else (0, GENESIS)
        self._continues: JsonObject | None = None

    def _chain_key(self) -> bytes | None:
        if self.chain == CHAIN_KEYED and self._key is None:
            raise LogError(
                f"{self.path}: its chain key {self.key_file} is missing: the log can be neither checked nor extended"
            )
        return self._key

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

    @property
    def head(self) -> str:
        """The hash of the last row (:data:`GENESIS` for an empty log)."""
        return self._last_hash

    def chain_info(self) -> JsonObject:
        """What the scoreboard publishes: row count, head fingerprint, chain kind, and any log this continues."""
        if self._continues is None:
            first = self.row(1)
            link = first.payload.get(CONTINUES) if first is not None and first.kind == HEADER_KIND else None
            self._continues = dict(link) if isinstance(link, dict) else {}
        return {
            "rows": self._last_seq,
            "head": fingerprint(self._last_hash),
            "kind": self.chain,
            "continues": dict(self._continues) or None,
        }

    def append(self, row: NewRow) -> LogRow:
        return self.append_many([row])[0]

    def append_many(self, rows: Sequence[NewRow]) -> list[LogRow]:
        """Append rows in one transaction (one fsync): all are durable, or none are."""
        if not rows:
            return []
        key = self._chain_key()
        with self._lock:
            seq, prev = self._last_seq, self._last_hash
            stored: list[LogRow] = []
            values: list[tuple[Any, ...]] = []
            for row in rows:
                seq += 1
                texts = _texts(row)
                digest = _chain(prev, seq, row, texts, key)
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
        from companion.log.notation import parse_header

        return parse_header({k: v for k, v in first.payload.items() if k != CONTINUES})

    def verify(self, allow_plain: bool = False) -> int:
        """Check every row's link and hash; return the number of rows, or raise naming the first bad row.

        A plain (unkeyed) chain beside a chain key is refused unless ``allow_plain``: anyone can
        recompute a plain chain, so "rewritten with sha256 and marked plain" must not pass as "old".
        """
        key = self._chain_key()
        if self.chain == CHAIN_PLAIN and not allow_plain and self.key_file.exists():
            raise LogIntegrityError(
                f"row 1: the chain is plain sha256, which anyone can recompute, yet this table keys its logs "
                f"({self.key_file} exists): it may have been rewritten. If the log predates keyed chains, "
                "check it with --allow-unkeyed",
                1,
            )
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
            if row_hash(prev, row.seq, row, key) != row.hash:
                raise LogIntegrityError(f"row {row.seq}: its contents do not match its hash: the row was changed", row.seq)
            prev = row.hash
        return expected_seq

    def verify_head(self, head: str, allow_plain: bool = False) -> tuple[int, int]:
        """Verify the chain, then find the row a published fingerprint names: (rows, that row's seq).

        ``head`` is ``"ab12 cd34 ef56"`` (any row whose hash starts so) or ``"N:ab12cd34ef56"`` (row N).
        Raises :class:`LogIntegrityError` if no row carries it: the log was cut or rewritten since.
        """
        seq, digits = parse_fingerprint(head)
        count = self.verify(allow_plain)
        if seq is not None:
            row = self.row(seq)
            if row is None:
                raise LogIntegrityError(f"row {seq} is gone (the log has {count} rows): rows were cut off the end", seq)
            if not row.hash.startswith(digits):
                raise LogIntegrityError(f"row {seq}: its hash is no longer {fingerprint(digits)}: the log was rewritten", seq)
            return count, seq
        with self._lock:
            found = self._db.execute("SELECT seq FROM rows WHERE substr(hash, 1, ?) = ?", (len(digits), digits)).fetchall()
        if not found:
            raise LogIntegrityError(
                f"no row has the head {fingerprint(digits)}: rows were cut off the end, or the log was rewritten", count + 1
            )
        if len(found) > 1:
            raise LogError(f"head {fingerprint(digits)}: {len(found)} rows match; give more digits or N:fingerprint")
        return count, int(found[0][0])
