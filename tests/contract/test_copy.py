"""A new game touches only its own folder (issue 20, "Done when").

A temporary copy of the tree; one game's package copied under a new package name, its id changed
inside the copy (the quoted id, wherever the package spells it) and nothing else edited anywhere. In
that tree, with its own code on the path: the registry finds the new game, ``companion init
--no-hardware`` writes a config that serves it and its panel, and its acceptance games replay to their
expected output.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from companion.games import specs

ROOT = Path(__file__).resolve().parents[2]
TEXT = {".py", ".js", ".css", ".md", ".json", ".jsonl", ".expected", ".txt", ".toml"}
BUILT_IN = sorted(spec_id for spec_id, spec in specs().items() if spec.package.startswith("companion.games."))


def copy_tree(dst: Path) -> None:
    """The project as a fresh clone has it (tracked and new files, no venv, no caches)."""
    listed = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    for name in listed:
        src = ROOT / name
        if src.is_file():
            (dst / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dst / name)


def clone_game(tree: Path, package: str, new_package: str, old_id: str, new_id: str) -> None:
    src = tree / "companion" / "games" / package
    dst = tree / "companion" / "games" / new_package
    shutil.copytree(src, dst)
    for path in dst.rglob("*"):
        if path.is_file() and path.suffix in TEXT:
            text = path.read_text(encoding="utf-8")
            path.write_text(text.replace(f'"{old_id}"', f'"{new_id}"'), encoding="utf-8")


def run(tree: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "COMPANION_GAMES"}
    env["PYTHONPATH"] = str(tree)
    return subprocess.run([sys.executable, "-m", "companion", *args], cwd=tree, env=env, capture_output=True, text=True, timeout=120)


def serve(tree: Path, config: Path) -> tuple[subprocess.Popen[str], str]:
    env = {k: v for k, v in os.environ.items() if k != "COMPANION_GAMES"}
    env["PYTHONPATH"] = str(tree)
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion", "serve", "--config", str(config)],
        cwd=tree, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    assert proc.stdout is not None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if "http://" in line:
            url = line[line.index("http://") :].split()[0]
            return proc, url if url.endswith("/") else url + "/"
        if not line and proc.poll() is not None:
            break
    proc.kill()
    raise AssertionError(f"serve did not start: {proc.stderr.read() if proc.stderr else ''}")


def get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=10) as answer:
        body: bytes = answer.read()
        return body


@pytest.mark.slow
@pytest.mark.parametrize("game_id", BUILT_IN)
def test_a_copied_package_is_a_new_game(tmp_path: Path, game_id: str) -> None:
    spec = specs()[game_id]
    package = spec.package.rsplit(".", 1)[-1]
    new_id, new_package = f"{game_id}-copy", f"{package}_copy"
    tree = tmp_path / "tree"
    copy_tree(tree)
    clone_game(tree, package, new_package, game_id, new_id)

    found = run(tree, "init", "--help")
    assert found.returncode == 0 and new_id in found.stdout, found.stdout + found.stderr

    config = tmp_path / "table.toml"
    made = run(tree, "init", str(config), "--no-hardware", "--game", new_id, "--host", "127.0.0.1", "--port", "0")
    assert made.returncode == 0, made.stderr
    proc, url = serve(tree, config)
    try:
        board = json.loads(get(url + "api/board"))
        assert board["game"] == new_id
        assert f'TC.games.register("{new_id}"'.encode() in get(url + f"panels/{new_id}/panel.js")
        assert f'src="/panels/{new_id}/panel.js"'.encode() in get(url)
    finally:
        proc.terminate()
        proc.wait(30)

    copied = sorted((tree / "companion" / "games" / new_package / spec.acceptance).glob("*.jsonl"))
    assert len(copied) == len(spec.acceptance_files()) > 0
    for path in copied:
        assert json.loads(path.read_text(encoding="utf-8").splitlines()[0])["game"] == new_id
        replayed = run(tree, "replay", str(path))
        assert replayed.returncode == 0, replayed.stderr
        assert replayed.stdout.splitlines() == path.with_suffix(".expected").read_text(encoding="utf-8").splitlines()
