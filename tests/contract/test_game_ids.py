"""No list of games outside the games (issue 20): a file that names three or more game ids is a list
to edit when a game comes, and the registry is the one list.

Every tracked file outside the game packages (``companion/games/<package>/``) is read, but for the
docs (``docs/``, ``README.md``) and data (``*.jsonl``, ``*.expected``, ``*.json``, ``*.txt``: test
games, acceptance files, fixtures). The ids are the registry's, less the games kept outside
``companion/games`` (the tests' toy game): those are the ones a shared file is tempted to list.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterable, Sequence
from pathlib import Path

import pytest

from companion.games import specs

ROOT = Path(__file__).resolve().parents[2]
MOST = 2
"""The most game ids one shared file may name: a test of one game against another is fine, a list is not."""
DOCS = ("docs/", "README.md")
DATA = (".jsonl", ".expected", ".json", ".txt")


def game_ids() -> list[str]:
    return [game_id for game_id, spec in specs().items() if spec.package.startswith("companion.games.")]


def exempt(path: str) -> bool:
    """The game packages themselves, docs and data files."""
    parts = path.split("/")
    in_a_game = len(parts) > 3 and parts[:2] == ["companion", "games"]
    return in_a_game or path.startswith(DOCS) or path.endswith(DATA)


def names(text: str, ids: Iterable[str]) -> list[str]:
    """The ids ``text`` names as whole words (an id inside a longer name is not that id)."""
    return [i for i in ids if re.search(rf"(?<![\w-]){re.escape(i)}(?![\w-])", text)]


def offenders(files: Iterable[tuple[str, str]], ids: Sequence[str]) -> list[str]:
    """``path: ids`` for each (path, text) that names more than :data:`MOST` ids."""
    out = []
    for path, text in files:
        found = names(text, ids)
        if len(found) > MOST:
            out.append(f"{path}: {', '.join(found)}")
    return out


def tracked() -> Iterable[tuple[str, str]]:
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=False)
    if listed.returncode != 0:
        pytest.skip(f"not a git checkout: {listed.stderr.decode(errors='replace').strip()}")
    for path in listed.stdout.decode().split("\0"):
        if not path or exempt(path) or not (ROOT / path).is_file():
            continue
        yield path, (ROOT / path).read_bytes().decode("utf-8", errors="replace")


def test_no_file_outside_the_games_lists_the_games() -> None:
    ids = game_ids()
    assert len(ids) > MOST, f"the registry found {ids}: too few for this check to mean anything"
    found = offenders(tracked(), ids)
    assert found == [], (
        "these files list games; read the registry (companion.games.specs()) and put what a test must know "
        "of one game in tests/games/<package>_scenes.py or a test file of that game:\n" + "\n".join(found)
    )


def test_the_check_sees_a_list() -> None:
    """The check is not blind: a file naming three ids is reported; two, an id inside a longer name,
    a game's own folder, docs and data are not."""
    ids = game_ids()
    three = "GAMES = (" + ", ".join(f'"{i}"' for i in ids[:3]) + ")"
    assert offenders([("tests/test_x.py", three)], ids) == [f"tests/test_x.py: {', '.join(ids[:3])}"]
    assert offenders([("tests/test_x.py", " ".join(ids[:2]))], ids) == []
    assert offenders([("tests/test_x.py", " ".join(f"{i}x {i}_2 x{i}" for i in ids))], ids) == []
    assert all(exempt(p) for p in ("companion/games/a_game/GAME.md", "docs/games.md", "README.md", "tests/games/a.jsonl"))
    assert not any(exempt(p) for p in ("companion/games/__init__.py", "web/templates/setup.html", "tests/test_x.py"))
