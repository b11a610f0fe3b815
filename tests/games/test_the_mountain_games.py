"""Whole games: the notation files under data/the-mountain (the acceptance test), random playouts,
and a walk over the RuleBook that every rule id is exercised by a test."""

from __future__ import annotations

import json
import pathlib
import re

import pytest

from companion.games import get_game
from companion.games.the_mountain import GAME
from companion.games.the_mountain.playout import random_playout
from companion.log.notation import read_notation
from companion.games import get_spec

DATA = get_spec("the-mountain").path("acceptance")
TESTS = pathlib.Path(__file__).parent


def replay_lines(path: pathlib.Path) -> list[str]:
    """What ``companion replay FILE`` prints (NOTATION.md), one JSON object per line."""
    with path.open(encoding="utf-8") as handle:
        notation = read_notation(handle)
    game = get_game(notation.header.game)
    state = game.new_state(notation.header)
    out: list[dict[str, object]] = []
    for n, (_, move) in enumerate(notation.moves, start=1):
        verdict, state = game.play(state, move)
        if verdict.ok:
            out.append({"n": n, "ok": True})
        else:
            out.append({"n": n, "ok": False, "rules": list(verdict.rules), "why": verdict.why})
    outcome = game.outcome(state)
    out.append({"scoreboard": game.scoreboard(state), "outcome": outcome.to_json() if outcome else None})
    return [json.dumps(obj, sort_keys=True) for obj in out]


GAMES = sorted(DATA.glob("*.jsonl"))


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_notation_file_replays_as_expected(path: pathlib.Path) -> None:
    expected = path.with_suffix(".expected").read_text(encoding="utf-8").splitlines()
    assert replay_lines(path) == expected


def test_example_win_key_lines() -> None:
    lines = [json.loads(line) for line in replay_lines(DATA / "example-win.jsonl")]
    refused = {line["n"]: line["rules"] for line in lines if line.get("ok") is False}
    assert refused == {
        1: ["TM-HEALTH-DRAW"],
        7: ["TM-DRAW-LIMIT"],
        8: ["TM-SPADES"],
        13: ["TM-ORDER"],
        14: ["TM-STOCK"],
        19: ["TM-SEQUENTIAL"],
        27: ["TM-SKIP"],
        29: ["TM-HEARTS"],
        36: ["TM-DRAW-FIRST"],
        40: ["GAME-OVER"],
    }
    last = lines[-1]
    assert last["outcome"] == {"won": True, "score": 18}  # survival 15 + 3 health left
    board = last["scoreboard"]
    assert (board["health"], board["threats_left"], board["removed"], board["score"], board["hand_size"]) == (3, 0, 21, 18, 1)
    assert board["health_pile"] == ["4S", "AH", "7H"]  # the two hearts healed from the hand, at the bottom


def test_nightmare_loss_key_lines() -> None:
    lines = [json.loads(line) for line in replay_lines(DATA / "nightmare-loss.jsonl")]
    refused = {line["n"]: line["rules"] for line in lines if line.get("ok") is False}
    assert refused == {
        5: ["TM-DRAW-LIMIT", "TM-NIGHTMARE"],
        6: ["TM-SOLO"],
        10: ["TM-HEALTH-DRAW"],
        20: ["TM-DRAW-LIMIT", "TM-NIGHTMARE"],
        21: ["TM-SET"],
    }
    last = lines[-1]
    assert last["outcome"] == {"won": False, "score": 16}  # 11 threats defeated + 5 for Nightmare
    assert last["scoreboard"]["threats_left"] == 1 and last["scoreboard"]["health"] == 0


@pytest.mark.parametrize(
    "options",
    [{}, {"nightmare": True}, {"geometry": "peak_on_top"}, {"chain_link": "any_earlier", "neighbours": "row_only"},
     {"spades_cascade": False, "health_draw": "any", "damage_from": "bottom"},
     {"zero_health_survives": False, "short_actions": False}],
    ids=lambda o: ",".join(o) or "defaults",
)
def test_random_playouts_replay_legal(options: dict[str, object]) -> None:
    outcomes = set()
    for seed in range(12):
        header, moves = random_playout(seed, illegal_every=6, options=options)
        state = GAME.new_state(header)
        illegal = 0
        for number, move in enumerate(moves, start=1):
            assert GAME.codec.from_json(GAME.codec.to_json(move)) == move
            verdict, state = GAME.play(state, move)
            if number % 6 == 0:
                illegal += not verdict.ok
            else:
                assert verdict.ok, (seed, number, move, verdict)
        outcome = GAME.outcome(state)
        assert outcome is not None, "a game of The Mountain always ends: every turn removes a card"
        assert illegal >= 1
        outcomes.add(outcome.to_json()["won"])
    assert False in outcomes


def test_a_won_random_game_exists() -> None:
    # seeds found by running the simulator; a regression here means the engine changed.
    header, moves = random_playout(79)
    state = GAME.new_state(header)
    for move in moves:
        state = GAME.play(state, move)[1]
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.to_json()["won"] is True
    assert outcome.to_json()["score"] == 15 + len(state.health)


