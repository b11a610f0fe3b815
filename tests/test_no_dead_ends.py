"""Issue 22 (MEDIUM 6): no dead ends in the builder: a step offers the way on without "show every value"."""

from __future__ import annotations

from typing import Any

from companion.entry.builder import Builder, Draft
from companion.games import get_game, get_spec
from companion.games.everest.moves import COINS
from companion.games.everest.rounds import coins_to_set_aside
from companion.log.notation import read_notation

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



def test_a_none_that_makes_a_legal_move_the_candidates_leave_out_is_marked_as_the_way_on() -> None:
    """A roll without its purpose (as files from before the field write it) is legal, though Everest's
    candidates always name the purpose: at the roarer step nothing the game proposes agrees, and
    "None", which the engine takes, is marked as the way on (issue 22), not left greyed beside "No
    value here makes a legal move"."""
    path = next(p for p in get_spec("everest").acceptance_files() if p.stem == "three-way-conflict")
    with path.open(encoding="utf-8") as handle:
        record = read_notation(handle)
    state = EVEREST.new_state(record.header)
    moves = [move for _, move in record.moves]
    for move in moves[:7]:
        _, state = EVEREST.play(state, move)
    roll = moves[7]
    assert roll.verb == "roll" and EVEREST.codec.to_json(roll) == {"by": "cleo", "do": "roll", "value": "2"}
    assert EVEREST.judge(state, roll).ok
    builder = Builder(EVEREST, state, record.header.players, "cleo")
    step = builder.offer(Draft("cleo", "roll", {"value": "2", "purpose": None})).to_json()["next"]
    assert step["field"] == "roarer" and not any(c["legal"] for c in step["choices"])
    assert step["can_finish"] and step["finish_legal"]
    done = builder.offer(Draft("cleo", "roll", {"value": "2", "purpose": None, "roarer": None})).to_json()
    assert done["move"] == {"by": "cleo", "do": "roll", "value": "2"} and done["legal"] is True
