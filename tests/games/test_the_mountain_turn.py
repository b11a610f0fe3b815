"""The turn (TM-ORDER, TM-HAND, draws, sets, the skip), the attack, the end and the score."""

from __future__ import annotations

from typing import Any

from companion.core import Termination
from companion.games.the_mountain import GAME
from companion.games.the_mountain.moves import Act, Discard, Draw, EndTurn, Skip
from companion.games.the_mountain.state import MountainState, Phase
from tests.games import mountain_support as support
from tests.games.mountain_support import played, refused, start, with_mountain

HAND = ("5C", "6C", "AD", "6D", "AH")


def ready(hand: tuple[str, ...] = HAND, **options: Any) -> MountainState:
    return support.ready(hand, **options)


def second_turn() -> MountainState:
    """Turn 2 begins with a full hand: turn 1 was a skip."""
    state = played(ready(), Skip(target="6-4"))
    return played(state, EndTurn())


# -- who and when -----------------------------------------------------------------------------------


def test_only_the_player_plays() -> None:
    state = start()
    assert played(state, Draw(by="solo", card="5C", from_="stock")).hand == ("5C",)
    refused(state, Draw(by="bob", card="5C", from_="stock"), "TM-SOLO")


def test_discard_comes_at_the_start_of_the_turn() -> None:
    state = second_turn()
    assert state.phase is Phase.DISCARD and len(state.hand) == 5
    after = played(state, Discard(cards=("5C", "AH")))
    assert after.hand == ("6C", "AD", "6D") and after.discard[-2:] == ("5C", "AH")
    after = played(after, Discard(cards=("6C",)))  # more than one discard before drawing is fine
    drawn = played(after, Draw(card="7H", from_="stock"))
    assert "already drawn" in refused(drawn, Discard(cards=("AD",)), "TM-ORDER").why
    acted = played(ready(), Skip(target="6-1"))
    refused(acted, Discard(cards=("5C",)), "TM-ORDER")


def test_draws_come_before_the_actions() -> None:
    acted = played(ready(), Skip(target="6-1"))
    refused(acted, Draw(card="7H", from_="stock"), "TM-ORDER")


def test_cards_come_from_the_hand() -> None:
    state = second_turn()
    assert "it is not face up on the table" in refused(state, Discard(cards=("7H",)), "TM-HAND").why
    assert "on the mountain at 6-1" in refused(state, Discard(cards=("AS",)), "TM-HAND").why
    refused(ready(), Act(cards=("5C", "7C"), targets=("6-1", "6-2", "5-1")), "TM-HAND")


# -- drawing ----------------------------------------------------------------------------------------


def test_draw_to_five_and_no_more() -> None:
    state = ready(HAND[:4])
    state = played(state, Draw(card=HAND[4], from_="stock"))
    assert len(state.hand) == 5 and state.phase is Phase.DRAW
    assert "full (5 cards)" in refused(state, Draw(card="7H", from_="stock"), "TM-DRAW-LIMIT").why


def test_nightmare_hand_of_four() -> None:
    state = ready(HAND[:4], nightmare=True)
    verdict = refused(state, Draw(card=HAND[4], from_="stock"), "TM-DRAW-LIMIT")
    assert "TM-NIGHTMARE" in verdict.rules
    after = played(state, Act(cards=("AD", "6D"), targets=("6-1", "6-2")))  # four cards is a full hand
    assert after.hand == ("5C", "6C")
    refused(ready(HAND[:3], nightmare=True), Skip(target="6-1"), "TM-DRAW-FIRST")


def test_act_only_with_a_full_hand_unless_the_stock_is_empty() -> None:
    short = ready(HAND[:4])
    why = refused(short, Act(cards=("AD", "6D"), targets=("6-1", "6-2")), "TM-DRAW-FIRST").why
    assert "1 more" in why
    refused(short, Skip(target="6-1"), "TM-DRAW-FIRST")
    no_stock = short.evolve(stock=frozenset())
    assert played(no_stock, Act(cards=("AD", "6D"), targets=("6-1", "6-2"))).removed == 2
    assert played(no_stock.evolve(hand=()), Skip(target="6-1")).removed == 1


