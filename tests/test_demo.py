"""`companion demo` end to end: the scripted game through the simulated array (the real firmware on a
simulated field), bridge, table model, session and log, as the README promises (run as fast as the
pipeline goes)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from companion.games import get_spec, specs
from companion.log.store import GameLog

pytestmark = pytest.mark.slow


def test_the_demo_plays_a_whole_game_through_the_readers(tmp_path: Path) -> None:
    folder = tmp_path / "demo"
    result = subprocess.run(
        [sys.executable, "-m", "companion", "demo", "--dir", str(folder), "--port", "0", "--speed", "0", "--exit"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    out = result.stdout
    assert "scoreboard: http://127.0.0.1:" in out
    # Not a terminal: the PIN and links are in a file only this user reads, never in the output.
    assert "referee PIN: " not in out and f"referee PIN and player links: in {folder / 'escape-master.access'}" in out
    assert re.search(r"referee PIN: \d{8}", (folder / "escape-master.access").read_text(encoding="utf-8"))
    done = re.search(r"done: (\d+) turns, (\d+) taps through the reader array, (\d+) entries, (\d+) referee fixes; log of (\d+) rows verified", out)
    assert done, out[-1000:]
    turns, taps, entries, fixes, rows = map(int, done.groups())
    assert turns > 300 and taps > 500 and fixes <= 3
    assert "outcome: {'winner'" in out

    with GameLog(folder / "escape-master.sqlite") as game_log:
        assert game_log.verify() >= rows  # shutting the readers down adds their health notes
        all_rows = list(game_log.rows())
    from_readers = [r for r in all_rows if r.kind == "tag"]
    assert len(from_readers) >= taps  # every tap came through the array and the bridge
    assert all(r.source.startswith("array:") for r in from_readers)
    # The central piles really stack up: cards land on cards already there (the firmware's pile
    # readers halt each card read, so only the new one answers), and leave only when lifted.
    depth: dict[str, int] = {}
    deepest = 0
    for row in from_readers:
        zone = str(row.payload.get("zone"))
        if zone.startswith("pile-"):
            depth[zone] = depth.get(zone, 0) + (1 if row.payload.get("event") == "arrive" else -1)
            assert depth[zone] >= 0, f"{zone}: a card left that never arrived"
            deepest = max(deepest, depth[zone])
    assert deepest >= 20
    beaten = [r for r in all_rows if r.verdict and "EM-BEATEN" in r.verdict.get("rules", [])]
    assert len(beaten) >= 5
    assert all(re.search(r"\d+ ms earlier|\d+\.\d{3} s earlier|same millisecond", r.verdict["why"]) for r in beaten)  # how far apart, to the ms
    illegal = [r for r in all_rows if r.verdict and not r.verdict["ok"]]
    assert len(illegal) > len(beaten)
    assert json.loads(json.dumps(all_rows[0].payload))["game"] == "escape-master"


def test_demo_game_prints_each_games_share_and_ends_with_the_sum(tmp_path: Path) -> None:
    # A recorded game (--play): the command that plays the acceptance and generated games (their
    # share is tests/contract/test_sensors.py's, through the same runner) on one short file.
    recorded = get_spec("escape-master").acceptance_files()
    scripted = next(path for path in recorded if path.stem == "scripted")
    result = subprocess.run(
        [sys.executable, "-m", "companion", "demo", "--game", "escape-master", "--fast", "--generated", "0",
         "--play", str(scripted), "--dir", str(tmp_path / "share")],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    lines = result.stdout.strip().splitlines()
    per_game = [line.split(":")[0] for line in lines if ": sensor share:" in line and not line.startswith("sensor share")]
    assert per_game == ["scripted.jsonl"], result.stdout  # one line a game
    last = re.fullmatch(r"sensor share: (\d+\.\d)% of (\d+) moves \((\d+) entered by tapping, (\d+) misread\)", lines[-1])
    assert last, lines[-1]
    share, moves, entered, misread = float(last[1]), int(last[2]), int(last[3]), int(last[4])
    assert moves == 53 and misread == 0
    assert share == round(100 * (moves - entered) / moves, 1)


def test_demo_game_refuses_a_recorded_game_of_another_game_or_a_broken_file(tmp_path: Path) -> None:
    other_game = next(spec for spec in specs().values() if spec.id != "escape-master" and spec.acceptance_files())
    other = other_game.acceptance_files()[0]
    header = get_spec("escape-master").acceptance_files()[0].read_text(encoding="utf-8").splitlines()[0]
    broken = tmp_path / "broken.jsonl"
    broken.write_text(header + '\n{"by": "a", "do": \n', encoding="utf-8")
    for path, said in ((other, f"{other.name} is a game of {other_game.id}, not escape-master"),
                       (tmp_path / "missing.jsonl", "missing.jsonl"), (broken, "line 2")):
        result = subprocess.run(
            [sys.executable, "-m", "companion", "demo", "--game", "escape-master", "--fast", "--generated", "0",
             "--play", str(path), "--dir", str(tmp_path / "share")],
            capture_output=True, text=True, timeout=120,
        )
        assert result.returncode != 0 and said in result.stderr and "Traceback" not in result.stderr, result.stderr


def test_demo_game_refuses_a_game_with_no_sensor_plan_or_no_such_game(tmp_path: Path) -> None:
    # Every game here has a plan; the tests' toy game (registered by tests/conftest.py) has none.
    for game, said in (("toy", "has no sensor plan yet"), ("chess", "no game 'chess'")):
        result = subprocess.run(
            [sys.executable, "-m", "companion", "demo", "--game", game, "--dir", str(tmp_path / game)],
            capture_output=True, text=True, timeout=120,
        )
        assert result.returncode != 0 and said in result.stderr, result.stderr
