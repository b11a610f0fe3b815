"""Issue 22 (MEDIUM 6): no dead ends in the builder: a step offers the way on without "show every value"."""

from __future__ import annotations

from typing import Any

from companion.entry.builder import Builder, Draft
from companion.games import get_game, get_spec
from companion.games.everest.moves import COINS
from companion.games.everest.rounds import coins_to_set_aside

EVEREST = get_game("everest")


def _everest_round_end() -> tuple[Any, tuple[str, ...]]:
    """Seed 0's playout at an end of round where two yetis are hurt (red two coins, green one)."""
    header, moves = get_spec("everest").playout(0, 400, 0)
    state = EVEREST.new_state(header)
    for move in moves[:246]:
        _, state = EVEREST.play(state, move)
    assert moves[246].verb == "end_round"
    return state, header.players


def test_a_hurt_yeti_is_offered_its_own_coins_to_set_aside() -> None:
    state, players = _everest_round_end()
    hurt = 0
    for seat, player in enumerate(players):
        due = coins_to_set_aside(state, seat, False)
        builder = Builder(EVEREST, state, players, player)
        answer = builder.offer(Draft(player, "set_aside")).to_json()
        step = answer["next"]
        own = [c for c in COINS if c not in state.aside_known[seat]]
        if not due:
            # Setting nothing aside is the only way on: taken for the player, the move is made.
            assert step is None and answer["legal"] is True, f"{player} sets nothing aside"
            assert answer["move"] == {"by": player, "do": "set_aside", "coins": []}
            assert EVEREST.judge(state, EVEREST.codec.from_json(answer["move"])).ok
            continue
        hurt += 1
        assert [c["value"] for c in step["choices"] if c["legal"]] == own, "the coins are offered, not only under every value"
        named = own[:due]
        done = builder.offer(Draft(player, "set_aside", {"coins": named}, frozenset({"coins"}))).to_json()
        assert done["move"] == {"by": player, "do": "set_aside", "coins": named} and done["legal"] is True
        assert EVEREST.judge(state, EVEREST.codec.from_json(done["move"])).ok
    assert hurt == 2

