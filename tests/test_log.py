"""The log on disk: durable appends, the hash chain, and tamper detection by `log verify`."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from companion.core.errors import LogError, LogIntegrityError
from companion.log.store import GENESIS, GameLog, NewRow, chain_key_path, read_chain_key, row_hash


def _row(i: int) -> NewRow:
    return NewRow("move", "test", 100.0 + i, 1.8e9 + i, float(i), {"do": "take", "n": i}, {"do": "take", "n": i}, {"ok": True})


def _fill(path: Path, n: int = 5) -> None:
    with GameLog(path) as game_log:
        game_log.append_many([_row(i) for i in range(1, n + 1)])


def test_rows_chain_and_survive_reopening(log_path: Path) -> None:
    _fill(log_path)
    with GameLog(log_path) as game_log:
        rows = list(game_log.rows())
        assert [r.seq for r in rows] == [1, 2, 3, 4, 5]
        assert rows[0].prev_hash == GENESIS
        for before, after in zip(rows, rows[1:]):
            assert after.prev_hash == before.hash
        assert rows[2].hash == row_hash(rows[1].hash, 3, rows[2], read_chain_key(chain_key_path(log_path)))
        assert game_log.verify() == 5
        appended = game_log.append(_row(6))
        assert appended.seq == 6 and appended.prev_hash == rows[-1].hash


def test_wal_and_full_sync_are_on(log_path: Path) -> None:
    with GameLog(log_path) as game_log:
        db = game_log._db
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def _flip_byte_in_payload(path: Path, seq: int) -> None:
    db = sqlite3.connect(path)
    (payload,) = db.execute("SELECT payload FROM rows WHERE seq=?", (seq,)).fetchone()
    flipped = payload.replace('"n":3', '"n":8')
    assert flipped != payload
    db.execute("UPDATE rows SET payload=? WHERE seq=?", (flipped, seq))
    db.commit()
    db.close()


def test_a_flipped_byte_is_found_and_named(log_path: Path) -> None:
    _fill(log_path)
    _flip_byte_in_payload(log_path, 3)
    with GameLog(log_path) as game_log:
        with pytest.raises(LogIntegrityError) as caught:
            game_log.verify()
    assert caught.value.seq == 3
    assert "row 3" in str(caught.value)


def test_a_flipped_byte_in_the_raw_file_is_found(log_path: Path) -> None:
    """Flip one byte of the database file itself (checkpointed), not through SQL."""
    _fill(log_path)
    with GameLog(log_path) as game_log:
        game_log._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = bytearray(log_path.read_bytes())
    at = data.find(b'"n":4')
    assert at > 0
    data[at + 4] ^= 0x01  # '4' -> '5'
    log_path.write_bytes(bytes(data))
    with GameLog(log_path) as game_log:
        with pytest.raises(LogIntegrityError) as caught:
            game_log.verify()
    assert caught.value.seq == 4


def test_a_removed_row_is_found(log_path: Path) -> None:
    _fill(log_path)
    db = sqlite3.connect(log_path)
    db.execute("DELETE FROM rows WHERE seq=2")
    db.commit()
    db.close()
    with GameLog(log_path) as game_log:
        with pytest.raises(LogIntegrityError, match="row 2 is missing"):
            game_log.verify()


def test_a_rewritten_chain_tail_is_found(log_path: Path) -> None:
    """Editing a row and recomputing its own hash (even with the right key) still breaks the next row's link."""
    _fill(log_path)
    with GameLog(log_path) as game_log:
        rows = list(game_log.rows())
    edited = NewRow("move", "test", 1.0, 1.0, 1.0, {"do": "take", "n": 3})
    new_hash = row_hash(rows[1].hash, 3, edited, read_chain_key(chain_key_path(log_path)))
    db = sqlite3.connect(log_path)
    db.execute(
        "UPDATE rows SET table_time=1.0, wall_time=1.0, mono_time=1.0, payload=?, move=NULL, verdict=NULL, hash=? WHERE seq=3",
        ('{"do":"take","n":3}', new_hash),
    )
    db.commit()
    db.close()
    with GameLog(log_path) as game_log:
        with pytest.raises(LogIntegrityError) as caught:
            game_log.verify()
    assert caught.value.seq == 4


def test_not_a_database_is_one_clear_error(tmp_path: Path) -> None:
    bogus = tmp_path / "notes.sqlite"
    bogus.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(LogError, match="cannot open the game log"):
        GameLog(bogus)
