"""The game contract, rule by rule: every rule id of every registered game is documented, and its
rule cases (the game package's ``rule_cases.jsonl``, see ``tests/rulecases``) hold against the
real engine: a move it refuses and a move of the same verb it accepts, or, for a rule that never
refuses, a move after which the scoreboard or the outcome shows what it does."""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Any

import pytest

from companion.contract.game import GAME_OVER, Game
from companion.games import game_ids, get_game, get_spec
from tests.rulecases.cases import RuleCase, cases_file, check_case, read_cases

GAMES = sorted(game_ids())


def _cases(game: Game[Any]) -> list[RuleCase]:
    path = cases_file(game.id)
    assert path.exists(), f"{game.id} has no {path.name} in its package"
    return read_cases(game, path)


@pytest.mark.parametrize("game_id", GAMES)
def test_every_case_holds_against_the_engine(game_id: str) -> None:
    game = get_game(game_id)
    cases = _cases(game)
    assert cases
    problems = [f"{case.where()}: {problem}" for case in cases if (problem := check_case(game, case))]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("game_id", GAMES)
def test_every_rule_has_its_cases(game_id: str) -> None:
    """A rule that refuses: an illegal case and a legal one of a verb it refuses. A rule that never
    refuses: an effect case and a legal one of the same verb, and no illegal case."""
    game = get_game(game_id)
    verbs: dict[tuple[str, str], set[str]] = defaultdict(set)
    for case in _cases(game):
        assert case.rule in game.rules, f"{case.where()}: {case.rule} is not a rule of {game_id}"
        verbs[case.rule, case.expect].add(case.move.verb)
    problems = []
    for rule_id, rule in game.rules.items():
        shown = "illegal" if rule.refuses else "effect"
        if not rule.refuses and verbs[rule_id, "illegal"]:
            problems.append(f"{rule_id} never refuses a move (refuses=False), yet has an illegal case")
        for expect in (shown, "legal"):
            if not verbs[rule_id, expect]:
                problems.append(f"{rule_id} has no {expect} case")
        if verbs[rule_id, shown] and verbs[rule_id, "legal"] and not verbs[rule_id, shown] & verbs[rule_id, "legal"]:
            problems.append(f"{rule_id}: no legal case has a verb of its {shown} cases")
    assert not problems, "\n".join(problems)


def _catalogue(game_id: str) -> str:
    spec = get_spec(game_id)
    text = spec.path(spec.docs).read_text(encoding="utf-8")
    start = text.index("## Rules catalogue")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


@pytest.mark.parametrize("game_id", GAMES)
def test_every_rule_is_in_the_docs_catalogue(game_id: str) -> None:
    game = get_game(game_id)
    rows = {m.group(1): m.group(0) for m in re.finditer(r"^\| `([A-Z0-9-]+)` \|.*$", _catalogue(game_id), re.M)}
    missing = [rule_id for rule_id in game.rules if rule_id not in rows]
    assert not missing, f"{game_id}'s GAME.md: the rules catalogue lacks {missing}"
    stray = [rule_id for rule_id in rows if rule_id not in game.rules and rule_id != GAME_OVER.id]
    assert not stray, f"{game_id}'s GAME.md: the rules catalogue lists {stray}, which {game_id} does not have"
