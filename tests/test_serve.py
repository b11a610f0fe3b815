"""`companion serve` as a process, the way systemd runs it: readers on a (simulated) array, the
scoreboard over HTTP, a reader fault shown while it lasts, SIGTERM, and resuming from the log."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from companion.demo.rig import uid_of
from companion.log.store import GameLog
from companion.table.registry import TagRegistry
from hardware.sim.array import SimulatedArray
from tests.serving import ARRAY_ZONES

pytestmark = pytest.mark.slow

CONFIG = """
[game]
id = "escape-master"
players = ["anna", "ben"]
[game.setup]
dealer = "anna"
[log]
path = "game.sqlite"
[web]
host = "127.0.0.1"
port = 0
[tags]
registry = "tags.json"
[array]
port = "{port}"
"""


def _start(config: Path, *flags: str) -> tuple[subprocess.Popen[str], str, str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion", "serve", "--config", str(config), *flags],
        stdin=subprocess.DEVNULL,  # no terminal: serve never waits for an answer
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    url = pin = ""
    deadline = time.monotonic() + 60
    while not pin and time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        if m := re.match(r"scoreboard: (http://\S+/)", line):
            url = m.group(1)
            assert f"the public log: {url}log" in line
        # Not a terminal (like systemd's journal): the PIN and links go to a file only its owner reads.
        if m := re.match(r"referee PIN and player links: in (\S+) ", line):
            access = Path(m.group(1))
            assert access.stat().st_mode & 0o777 == 0o600
            found = re.search(r"referee PIN: (\d{8})", access.read_text(encoding="utf-8"))
            pin = found.group(1) if found else ""
        assert "referee PIN:" not in line, "the PIN must not reach a journal"
    assert url and pin, "serve did not print its address and PIN"
    return proc, url, pin


def _board(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(url + "api/board", timeout=10) as resp:
        data: dict[str, Any] = json.loads(resp.read())
        return data


def _until(check: Callable[[], bool], what: str, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def test_serve_reads_the_array_shows_faults_and_resumes(tmp_path: Path) -> None:
    registry = TagRegistry(tmp_path / "tags.json", "escape-master")
    for card in ("joe-1", "joe-2", "mouse-3", "teen-7"):
        registry.enrol(uid_of(card), card)
    array = SimulatedArray(3, link=tmp_path / "array-tty", heartbeat_s=0.5)
    array.plug()
    config = tmp_path / "table.toml"
    config.write_text((CONFIG + ARRAY_ZONES).format(port=tmp_path / "array-tty"), encoding="utf-8")
    proc, url, pin = _start(config)
    try:
        _until(lambda: _board(url)["health"].get("array", {}).get("status") == "ok", "the array link")
        array.arrive(1, uid_of("joe-1"))  # dealt into anna's hand
        array.depart(1, uid_of("joe-1"))
        array.arrive(2, uid_of("mouse-3"))  # dealt into ben's hand
        array.arrive(0, "0badc0ffee0001")  # a tag no one enrolled, on the pile
        _until(lambda: _board(url)["scoreboard"]["hand_sizes"] == {"anna": 1, "ben": 1}, "the dealt cards")
        _until(lambda: any(a["zone"] == "pile-1" for a in _board(url)["alerts"]), "the unknown-tag alert")

        array.unplug()  # someone trips over the USB cable
        _until(lambda: _board(url)["health"]["array"]["status"] != "ok", "the fault on the scoreboard")
        array.plug()
        _until(lambda: _board(url)["health"]["array"]["status"] == "ok", "the array back")
        array.arrive(1, uid_of("joe-2"))
        _until(lambda: _board(url)["scoreboard"]["hand_sizes"]["anna"] == 2, "a card after the replug")
        before = _board(url)["scoreboard"]
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(30) == 0
    with GameLog(tmp_path / "game.sqlite") as game_log:
        rows = game_log.verify()
        notes = [r.payload.get("status") for r in game_log.rows() if r.kind == "note" and r.source == "array"]
    assert rows > 5
    assert "ok" in notes and any(s != "ok" for s in notes)  # the fault is in the log for the record

    proc, url, pin = _start(config)  # the Pi reboots: the game resumes from its log
    try:
        assert _board(url)["scoreboard"] == before
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(30) == 0
        array.close()


def test_serve_without_the_setup_a_game_needs_says_which_key(tmp_path: Path) -> None:
    config = tmp_path / "table.toml"
    config.write_text('[game]\nid = "horrible-mountain-2"\nplayers = ["anna", "ben"]\n', encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "companion", "serve", "--config", str(config)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 2
    assert "game.setup" in result.stderr and "evil_master" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_serve_takes_its_address_from_the_command_line_over_the_config(tmp_path: Path) -> None:
    config = tmp_path / "table.toml"
    subprocess.run([sys.executable, "-m", "companion", "init", str(config), "--game", "escape-master", "--no-hardware"],
                   check=True, capture_output=True, cwd=tmp_path, timeout=60)
    assert "port = 8000" in config.read_text(encoding="utf-8")  # every interface, port 8000 in the file
    proc, url, _ = _start(config, "--host", "127.0.0.1", "--port", "0")
    try:
        assert url.startswith("http://127.0.0.1:") and not url.endswith(":8000/")
        assert "scoreboard" in _board(url)
        with urllib.request.urlopen(url + "log", timeout=10) as resp:  # the public log the welcome names
            assert resp.status == 200
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(30) == 0
    for flag, value, said in (("--port", "70000", "70000 is not a TCP port"), ("--port", "http", "'http' is not a port number")):
        result = subprocess.run([sys.executable, "-m", "companion", "serve", "--config", str(config), flag, value],
                                capture_output=True, text=True, timeout=60)
        assert result.returncode == 2 and said in result.stderr and "Traceback" not in result.stderr, result.stderr
