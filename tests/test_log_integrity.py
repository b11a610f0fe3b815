"""Issue 15 item 5: a log that proves itself. Each attack the audit ran is redone on a real log file
(written by GameLog, tampered through SQLite the way the attacker did) and is now caught."""

from __future__ import annotations

import hmac
import os
import re
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main
from companion.log.store import CHAIN_KEYED, CHAIN_PLAIN, GameLog, NewRow, chain_key_path, fingerprint, row_hash
from companion.core.errors import LogError, LogIntegrityError
from companion.app.service import table_secret
from companion.referee.session import Session
from tests.conftest import move

ROWS = 120


def _row(i: int) -> NewRow:
    return NewRow("move", "reader:pile-1", 100.0 + i, 1.8e9 + i, float(i), {"zone": "pile-1", "n": i}, {"do": "play", "n": i}, {"ok": True})


@pytest.fixture
def played(tmp_path: Path) -> tuple[Path, str]:
    """A 120-row keyed log, and the head fingerprint the scoreboard showed at its end."""
    path = tmp_path / "game.sqlite"
    with GameLog(path) as game_log:
        game_log.append(NewRow("header", "session", None, 1.8e9, 0.0, {"game": "escape-master", "players": ["anna", "ben"]}))
        game_log.append_many([_row(i) for i in range(2, ROWS + 1)])
        assert game_log.chain == CHAIN_KEYED
        head = game_log.chain_info()["head"]
    assert isinstance(head, str)
    return path, head


def _rechain(path: Path, from_seq: int, key: bytes | None) -> None:
    """What the attacker did: recompute every hash from ``from_seq`` on, plain sha256 or with a key."""
    db = sqlite3.connect(path)
    rows = db.execute(
        "SELECT seq, kind, source, table_time, wall_time, mono_time, payload, move, verdict, alert, error, prev_hash FROM rows ORDER BY seq"
    ).fetchall()
    prev = None
    import json

    for seq, kind, source, tt, wt, mt, payload, move, verdict, alert, error, stored_prev in rows:
        if seq < from_seq:
            prev = db.execute("SELECT hash FROM rows WHERE seq=?", (seq,)).fetchone()[0]
            continue
        loads = lambda t: None if t is None else json.loads(t)  # noqa: E731
        new = NewRow(kind, source, tt, wt, mt, json.loads(payload), loads(move), loads(verdict), loads(alert), error)
        prev = prev if prev is not None else stored_prev
        digest = row_hash(prev, seq, new, key)
        db.execute("UPDATE rows SET prev_hash=?, hash=? WHERE seq=?", (prev, digest, seq))
        prev = digest
    db.commit()
    db.close()


def _edit_row(path: Path, seq: int) -> None:
    db = sqlite3.connect(path)
    db.execute("UPDATE rows SET payload=? WHERE seq=?", ('{"n":999,"zone":"pile-1"}', seq))
    db.commit()
    db.close()


def _verify(path: Path, *extra: str) -> int:
    return main(["log", "verify", str(path), *extra])


def _broken_at(path: Path) -> int:
    with GameLog(path) as game_log, pytest.raises(LogIntegrityError) as caught:
        game_log.verify()
    return caught.value.seq


# -- attack 1: a row edited, every later hash recomputed ----------------------------------------


def test_edit_with_every_later_hash_redone_in_plain_sha256_is_caught(played: tuple[Path, str], capsys: pytest.CaptureFixture[str]) -> None:
    path, _ = played
    _edit_row(path, 40)
    _rechain(path, 40, None)
    assert _broken_at(path) == 40
    assert _verify(path) == 1
    assert "BROKEN at row 40" in capsys.readouterr().err


def test_edit_with_every_later_hash_redone_with_a_wrong_key_is_caught(played: tuple[Path, str]) -> None:
    path, _ = played
    _edit_row(path, 40)
    _rechain(path, 40, os.urandom(32))
    assert _broken_at(path) == 40


def test_whole_log_rewritten_in_plain_sha256_and_marked_old_is_caught(played: tuple[Path, str]) -> None:
    """The downgrade: rewrite every row with plain sha256 and say the log predates keyed chains."""
    path, head = played
    _edit_row(path, 40)
    _rechain(path, 1, None)
    db = sqlite3.connect(path)
    db.execute("DELETE FROM meta WHERE key='chain'")
    db.commit()
    db.close()
    with GameLog(path) as game_log:
        assert game_log.chain == CHAIN_PLAIN
    assert _broken_at(path) == 1  # the table's chain key is beside it: a plain chain here is suspect
    assert _verify(path, "--allow-unkeyed", "--head", head) == 1  # and the head players kept is gone


def test_the_right_key_is_needed_and_a_copy_verifies_with_key(played: tuple[Path, str], tmp_path: Path) -> None:
    path, _ = played
    elsewhere = tmp_path / "copy"
    elsewhere.mkdir()
    copy = elsewhere / "game.sqlite"
    copy.write_bytes(path.read_bytes())
    with GameLog(copy) as game_log, pytest.raises(LogError, match="chain key .* is missing"):
        game_log.verify()
    assert _verify(copy, "--key", str(chain_key_path(path))) == 0


# -- attack 2: the last 50 rows deleted ---------------------------------------------------------


