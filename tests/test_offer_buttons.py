"""Issue 22 (MEDIUM 5): a one-tap button is never a move the engine refuses unless it says so, and its
label is words, never data.

Every registered game is played out; at its states each player's page is walked as the hidden-card
contract walks it (no draft, each verb step by step, each with "show every value", each hand card
tapped), and so is the referee's console for the table's own moves.
"""

from __future__ import annotations

import re

import pytest

from companion.entry.builder import Builder, Draft
from companion.games import game_ids, get_game, get_spec
from tests.contract.hidden import hand_cards, walk

UNCHECKED = " (the engine checks it when sent)"
DATA = re.compile(r"[{}\[\]'\"]|None|null|·\s*(·|$)")  # data, or a part with nothing in it
STATES = 25


@pytest.mark.parametrize("game_id", game_ids())
def test_one_tap_buttons_are_legal_or_say_so_in_words(game_id: str) -> None:
    spec, game = get_spec(game_id), get_game(game_id)
    header, moves = spec.playout(3, STATES, 0)
    state = game.new_state(header)
    buttons = 0
    for move in moves:
        for player in header.players:
            builder = Builder(game, state, header.players, player)
            for walked in walk(builder, player, hand_cards(spec, state, player)):
                for quick in walked.offer["quick"]:
                    buttons += 1
                    label = quick["label"]
                    assert not DATA.search(label), f"{game_id}: {label!r} shows data"
                    if not label.endswith(UNCHECKED):
                        # as far as the player may know (Escape Master's Draw! call turns on the
                        # other hands: judge_seen; the engine decides when it is sent)
                        verdict = game.judge_seen(state, game.codec.from_json(quick["move"]), player)
                        assert verdict.ok, f"{game_id}: the button {label!r} is refused: {verdict.why}"
        referee = Builder(game, state, header.players, None).offer(Draft(None)).to_json()
        for quick in referee["quick"]:
            assert game.judge(state, game.codec.from_json(quick["move"])).ok and not DATA.search(quick["label"])
        _, state = game.play(state, move)
    assert buttons


def test_an_everest_plan_of_one_coin_too_few_is_no_button_and_is_marked_refused() -> None:
    spec, game = get_spec("everest"), get_game("everest")
    header, _ = spec.playout(0, 1, 0)
    state = game.new_state(header)
    red = header.players[0]
    coin = {"coin": "ace", "face": "value", "dir": "N"}
    builder = Builder(game, state, header.players, red)
    one = builder.offer(Draft(red, "plan", {"coins": [coin]})).to_json()
    assert one["quick"] == [] and one["move"] is None
    sent = builder.offer(Draft(red, "plan", {"coins": [coin]}, frozenset({"coins"}))).to_json()
    assert sent["move"] is not None and sent["legal"] is False
    assert not game.judge(state, game.codec.from_json(sent["move"])).ok


def test_an_everest_set_aside_of_no_coin_reads_none() -> None:
    spec, game = get_spec("everest"), get_game("everest")
    header, _ = spec.playout(0, 1, 0)
    red = header.players[0]
    builder = Builder(game, game.new_state(header), header.players, red)
    assert builder.describe({"do": "set_aside", "by": red, "coins": []}) == "set aside · none"


def test_an_everest_plan_short_of_its_coins_offers_no_legal_done() -> None:
    """A plan's coins are never judged value by value; "Done" on a plan that is too short is not marked
    as a way on (it was, for a player holding three coins), a whole plan's is."""
    spec, game = get_spec("everest"), get_game("everest")
    header, _ = spec.playout(0, 1, 0)
    red = header.players[0]
    builder = Builder(game, game.new_state(header), header.players, red)
    coins = [{"coin": c, "face": "value", "dir": "N"} for c in ("ace", "2", "3")]
    for n in range(3):
        step = builder.offer(Draft(red, "plan", {"coins": coins[:n]})).to_json()["next"]
        assert step["can_finish"] and not step["finish_legal"], (n, step["finish_legal"])
    assert builder.offer(Draft(red, "plan", {"coins": coins})).to_json()["legal"]
