"""Whole games: the notation data files (the acceptance test), random playouts, and rule coverage."""

from __future__ import annotations

import importlib
import json
import re
from pathlib import Path

import pytest

from companion.games.horrible_mountain_2 import GAME
from companion.games.horrible_mountain_2.cards import COLOURS
from companion.games.horrible_mountain_2.playout import legal_moves, random_playout
from companion.games.horrible_mountain_2.state import Phase
from companion.log.notation import read_notation
from companion.log.replay import replay
from tests.games.test_horrible_mountain_2_support import COVERED
from companion.games import get_spec

DATA = get_spec("horrible-mountain-2").path("acceptance")
GAMES = sorted(DATA.glob("*.jsonl"))


def replayed(path: Path) -> list[str]:
    with path.open(encoding="utf-8") as handle:
        record = read_notation(handle)
    return [json.dumps(row, sort_keys=True) for row in replay(record)]


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_each_data_game_replays_to_its_expected_output(path: Path) -> None:
    expected = path.with_suffix(".expected").read_text(encoding="utf-8").splitlines()
    assert replayed(path) == expected


def test_the_scripted_game_key_lines_checked_against_the_rulebook() -> None:
    rows = [json.loads(line) for line in replayed(DATA / "scripted.jsonl")]
    refused = {row["n"]: row["rules"] for row in rows if "n" in row and not row["ok"]}
    assert refused == {
        2: ["HM2-PLACE-FREE"],  # the Evil Master on the adventurer's 2 and 6
        4: ["HM2-TURN"],  # the adventurer before the Evil Master's first turn
        8: ["HM2-CLAIM-CUBE", "HM2-WHOLE-ACTION"],  # the Cube Pile is empty
        18: ["HM2-HAND-LIMIT"],  # a discard with five cards
        21: ["HM2-HAND-LIMIT"],  # a draw while holding six
        23: ["HM2-DRAW", "HM2-RESHUFFLE"],  # the sixth-card discard that started the new Discard Pile
        38: ["HM2-VARIANT"],  # examine without the Optional Variant
        45: ["GAME-OVER"],  # after the turn of the third exhaustion
    }
    final = rows[-1]
    assert final["outcome"] == {"winner": "adam", "reason": "most points"}
    scores = final["scoreboard"]["scores"]
    # Eve: 4 4 4 5 5 is a full house (8), no Control Cube left. Adam: four 6s (10) + yellow on the 2S.
    assert (scores["eve"]["hand"], scores["eve"]["cubes"], scores["eve"]["total"]) == (8, 0, 8)
    assert (scores["adam"]["hand"], scores["adam"]["cubes"], scores["adam"]["total"]) == (10, 2, 12)
    assert final["scoreboard"]["exhausted"] == 3 and final["scoreboard"]["turn"] is None


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_random_playouts_are_legal_and_end(seed: int) -> None:
    header, moves = random_playout(seed, variant=seed % 2 == 1)
    state = GAME.new_state(header)
    for move in moves:
        verdict, state = GAME.play(state, move)
        assert verdict.ok, (GAME.codec.to_json(move), verdict)
        assert sum(len(h) for h in state.hands) + len(state.table) + len(state.draw_pile) + state.discard_size == 20
        if state.phase is not Phase.PLACE:  # one cube of each colour on a Table Card (HM2-CUBE-SLOT)
            assert sorted(c for c in state.slot_cubes if c) == sorted(COLOURS)
    assert GAME.outcome(state) is not None and state.exhausted == 3


def test_playout_illegal_attempts_are_refused_and_change_nothing() -> None:
    header, moves = random_playout(5, illegal_every=4)
    state = GAME.new_state(header)
    refusals = 0
    for n, move in enumerate(moves, start=1):
        verdict, after = GAME.play(state, move)
        if not verdict.ok:
            refusals += 1
            assert after is state and verdict.rules and all(r in GAME.rules for r in verdict.rules)
        state = after
    assert refusals >= len(moves) // 5 and GAME.outcome(state) is not None


def test_every_generated_legal_move_is_legal_and_there_is_always_one() -> None:
    header, moves = random_playout(11, variant=True)
    state = GAME.new_state(header)
    for move in moves:
        options = [m for m in legal_moves(state) if GAME.check(state, m).ok]
        assert options and move in options
        state = GAME.apply(state, move)


SIBLINGS = ("setup", "actions", "piles", "scoring", "variant", "table", "views")


def test_every_rule_has_a_legal_and_an_illegal_or_outcome_case() -> None:
    for name in SIBLINGS:
        importlib.import_module(f"tests.games.test_horrible_mountain_2_{name}")
    missing = [f"{rule} ({kind})" for rule in GAME.rules for kind in ("legal", "illegal") if kind not in COVERED[rule]]
    assert not missing


def test_every_rule_quotes_its_passage() -> None:
    shared = Path("/work/shared/rules")
    for rule in GAME.rules.values():
        assert rule.id.startswith("HM2-") and rule.title and rule.passage
        assert rule.source in ("horrible-mountain-2.md", "GAPS.md")
        source = shared / rule.source
        if source.exists():  # the shared folder is beside the tree here; elsewhere the quote stands alone
            text = " ".join(source.read_text(encoding="utf-8").replace("<b>", "").replace("</b>", "").split())
            # The rulebook's action and scoring tables are quoted as "Name: words" and "row; row".
            for piece in re.split(r": |; |\[\.\.\.\]", rule.passage):
                assert piece.strip() in text, (rule.id, piece)


def test_the_docs_list_every_rule_option_and_verb() -> None:
    docs = get_spec("horrible-mountain-2").path("GAME.md").read_text(encoding="utf-8")
    for rule in GAME.rules.values():
        assert f"| `{rule.id}` | {rule.title} |" in docs
    for option in GAME.default_options():
        assert f"| `{option}` |" in docs
    for verb in GAME.codec.by_verb:
        assert f"| `{verb}` |" in docs
