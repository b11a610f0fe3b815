"""Issue 12: `companion init --game G --no-hardware` writes a config that starts as it is, for every
registered game (the toy game too). That it serves, with the game's panel, is the contract's
(tests/contract/test_contract.py); here, what the file says of its setup."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from companion.cli import main
from companion.app.config import load_config
from companion.games import game_ids, get_spec
from tests.games.scenes import scene

GAMES = game_ids()


@pytest.mark.parametrize("game_id", GAMES)
def test_what_needs_no_deal_gets_none_and_a_generated_deal_says_so(tmp_path: Path, game_id: str) -> None:
    config = tmp_path / "table.toml"
    assert main(["init", str(config), "--no-hardware", "--game", game_id]) == 0
    text = config.read_text(encoding="utf-8")
    setup = load_config(config).header.setup
    spec = get_spec(game_id)
    example = spec.example(random.Random(0))  # what the game declares of its example table
    if example.shuffled:
        assert "chosen by the game's own deal helper" in text
    else:  # nothing chosen by a shuffle: the example's setup as it is
        assert dict(setup) == dict(example.header.setup)
        assert "chosen by the game's own deal helper" not in text
    if example.hands_tapped:  # a live table: no face-down card in the file
        assert "hands" not in setup and "No face-down card is here" in text
    scene(spec).init_setup(setup)  # the game's own expectations


def test_game_without_no_hardware_is_refused(tmp_path: Path) -> None:
    assert main(["init", str(tmp_path / "t.toml"), "--game", "everest"]) == 2
    assert not (tmp_path / "t.toml").exists()
