"""Scoring: the poker-hand table, Control Cube points, the winner and the tie chain."""

from __future__ import annotations

from typing import Any

import pytest

from companion.core import Termination
from companion.games.horrible_mountain_2 import GAME
from companion.games.horrible_mountain_2.cards import COLOURS, DECK_SET
from companion.games.horrible_mountain_2.options import Options
from companion.games.horrible_mountain_2.scoring import best_hand
from companion.games.horrible_mountain_2.state import Phase, State, evolve
from tests.games.test_horrible_mountain_2_support import ADAM, EVE, covers, placed


def final(
    eve: str,
    adam: str,
    table: str,
    cubes: str,
    eve_cubes: str,
    adam_cubes: str,
    options: dict[str, Any] | None = None,
) -> State:
    """A finished game: hands, Table Cards, the colour on each slot, and each player's Control Cubes."""
    hands = (frozenset(eve.split()), frozenset(adam.split()))
    cards = tuple(table.split())
    control = (frozenset(eve_cubes.split()), frozenset(adam_cubes.split()))
    used = set(cards) | hands[0] | hands[1]
    assert len(used) == len(cards) + len(hands[0]) + len(hands[1])
    return evolve(
        placed(options),
        hands=hands,
        table=cards,
        slot_cubes=tuple(cubes.split()),
        control=control,
        cube_pile=frozenset(COLOURS) - control[0] - control[1],
        draw_pile=DECK_SET - used,
        discard=(),
        phase=Phase.OVER,
        exhausted=3,
    )


@covers("HM2-SCORE-HAND", "legal")
@covers("HM2-GAP-HAND", "legal")
@pytest.mark.parametrize(
    "cards, name, points",
    [
        ("2H 3H 4H 5H 6H", "straight flush", 14),
        ("4H 4S 4D 4C 2H", "four of a kind", 10),
        ("3S 3H 5S 5H 5D", "full house", 8),
        ("2H 3S 4H 5H 6H", "straight", 6),
        ("5S 5H 5D 2H 3H", "three of a kind", 5),
        ("2H 2S 3H 3S 6D", "two pair", 4),
        ("2H 2S 3H 4H 6D", "one pair", 2),
        ("2H 3H 4H 6D", "none of the above", -1),
        # Fewer than five cards still score their best combination (GAPS.md).
        ("4H 4S 4D 4C", "four of a kind", 10),
        ("6H 6S 6D", "three of a kind", 5),
        ("6H 6S", "one pair", 2),
        ("", "none of the above", -1),
        # Six cards (mid-turn): the best five.
        ("2H 3H 4H 5H 6H 2S", "straight flush", 14),
        ("2H 2S 2D 3H 3S 6D", "full house", 8),
    ],
)
def test_the_poker_hand_table(cards: str, name: str, points: int) -> None:
    value = best_hand(cards.split(), Options())
    assert (value.name, value.points) == (name, points)


@covers("HM2-SCORE-HAND", "illegal")
@covers("HM2-GAP-HAND", "illegal")
def test_no_flush_without_a_straight_and_the_short_hand_option() -> None:
    # Four cards of one suit are no flush; a short hand is scored as it stands, or (option) as nothing.
    assert best_hand(["2H", "3H", "4H", "6H"], Options()).points == -1
    assert best_hand(["4H", "4S", "4D", "4C"], Options(short_hand="none")).points == -1
    assert best_hand(["2H", "3H", "4H", "5H", "6H"], Options(short_hand="none")).points == 14


def example() -> State:
    """The rulebook's scoring example: Eve (Evil Master) 3 3 5 5 5 and orange on a 3; Adam 2-6
    off-suit, red on a 2 and blue on a 6."""
    return final(
        eve="3S 3H 5S 5H 5D",
        adam="2C 3D 4C 5C 6D",
        table="2S 3C 4S 6S 4D",
        cubes="red orange yellow blue green",
        eve_cubes="orange",
        adam_cubes="red blue",
    )