def test_cutting_the_last_50_rows_is_caught_with_the_published_head(
    played: tuple[Path, str], capsys: pytest.CaptureFixture[str]
) -> None:
    path, head = played
    with GameLog(path) as game_log:
        early = fingerprint(next(r for r in game_log.rows() if r.seq == 60).hash)
    db = sqlite3.connect(path)
    db.execute("DELETE FROM rows WHERE seq > ?", (ROWS - 50,))
    db.commit()
    db.close()
    assert _verify(path) == 0  # the chain itself still holds: a cut end is invisible without the head
    capsys.readouterr()
    assert _verify(path, "--head", head) == 1
    err = capsys.readouterr().err
    assert "no row has the head" in err and "cut off the end" in err
    assert _verify(path, "--head", f"{ROWS}:{head}") == 1
    assert "row 120 is gone" in capsys.readouterr().err
    assert _verify(path, "--head", early) == 0  # a head kept before the cut still proves its part
    assert "names row 60; it is unchanged, and 10 rows follow it" in capsys.readouterr().out


def test_an_intact_log_proves_the_head_and_counts_what_follows(played: tuple[Path, str]) -> None:
    path, head = played
    with GameLog(path) as game_log:
        assert game_log.verify_head(head) == (ROWS, ROWS)
        assert game_log.verify_head(f"{ROWS}:{head.replace(' ', '')}") == (ROWS, ROWS)
        with pytest.raises(LogError, match="hex digits"):
            game_log.verify_head("not a head")


# -- attack 3: a row deleted and the rest renumbered --------------------------------------------


def _delete_and_renumber(path: Path, seq: int) -> None:
    db = sqlite3.connect(path)
    db.execute("DELETE FROM rows WHERE seq=?", (seq,))
    db.execute("UPDATE rows SET seq = -(seq - 1) WHERE seq > ?", (seq,))
    db.execute("UPDATE rows SET seq = -seq WHERE seq < 0")
    db.commit()
    db.close()


@pytest.mark.parametrize("key", [None, b"k" * 32], ids=["plain-sha256", "wrong-key"])
def test_a_row_deleted_and_the_rest_renumbered_and_rechained_is_caught(played: tuple[Path, str], key: bytes | None) -> None:
    path, head = played
    _delete_and_renumber(path, 30)
    _rechain(path, 30, key)
    assert _broken_at(path) == 30
    assert _verify(path, "--head", head) == 1


def test_a_row_deleted_and_renumbered_without_rechaining_is_caught(played: tuple[Path, str]) -> None:
    path, _ = played
    _delete_and_renumber(path, 30)
    assert _broken_at(path) == 30


# -- old logs, files on disk --------------------------------------------------------------------


def test_an_old_plain_sha256_log_still_verifies(tmp_path: Path) -> None:
    """A log written before keyed chains: no chain entry in meta, no key file."""
    path = tmp_path / "old.sqlite"
    with GameLog(path) as game_log:
        game_log.append_many([_row(i) for i in range(1, 11)])
    db = sqlite3.connect(path)
    db.execute("DELETE FROM meta WHERE key='chain'")
    db.commit()
    db.close()
    _rechain(path, 1, None)
    chain_key_path(path).unlink()
    with GameLog(path) as game_log:
        assert game_log.chain == CHAIN_PLAIN
        assert game_log.verify() == 10
        appended = game_log.append(_row(11))  # resuming it keeps it plain to its end
        assert appended.hash == row_hash(appended.prev_hash, 11, appended)  # plain sha256, no key
        assert game_log.verify() == 11
    assert not chain_key_path(path).exists()


def test_keyed_hash_is_hmac_sha256_of_the_canonical_row(played: tuple[Path, str]) -> None:
    path, _ = played
    key = chain_key_path(path).read_bytes()
    with GameLog(path) as game_log:
        row = game_log.row(5)
    assert row is not None
    assert row.hash == row_hash(row.prev_hash, 5, row, key)
    assert row.hash != row_hash(row.prev_hash, 5, row)
    assert len(key) == 32 and hmac.compare_digest(row.hash, row_hash(row.prev_hash, 5, row, key))


def test_the_log_its_wal_and_the_key_are_private(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        path = tmp_path / "game.sqlite"
        with GameLog(path) as game_log:
            game_log.append(_row(1))
            for name in ("game.sqlite", "game.sqlite-wal", "game.sqlite-shm", "log-chain.key"):
                mode = stat.S_IMODE((tmp_path / name).stat().st_mode)
                assert mode == 0o600, f"{name} is {oct(mode)}"
        os.chmod(path, 0o644)  # a log from before: opened, it is made private
        GameLog(path).close()
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    finally:
        os.umask(old)


def test_verify_as_a_command(played: tuple[Path, str]) -> None:
    path, head = played
    result = subprocess.run(
        [sys.executable, "-m", "companion", "log", "verify", str(path), "--head", head],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert "120 rows, hash chain intact, keyed" in result.stdout
    assert "names row 120; it is unchanged, and 0 rows follow it" in result.stdout


def test_the_board_publishes_the_head_players_can_check(toy_session: Session) -> None:
    toy_session.process(move({"by": "anna", "do": "take", "n": 2}))
    chain = toy_session.board()["chain"]
    assert chain == {"rows": 2, "head": fingerprint(toy_session.log.head), "kind": CHAIN_KEYED, "continues": None}
    assert isinstance(chain, dict) and re.fullmatch(r"[0-9a-f]{4} [0-9a-f]{4} [0-9a-f]{4}", str(chain["head"]))
    toy_session.process(move({"by": "ben", "do": "take", "n": 1}))
    assert toy_session.board()["chain"]["rows"] == 3  # type: ignore[index]
    assert toy_session.log.verify_head(str(chain["head"])) == (3, 2)  # one row follows the head kept at row 2


def test_the_table_secret_is_private(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        secret = tmp_path / "game.secret"
        table_secret(secret)
        assert stat.S_IMODE(secret.stat().st_mode) == 0o600
        os.chmod(secret, 0o644)
        table_secret(secret)
        assert stat.S_IMODE(secret.stat().st_mode) == 0o600
    finally:
        os.umask(old)