def test_draw_from_the_stock_names_a_card_that_can_be_there() -> None:
    state = start()
    assert played(state, Draw(card="10S", from_="stock")).stock == state.stock - {"10S"}
    assert "on the mountain at 6-1" in refused(state, Draw(card="AS", from_="stock"), "TM-STOCK").why
    assert "health pile" in refused(state, Draw(card="2H", from_="stock"), "TM-STOCK").why
    assert "empty" in refused(state.evolve(stock=frozenset()), Draw(card="10S", from_="stock"), "TM-STOCK").why


def test_draw_from_the_health_pile_takes_its_top() -> None:
    state = start()
    after = played(state, Draw(card="2H", from_="health"))
    assert after.hand == ("2H",) and after.health == state.health[1:]
    assert "top of the health pile is the 2H" in refused(state, Draw(card="3S", from_="health"), "TM-HEALTH-DRAW").why
    anywhere = start(health_draw="any")
    assert played(anywhere, Draw(card="3S", from_="health")).health == tuple(c for c in state.health if c != "3S")
    refused(anywhere, Draw(card="10S", from_="health"), "TM-HEALTH-DRAW")
    refused(state.evolve(health=()), Draw(card="2H", from_="health"), "TM-HEALTH-DRAW")


# -- sets -------------------------------------------------------------------------------------------


def test_a_set_is_two_or_three_of_one_suit() -> None:
    state = ready(("5C", "6C", "8C", "9C", "AD"))
    assert played(state, Act(cards=("5C", "6C", "8C"), targets=("6-1", "6-2", "5-1", "6-4", "6-5", "5-4"))).removed == 6
    refused(state, Act(cards=("5C", "6C", "8C", "9C"), targets=("6-1",)), "TM-SET")
    refused(state, Act(cards=("5C",), targets=("6-1",)), "TM-SET")
    assert "share a suit" in refused(state, Act(cards=("5C", "AD"), targets=("6-1", "6-2")), "TM-SET").why


def test_two_sets_of_different_suits_both_act() -> None:
    state = ready(("5C", "6C", "AD", "6D", "7D"))
    state = played(state, Act(cards=("5C", "6C"), targets=("6-1", "6-2", "5-1")))
    after = played(state, Act(cards=("AD", "6D", "7D"), targets=("6-3", "5-2", "6-4", "6-5")))
    assert after.acted == ("C", "D") and after.removed == 7
    refused(after, Act(cards=("AD", "6D"), targets=("6-6", "5-3")), "TM-HAND")


def test_a_second_set_of_the_same_suit_is_refused() -> None:
    state = ready(("5C", "6C", "8C", "9C", "AD"))
    state = played(state, Act(cards=("5C", "6C"), targets=("6-1", "6-2", "5-1")))
    assert "another suit" in refused(state, Act(cards=("8C", "9C"), targets=("6-3", "6-4", "6-5")), "TM-TWO-SETS").why


def test_no_set_means_the_skip() -> None:
    state = ready()
    after = played(state, Skip(target="6-6"))
    assert after.skipped and after.removed == 1 and after.discard == ("9D",)
    refused(after, Skip(target="6-5"), "TM-SKIP")
    assert "replaces the actions" in refused(after, Act(cards=("AD", "6D"), targets=("6-1", "6-2")), "TM-SKIP").why
    acted = played(state, Act(cards=("AD", "6D"), targets=("6-1", "6-2")))
    assert "without one" in refused(acted, Skip(target="6-6"), "TM-SKIP").why


def test_the_turn_ends_only_after_an_action_or_the_skip() -> None:
    refused(start(), EndTurn(), "TM-SKIP")
    refused(ready(), EndTurn(), "TM-SKIP")
    after = played(played(ready(), Skip(target="6-6")), EndTurn())
    assert after.turn == 2 and after.phase is Phase.DISCARD and after.acted == () and not after.skipped


# -- the attack, losing, winning, the score -----------------------------------------------------------