@covers("HM2-SCORE-CUBES", "legal")
@covers("HM2-WINNER", "legal")
@covers("HM2-WINNER", "illegal")
def test_the_rulebooks_scoring_example_11_to_14() -> None:
    state = example()
    board = GAME.scoreboard(state)
    assert board["scores"][EVE] == {
        "total": 11, "hand": 8, "hand_name": "full house", "cubes": 3, "control_cubes": ["orange"], "hand_size": 5
    }
    assert board["scores"][ADAM]["total"] == 14 and board["scores"][ADAM]["cubes"] == 8
    assert board["scores"][ADAM]["hand_name"] == "straight"
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (ADAM,)
    assert outcome.to_json() == {"winner": ADAM, "reason": "most points"}


@covers("HM2-SCORE-CUBES", "illegal")
def test_a_cube_scores_the_rank_under_its_twin_not_under_itself() -> None:
    # The same example after the cubes on the 3 (orange) and the 4 (green) are swapped.
    state = evolve(example(), slot_cubes=("red", "green", "yellow", "blue", "orange"))
    assert GAME.scoreboard(state)["scores"][EVE]["cubes"] == 4
    nothing = evolve(example(), control=(frozenset(), frozenset({"red", "blue"})))
    assert GAME.scoreboard(nothing)["scores"][EVE]["cubes"] == 0


@covers("HM2-TIE", "legal")
def test_a_tie_on_points_goes_to_the_better_poker_hand() -> None:
    # Eve: full house (8) + orange on the 4 = 12; Adam: straight (6) + red on the 2 + blue on a 4 = 12.
    state = final(
        "3S 3H 5S 5H 5D", "2C 3D 4C 5C 6D", "2S 3C 4S 6S 4D", "red yellow orange green blue", "orange", "red blue"
    )
    board = GAME.scoreboard(state)["scores"]
    assert board[EVE]["total"] == board[ADAM]["total"] == 12
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.to_json() == {"winner": EVE, "reason": "tied on points; best poker hand"}


def test_same_kind_of_hand_compared_by_poker_ranks_or_not_by_option() -> None:
    # Both full houses (8), both with one cube on a 3: 11 all. 6s over 2s beats 5s over 3s in poker.
    state = final(
        "5S 5H 5D 3S 3H", "6S 6H 6D 2S 2H", "2C 3C 4S 3D 6C", "red orange yellow green blue", "orange", "green"
    )
    scores = GAME.scoreboard(state)["scores"]
    assert scores[EVE]["total"] == scores[ADAM]["total"] == 11
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.to_json() == {"winner": ADAM, "reason": "tied on points; best poker hand"}
    # With hand_tiebreak "points" two full houses are equal; one Control Cube each: everybody loses.
    outcome = GAME.outcome(evolve(state, options=Options(hand_tiebreak="points")))
    assert outcome is not None and outcome.winners == ()


def test_a_further_tie_goes_to_the_most_control_cubes() -> None:
    # Two straights (6 each); Eve one cube on a 6, Adam two cubes on a 2 and a 4: 12 all.
    state = final("2S 3S 4S 5S 6H", "2H 3H 4H 5H 6S", "2C 3C 4C 5C 6C", "red orange yellow green blue", "blue", "red yellow")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.to_json() == {
        "winner": ADAM,
        "reason": "tied on points and poker hand; most Control Cubes",
    }


@covers("HM2-TIE", "illegal")
def test_a_still_further_tie_and_everybody_loses() -> None:
    # Two straights, one cube each on a 6: 12 all, same hand, same number of cubes.
    state = final("2S 3S 4S 5S 6H", "2H 3H 4H 5H 6S", "2C 3C 4C 6D 6C", "red orange yellow green blue", "blue", "green")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == () and outcome.termination is Termination.DRAW_PILE_SPENT
    assert outcome.to_json() == {"winner": None, "reason": "tied on points, poker hand and Control Cubes: everybody loses"}
