"""The suit actions, the skip and sequential removal (TM-CLUBS, TM-SPADES, TM-DIAMONDS, TM-HEARTS,
TM-EXPOSED, TM-SEQUENTIAL), on the example deal:

    row 1            KC
    row 2          QS  JS
    row 3        KH  QH  JH
    row 4      KD  QD  JD  2C
    row 5    KS  QC  JC  3C  4C
    row 6  AS  2S  6H  7C  8S  9D      (on top: all six exposed)
"""

from __future__ import annotations

from companion.games.the_mountain.cards import SLOT_OF
from companion.games.the_mountain.moves import Act, Skip
from companion.games.the_mountain.state import MountainState
from tests.games.mountain_support import played, ready, refused, with_mountain

CLUBS_HAND = ("5C", "6C", "8C", "AD", "6D")
DIAMONDS_HAND = ("AD", "6D", "7D", "5C", "6C")
HEARTS_HAND = ("AH", "7H", "8H", "5C", "AD")
SPADES_HAND = ("5S", "6S", "7S", "5C", "AD")


def empty(state: MountainState, *positions: str) -> list[bool]:
    return [state.mountain[SLOT_OF[p]] is None for p in positions]


# -- TM-EXPOSED and TM-SEQUENTIAL ------------------------------------------------------------------


def test_exposed_card_can_be_removed_and_covered_one_cannot() -> None:
    state = ready(DIAMONDS_HAND)
    after = played(state, Skip(target="6-4"))
    assert empty(after, "6-4") == [True]
    why = refused(state, Skip(target="5-1"), "TM-EXPOSED").why
    assert "covered" in why and "AS at 6-1" in why


def test_half_exposed_card_cannot_be_removed() -> None:
    state = ready(DIAMONDS_HAND)
    verdict = refused(state, Act(cards=("AD", "6D"), targets=("6-1", "5-1")), "TM-EXPOSED")
    assert "half exposed" in verdict.why


def test_a_position_named_twice_or_empty_is_refused() -> None:
    state = ready(DIAMONDS_HAND)
    assert "twice" in refused(state, Act(cards=("AD", "6D"), targets=("6-1", "6-1")), "TM-EXPOSED").why
    cleared = played(state, Skip(target="6-1"))
    cleared = cleared.evolve(skipped=False, phase=cleared.phase)
    assert "empty" in refused(cleared, Act(cards=("AD", "6D"), targets=("6-1", "6-2")), "TM-EXPOSED").why


def test_newly_exposed_cards_count_when_removed_in_order() -> None:
    # TM-SEQUENTIAL: 6-1 and 6-2 go first, which exposes the KS at 5-1 for the same action.
    state = ready(DIAMONDS_HAND)
    after = played(state, Act(cards=("AD", "6D", "7D"), targets=("6-1", "6-2", "5-1", "6-6")))
    assert empty(after, "6-1", "6-2", "5-1", "6-6") == [True] * 4
    assert after.threats_left == 11 and after.removed == 4


def test_a_card_listed_before_the_cards_covering_it_is_refused() -> None:
    state = ready(DIAMONDS_HAND)
    verdict = refused(state, Act(cards=("AD", "6D", "7D"), targets=("5-1", "6-1", "6-2", "6-6")), "TM-SEQUENTIAL")
    assert "6-1, 6-2 before 5-1" in verdict.fix


# -- TM-CLUBS ---------------------------------------------------------------------------------------


def test_clubs_chain_of_three_neighbours() -> None:
    state = ready(CLUBS_HAND)
    after = played(state, Act(cards=("5C", "6C"), targets=("6-1", "6-2", "5-1")))
    assert empty(after, "6-1", "6-2", "5-1") == [True, True, True]
    assert after.discard == ("5C", "6C", "AS", "2S", "KS")
    assert after.hand == ("8C", "AD", "6D")


def test_clubs_chain_must_link_neighbours() -> None:
    state = ready(CLUBS_HAND)
    why = refused(state, Act(cards=("5C", "6C"), targets=("6-1", "6-3", "6-4")), "TM-CLUBS").why
    assert "does not neighbour 6-1" in why