# Each rule id: (a test where the rule lets a move through, a test where it refuses one or ends the game).
CASES = {
    "TM-SOLO": ("test_only_the_player_plays", "test_only_the_player_plays"),
    "TM-ORDER": ("test_discard_comes_at_the_start_of_the_turn", "test_draws_come_before_the_actions"),
    "TM-HAND": ("test_discard_comes_at_the_start_of_the_turn", "test_cards_come_from_the_hand"),
    "TM-DRAW-LIMIT": ("test_draw_to_five_and_no_more", "test_draw_to_five_and_no_more"),
    "TM-DRAW-FIRST": ("test_act_only_with_a_full_hand_unless_the_stock_is_empty", "test_act_only_with_a_full_hand_unless_the_stock_is_empty"),
    "TM-STOCK": ("test_draw_from_the_stock_names_a_card_that_can_be_there", "test_draw_from_the_stock_names_a_card_that_can_be_there"),
    "TM-HEALTH-DRAW": ("test_draw_from_the_health_pile_takes_its_top", "test_draw_from_the_health_pile_takes_its_top"),
    "TM-SET": ("test_a_set_is_two_or_three_of_one_suit", "test_a_set_is_two_or_three_of_one_suit"),
    "TM-TWO-SETS": ("test_two_sets_of_different_suits_both_act", "test_a_second_set_of_the_same_suit_is_refused"),
    "TM-SKIP": ("test_no_set_means_the_skip", "test_the_turn_ends_only_after_an_action_or_the_skip"),
    "TM-LAYOUT": ("test_pyramid_geometry_exposed_and_half_exposed", "test_peak_on_top_geometry_option"),
    "TM-EXPOSED": ("test_exposed_card_can_be_removed_and_covered_one_cannot", "test_half_exposed_card_cannot_be_removed"),
    "TM-SEQUENTIAL": ("test_newly_exposed_cards_count_when_removed_in_order", "test_a_card_listed_before_the_cards_covering_it_is_refused"),
    "TM-CLUBS": ("test_clubs_chain_of_three_neighbours", "test_clubs_chain_must_link_neighbours"),
    "TM-SPADES": ("test_spades_suit_removal_cascades_to_newly_exposed_cards", "test_spades_rank_choice_must_match_an_exposed_card"),
    "TM-DIAMONDS": ("test_diamonds_remove_any_two_exposed", "test_diamonds_remove_exactly_two"),
    "TM-HEARTS": ("test_hearts_heal_to_the_bottom_of_the_health_pile", "test_hearts_take_no_threats"),
    "TM-ATTACK": ("test_exposed_and_half_exposed_threats_attack", "test_covered_threats_do_not_attack"),
    "TM-LOSE": ("test_reaching_zero_health_exactly_is_survival", "test_losing_on_an_attack_that_finds_no_health"),
    "TM-WIN": ("test_winning_when_the_twelfth_threat_falls", "test_winning_when_the_twelfth_threat_falls"),
    "TM-SCORE": ("test_score_survival_and_defeat", "test_score_survival_and_defeat"),
    "TM-NIGHTMARE": ("test_nightmare_hand_of_four", "test_nightmare_adds_five"),
}


def test_every_rule_has_a_legal_and_an_illegal_case() -> None:
    text = "\n".join(p.read_text(encoding="utf-8") for p in TESTS.glob("test_the_mountain*.py"))
    assert set(CASES) == set(GAME.rules), "every rule id needs its pair of tests here"
    for rule_id, names in CASES.items():
        for name in names:
            assert f"def {name}(" in text, f"{rule_id}: no test {name}"
        rule = GAME.rules[rule_id]
        assert rule.passage and rule.source in ("the-mountain.md", "GAPS.md")
    # every rule that refuses moves is asserted by name somewhere (refused(..., "TM-X") or an expected file)
    text += "\n".join(p.read_text(encoding="utf-8") for p in DATA.glob("*.expected"))
    outcome_rules = {"TM-LAYOUT", "TM-ATTACK", "TM-LOSE", "TM-WIN", "TM-SCORE"}
    for rule_id in set(GAME.rules) - outcome_rules:
        assert f'"{rule_id}"' in text, f"{rule_id} is never asserted by a test"


def _words(path: pathlib.Path) -> str:
    # bullets and line breaks are layout, not words
    return re.sub(r"\s+", " ", re.sub(r"(?m)^\s*-\s+", " ", path.read_text(encoding="utf-8")))


def _pieces(text: str) -> list[str]:
    return [piece.strip() for piece in text.split("...") if piece.strip()]


def test_rule_passages_are_quoted_from_the_rulebook() -> None:
    rules_dir = pathlib.Path("/work/shared/rules")
    if not rules_dir.exists():
        pytest.skip("the shared rulebooks are not on this machine")
    book, gaps = _words(rules_dir / "the-mountain.md"), _words(rules_dir / "GAPS.md")
    for rule in GAME.rules.values():
        aside = re.search(r"\(GAPS\.md: (.*)\)$", rule.passage)
        quoted = re.sub(r"\((GAPS|NOTATION)\.md:.*\)$", "", rule.passage).strip()
        source = book if rule.source == "the-mountain.md" else gaps
        for piece in _pieces(quoted):
            assert piece in source, f"{rule.id}: {piece!r} is not in {rule.source}"
        if aside:
            for piece in _pieces(aside.group(1)):
                assert piece in gaps, f"{rule.id}: {piece!r} is not in GAPS.md"


def test_docs_list_every_rule_option_and_verb() -> None:
    doc = get_spec("the-mountain").path("GAME.md").read_text(encoding="utf-8")
    for rule_id in GAME.rules:
        assert f"`{rule_id}`" in doc
    for name in GAME.default_options():
        assert f"`{name}`" in doc
    for verb in GAME.codec.by_verb:
        assert f"`{verb}`" in doc
