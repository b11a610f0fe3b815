"""SIGKILL the service at random points while events stream in, many times.

After every kill: every acknowledged row is in the log with what was sent, `log verify` passes, and
the state rebuilt from the log equals the state the service had announced for the last acknowledged
row. Each restart resumes the same log and the stream goes on from where the log ends.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main as companion
from companion.games import get_game
from companion.games.horrible_mountain_2.playout import random_playout
from companion.log.store import GameLog
from companion.referee.session import Session

pytestmark = pytest.mark.slow

KILLS = 12


def _stream(seed: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A whole real game (with illegal attempts), then sensor noise: unknown tags and notes."""
    header, moves = random_playout(seed, 400, illegal_every=7)
    game = get_game(header.game)
    stream: list[dict[str, Any]] = []
    t = 1000.0
    for move in moves:
        t += 0.01
        stream.append({"source": "test", "t": t, "kind": "move", "payload": game.codec.to_json(move)})
    for i in range(15000):
        t += 0.001
        zone = {"zone": f"slot-{i % 5 + 1}", "zone_kind": "table_slot", "player": None, "index": i % 5 + 1}
        if i % 3:
            stream.append({"source": "array:1", "t": t, "kind": "tag", "payload": {**zone, "event": "arrive", "uid": f"{i:08x}", "card": None}})
        else:
            stream.append({"source": "array", "t": t, "kind": "note", "payload": {"seen": i}})
    return header.to_json(), stream


def _feed(proc: subprocess.Popen[str], lines: list[dict[str, Any]]) -> None:
    assert proc.stdin is not None
    try:
        for obs in lines:
            proc.stdin.write(json.dumps(obs) + "\n")
        proc.stdin.close()
    except (BrokenPipeError, OSError):
        pass  # killed mid-write: that is the point


def test_nothing_acknowledged_is_lost_to_sigkill(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rng = random.Random(2026)
    header, stream = _stream(seed=5)
    db = tmp_path / "crash.sqlite"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    kills_done = 0
    for cycle in range(KILLS):
        proc = subprocess.Popen(
            [sys.executable, "-m", "tests.crash_child", str(db), json.dumps(header)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
            cwd=str(Path(__file__).resolve().parents[1]),
        )
        assert proc.stdout is not None
        ready = proc.stdout.readline().split(" ", 2)
        assert ready[0] == "READY", ready
        start_seq = int(ready[1])
        sent_from = max(start_seq - 1, 0)  # row seq k+1 holds stream item k
        feeder = threading.Thread(target=_feed, args=(proc, stream[sent_from:]), daemon=True)
        feeder.start()
        acks: list[tuple[int, str]] = []
        reader = threading.Thread(
            target=lambda: acks.extend(
                (int(line.split(" ", 2)[1]), line.split(" ", 2)[2].strip()) for line in proc.stdout if line.startswith("ACK")  # type: ignore[union-attr]
            ),
            daemon=True,
        )
        reader.start()
        time.sleep(rng.uniform(0.02, 0.3))
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        reader.join(10)
        feeder.join(10)
        kills_done += 1

        with GameLog(db) as game_log:
            assert game_log.verify() == game_log.last_seq
            rows = {r.seq: r for r in game_log.rows()}
            if acks:
                last_acked, board_then = acks[-1]
                assert last_acked <= game_log.last_seq, "an acknowledged row is missing"
                for seq in range(max(2, start_seq + 1), last_acked + 1):
                    sent = stream[seq - 2]
                    assert rows[seq].payload == sent["payload"], f"row {seq} does not hold what was sent"
                session = Session(get_game(header["game"]), game_log, None)
                _, after = session.states_around(last_acked)
                assert json.dumps(session.game.scoreboard(after), sort_keys=True) == board_then
        if len(rows) - 1 >= len(stream):
            break
    assert kills_done >= 5
    assert companion(["log", "verify", str(db)]) == 0
    assert "hash chain intact" in capsys.readouterr().out