def test_clubs_chain_must_not_stop_while_it_can_go_on() -> None:
    state = ready(CLUBS_HAND)
    why = refused(state, Act(cards=("5C", "6C"), targets=("6-1", "6-2")), "TM-CLUBS").why
    assert "stops after 2" in why


def test_clubs_triple_makes_two_chains_and_no_more() -> None:
    state = ready(CLUBS_HAND)
    six = ("6-1", "6-2", "5-1", "6-4", "6-5", "5-4")
    after = played(state, Act(cards=("5C", "6C", "8C"), targets=six))
    assert after.removed == 6
    refused(state, Act(cards=("5C", "6C", "8C"), targets=six + ("6-6",)), "TM-CLUBS")
    refused(state, Act(cards=("5C", "6C", "8C"), targets=six[:3]), "TM-CLUBS")


def test_clubs_chain_stops_short_only_at_a_dead_end() -> None:
    lonely = {"6-1": "AS", "6-6": "9D", "1-1": "KC"}
    state = with_mountain(ready(CLUBS_HAND), lonely)
    after = played(state, Act(cards=("5C", "6C", "8C"), targets=("6-1", "6-6")))
    assert after.removed == 2
    strict = with_mountain(ready(CLUBS_HAND, short_actions=False), lonely)
    assert "ends after 1" in refused(strict, Act(cards=("5C", "6C"), targets=("6-1",)), "TM-CLUBS").why


def test_clubs_chain_link_option() -> None:
    # 6-3 neighbours 6-2 (removed first) but not 6-1 (removed just before it).
    move = Act(cards=("5C", "6C"), targets=("6-2", "6-1", "6-3"))
    refused(ready(CLUBS_HAND), move, "TM-CLUBS")
    assert played(ready(CLUBS_HAND, chain_link="any_earlier"), move).removed == 3


def test_clubs_neighbours_option_row_only() -> None:
    move = Act(cards=("5C", "6C"), targets=("6-1", "6-2", "5-1"))
    refused(ready(CLUBS_HAND, neighbours="row_only"), move, "TM-CLUBS")
    assert played(ready(CLUBS_HAND, neighbours="row_only"), Act(cards=("5C", "6C"), targets=("6-1", "6-2", "6-3"))).removed == 3


def test_clubs_takes_no_choose() -> None:
    refused(ready(CLUBS_HAND), Act(cards=("5C", "6C"), targets=("6-1", "6-2", "5-1"), choose="suit:S"), "TM-CLUBS")


# -- TM-DIAMONDS ------------------------------------------------------------------------------------


def test_diamonds_remove_any_two_exposed() -> None:
    after = played(ready(DIAMONDS_HAND), Act(cards=("AD", "6D"), targets=("6-3", "6-6")))
    assert empty(after, "6-3", "6-6") == [True, True]
    assert after.discard == ("AD", "6D", "6H", "9D")


def test_diamonds_remove_exactly_two() -> None:
    state = ready(DIAMONDS_HAND)
    assert "2 exposed cards; 1 named" in refused(state, Act(cards=("AD", "6D"), targets=("6-3",)), "TM-DIAMONDS").why
    refused(state, Act(cards=("AD", "6D"), targets=("6-3", "6-4", "6-5")), "TM-DIAMONDS")
    refused(state, Act(cards=("AD", "6D"), targets=("6-3", "6-4"), from_hand=("AD",)), "TM-DIAMONDS")


def test_diamonds_may_stop_when_the_last_threat_falls() -> None:
    state = with_mountain(ready(DIAMONDS_HAND), {"6-1": "KC", "6-2": "2S", "5-1": "AS"})
    after = played(state, Act(cards=("AD", "6D"), targets=("6-1",)))
    assert after.result == "won"


# -- TM-HEARTS --------------------------------------------------------------------------------------


def test_hearts_heal_to_the_bottom_of_the_health_pile() -> None:
    state = ready(HEARTS_HAND)
    after = played(state, Act(cards=("AH", "7H"), targets=("6-3", "6-6")))
    assert after.health == state.health + ("6H", "9D")
    assert after.discard == ("AH", "7H")


def test_hearts_take_no_threats() -> None:
    state = ready(HEARTS_HAND)
    why = refused(state, Act(cards=("AH", "7H", "8H"), targets=("6-1", "6-2", "5-1", "6-3")), "TM-HEARTS").why
    assert "KS at 5-1 is a threat" in why