def test_exposed_and_half_exposed_threats_attack() -> None:
    state = played(ready(), Act(cards=("AD", "6D"), targets=("6-1", "6-2")))
    # KS at 5-1 is exposed, QC at 5-2 half exposed (the 6H at 6-3 still lies on it): 2 damage.
    assert GAME.scoreboard(state)["attack"] == 2
    after = played(state, EndTurn())
    assert after.health == state.health[2:] and after.discard[-2:] == ("2H", "3H") and after.last_damage == 2
    bottom = played(played(ready(damage_from="bottom"), Act(cards=("AD", "6D"), targets=("6-1", "6-2"))), EndTurn())
    assert bottom.health == state.health[:-2]


def test_covered_threats_do_not_attack() -> None:
    state = played(ready(), Skip(target="6-6"))
    assert played(state, EndTurn()).health == state.health


def test_losing_on_an_attack_that_finds_no_health() -> None:
    state = played(ready(), Act(cards=("AD", "6D"), targets=("6-1", "6-2"))).evolve(health=("2H",))
    after = played(state, EndTurn())
    assert after.result == "lost" and after.health == ()
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.winners == () and outcome.to_json() == {"won": False, "score": 0}
    assert outcome.termination is Termination.OVERRUN
    assert GAME.judge(after, Discard(cards=("5C",))).rules == ("GAME-OVER",)


def test_reaching_zero_health_exactly_is_survival() -> None:
    state = played(ready(), Act(cards=("AD", "6D"), targets=("6-1", "6-2"))).evolve(health=("2H", "3H"))
    after = played(state, EndTurn())
    assert after.result is None and after.health == () and GAME.outcome(after) is None
    strict = played(ready(zero_health_survives=False), Act(cards=("AD", "6D"), targets=("6-1", "6-2")))
    assert played(strict.evolve(health=("2H", "3H")), EndTurn()).result == "lost"


def test_winning_when_the_twelfth_threat_falls() -> None:
    state = with_mountain(ready(), {"6-1": "KC", "5-1": "2S"})
    after = played(state, Skip(target="6-1"))
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.winners == ("solo",) and outcome.termination is Termination.GOAL
    assert outcome.to_json() == {"won": True, "score": 15 + 10}
    assert GAME.judge(after, EndTurn()).rules == ("GAME-OVER",)
    # with a threat left the game goes on
    assert GAME.outcome(played(with_mountain(ready(), {"6-1": "KC", "6-2": "QC"}), Skip(target="6-1"))) is None


def test_score_survival_and_defeat() -> None:
    won = played(with_mountain(ready(), {"6-1": "KC"}).evolve(health=("2H", "3H", "4H")), Skip(target="6-1"))
    assert GAME.scoreboard(won)["score"] == 18
    lost = played(ready(), Act(cards=("AD", "6D"), targets=("6-1", "6-2")))
    lost = played(lost.evolve(health=()), EndTurn())
    assert lost.result == "lost" and GAME.outcome(lost).to_json() == {"won": False, "score": 0}  # type: ignore[union-attr]
    defeated = with_mountain(ready(), {"6-1": "KC", "6-2": "QC", "5-1": "KS"}).evolve(health=())
    defeated = played(played(defeated, Skip(target="6-1")), EndTurn())
    assert GAME.outcome(defeated).to_json() == {"won": False, "score": 10}  # type: ignore[union-attr]


def test_nightmare_adds_five() -> None:
    won = played(with_mountain(ready(HAND[:4], nightmare=True), {"6-1": "KC"}), Skip(target="6-1"))
    assert GAME.outcome(won).to_json() == {"won": True, "score": 15 + 10 + 5}  # type: ignore[union-attr]
    lost = with_mountain(ready(HAND[:4], nightmare=True), {"6-1": "KC", "6-2": "QC", "5-1": "KS"}).evolve(health=())
    lost = played(played(lost, Skip(target="6-1")), EndTurn())
    assert GAME.outcome(lost).to_json() == {"won": False, "score": 10 + 5}  # type: ignore[union-attr]
