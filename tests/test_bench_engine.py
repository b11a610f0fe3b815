"""bench/engine.py --against works: both trees measured on the same moves by long-lived workers, and
a worker that cannot measure says which tree and which game, and exits, rather than hanging. The
figures are the benchmark's to print, never asserted here (the machines are shared and noisy)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import bench.engine
from bench.engine import Worker, WorkerError

ROOT = Path(__file__).resolve().parents[1]
WORKER = ROOT / "bench" / "engine_worker.py"
GAME = "everest"
NO_GAME = {"game": "no-such-game", "players": ["Ann", "Bo"]}


def test_against_head_measures_both_trees_on_the_same_moves() -> None:
    if subprocess.run(["git", "rev-parse", "--verify", "--quiet", "HEAD"], cwd=ROOT, capture_output=True, check=False).returncode:
        pytest.skip("not a git checkout with a HEAD")
    command = [sys.executable, "bench/engine.py", "--against", "HEAD", "--games", GAME, "--passes", "2", "--json"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=240, check=False)
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    assert [row["game"] for row in rows] == [GAME]
    row = rows[0]
    assert row["passes"] == 2 and row["moves"] >= 1000
    for side in (row["here"], row["ref"]):
        assert side["moves"] == row["moves"]  # the same moves, read by each tree's own codec
        assert side["moves_per_s_best"] >= side["moves_per_s"] > 0
        assert 0 < side["replay_1000_ms_best"] <= side["replay_1000_ms"]
    for key in ("rate_ratio", "replay_ratio"):
        assert len(row[key + "s"]) == 2 and all(r > 0 for r in row[key + "s"])
        q1, q3 = row[key + "_quartiles"]
        assert 0 < q1 <= row[key] <= q3


def test_a_worker_on_a_tree_without_the_game_says_so_and_exits(tmp_path: Path) -> None:
    game = tmp_path / "000.jsonl"
    game.write_text(json.dumps(NO_GAME) + "\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(WORKER), str(game)], cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)),
        input="check-apply\n", capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 1
    assert "ready" not in done.stdout
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith(f"engine_worker: reading {game}: ") and 'unknown game "no-such-game"' in last


def test_the_bench_names_the_tree_and_the_game_of_a_failed_worker(tmp_path: Path) -> None:
    game = tmp_path / "000.jsonl"
    game.write_text(json.dumps(NO_GAME) + "\n", encoding="utf-8")
    with pytest.raises(WorkerError) as failed, Worker("the tree under test", ROOT, "no-such-game", [str(game)]) as worker:
        worker.wait_ready()
    message = str(failed.value)
    assert message.startswith(f"no-such-game: the worker measuring the tree under test ({ROOT}) exited")
    assert 'unknown game "no-such-game"' in message and "exit status 1" in message


def test_a_worker_that_does_not_answer_is_given_up(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    silent = tmp_path / "silent.py"
    silent.write_text("import time\ntime.sleep(120)\n", encoding="utf-8")
    monkeypatch.setattr(bench.engine, "WORKER", silent)
    monkeypatch.setattr(bench.engine, "READY_TIMEOUT_S", 1.0)
    with pytest.raises(WorkerError, match=r"^no-such-game: the worker measuring the tree .* did not answer within 1 s"):
        with Worker("the tree", ROOT, "no-such-game", []) as worker:
            worker.wait_ready()


def test_a_worker_makes_its_own_games_with_its_trees_bench() -> None:
    """--own-games: the games of the measured tree's own bench/engine.py (for a commit that cannot
    read this tree's notation), timed like any others."""
    done = subprocess.run(
        [sys.executable, str(WORKER), "--own-games", "everest", "1"], cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)),
        input="check-apply\nreplay\n", capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 0, done.stderr
    ready, rate, replay = done.stdout.splitlines()
    word, _, said = ready.partition(" ")
    assert word == "ready" and json.loads(said)["moves"] >= 1000 and json.loads(said)["illegal"] == 0
    assert float(rate) > 0 and float(replay) > 0