def test_hearts_heal_from_the_hand_when_the_mountain_is_short() -> None:
    state = with_mountain(ready(HEARTS_HAND), {"6-1": "KS", "6-6": "9D", "5-5": "QC"})
    after = played(state, Act(cards=("AH", "7H"), targets=("6-6",), from_hand=("7H",)))
    assert after.health == state.health + ("9D", "7H")
    assert after.discard == ("AH",)
    # a triple with nothing to heal from the mountain heals with all three action cards
    bare = with_mountain(ready(HEARTS_HAND), {"6-1": "KS"})
    after = played(bare, Act(cards=("AH", "7H", "8H"), from_hand=("AH", "7H", "8H")))
    assert after.health[-3:] == ("AH", "7H", "8H") and after.discard == ()


def test_hearts_fallback_only_when_the_mountain_is_short() -> None:
    state = ready(HEARTS_HAND)
    why = refused(state, Act(cards=("AH", "7H"), targets=("6-3",), from_hand=("7H",)), "TM-HEARTS").why
    assert "heal with the mountain" in why
    refused(state, Act(cards=("AH", "7H"), targets=("6-3", "6-6"), from_hand=("7H",)), "TM-HEARTS")


def test_hearts_fallback_counts_and_cards() -> None:
    state = with_mountain(ready(HEARTS_HAND), {"6-1": "KS", "6-6": "9D"})
    assert "1 of the action cards" in refused(state, Act(cards=("AH", "7H"), targets=("6-6",)), "TM-HEARTS").why
    refused(state, Act(cards=("AH", "7H"), targets=("6-6",), from_hand=("AH", "7H")), "TM-HEARTS")
    refused(state, Act(cards=("AH", "7H"), targets=("6-6",), from_hand=("8H",)), "TM-HEARTS")


# -- TM-SPADES --------------------------------------------------------------------------------------


def test_spades_suit_removal_cascades_to_newly_exposed_cards() -> None:
    after = played(ready(SPADES_HAND), Act(cards=("5S", "6S"), choose="suit:S"))
    # AS, 2S and 8S are exposed; removing AS and 2S exposes the KS at 5-1, which matches too.
    assert empty(after, "6-1", "6-2", "6-5", "5-1") == [True] * 4
    assert after.removed == 4 and after.threats_left == 11


def test_spades_without_cascade_option() -> None:
    after = played(ready(SPADES_HAND, spades_cascade=False), Act(cards=("5S", "6S"), choose="suit:S"))
    assert after.removed == 3 and empty(after, "5-1") == [False]


def test_spades_listed_targets_are_checked() -> None:
    state = ready(SPADES_HAND)
    assert played(state, Act(cards=("5S", "6S"), choose="suit:S", targets=("6-1", "6-5", "6-2", "5-1"))).removed == 4
    why = refused(state, Act(cards=("5S", "6S"), choose="suit:S", targets=("6-1", "6-2", "6-5")), "TM-SPADES").why
    assert "stop short" in why and "KS at 5-1" in why
    refused(state, Act(cards=("5S", "6S"), choose="suit:S", targets=("6-3",)), "TM-SPADES")


def test_spades_rank_choice_must_match_an_exposed_card() -> None:
    state = ready(SPADES_HAND)
    assert played(state, Act(cards=("5S", "6S"), choose="rank:9")).removed == 1
    assert "no exposed card matches rank:5" in refused(state, Act(cards=("5S", "6S"), choose="rank:5"), "TM-SPADES").why


def test_spades_triple_chooses_twice() -> None:
    state = ready(SPADES_HAND)
    after = played(state, Act(cards=("5S", "6S", "7S"), choose=("suit:S", "rank:9")))
    assert after.removed == 5
    refused(state, Act(cards=("5S", "6S", "7S"), choose="suit:S"), "TM-SPADES")
    refused(state, Act(cards=("5S", "6S"), choose=("suit:S", "rank:9")), "TM-SPADES")
    refused(state, Act(cards=("5S", "6S")), "TM-SPADES")
    refused(state, Act(cards=("5S", "6S"), choose="suit:S", from_hand=("5S",)), "TM-SPADES")
