"""Cards onto the central piles: starting piles, up/down by one, wrap, Wisdom, combinations, Dead End,
who holds a card, and who was first to a pile."""

from __future__ import annotations

import pytest

from companion.core.errors import NotationError
from companion.games.escape_master import GAME
from companion.games.escape_master import rules as R
from companion.games.escape_master.state import State, replace
from tests.games.test_escape_master_support import A, B, bad, covers, hand, mv, ok, started, top

HANDS = {
    A: ["start-1", "teen-8", "robot-9", "joe-6", "teen-3", "teen-4", "teen-5", "wisdom-1", "dead-end", "trap-up-1"],
    B: ["start-2", "robot-8", "mouse-5", "ninja-K", "robot-J", "teen-J", "doom-J", "wisdom-2", "joe-1", "robot-2"],
}


def seven() -> State:
    """anna has started pile 1 (a 7) at t=1.0."""
    return ok(started(HANDS), mv(A, "play", card="start-1", pile="new", t=1.0))


@covers(R.NEW_PILE, "legal", "illegal")
def test_piles_start_with_a_start_card_or_a_wisdom() -> None:
    state = seven()
    assert top(state, 1) == "start-1"
    state = ok(state, mv(B, "play", card="wisdom-2", pile="new", t=2.0))
    assert top(state, 2) == "wisdom-2"
    state = ok(state, mv(B, "play", card="start-2", pile=5, t=3.0))  # a start card at reader 5 starts pile 5
    assert top(state, 5) == "start-2"
    verdict = bad(state, mv(A, "play", card="joe-6", pile="new", t=4.0), R.NEW_PILE)
    assert "start card or a Wisdom" in verdict.why and verdict.fix == "take the joe-6 back into your hand"
    bad(state, mv(A, "play", card="joe-6", pile=3, t=4.0), R.NEW_PILE)


@covers(R.START_CARD, "illegal", "legal")
def test_a_start_card_goes_on_a_pile_only_with_the_option() -> None:
    state = ok(seven(), mv(A, "play", card="teen-8", pile=1, t=2.0))
    bad(state, mv(B, "play", card="start-2", pile=1, t=9.0), R.START_CARD)
    loose = ok(started(HANDS, options={"start_card_on_pile": True}), mv(A, "play", card="start-1", pile="new", t=1.0),
               mv(A, "play", card="teen-8", pile=1, t=2.0))
    loose = ok(loose, mv(B, "play", card="start-2", pile=1, t=9.0))
    assert top(loose, 1) == "start-2"


@covers(R.PILE, "legal", "illegal")
def test_up_or_down_by_one_whatever_the_suit() -> None:
    state = ok(seven(), mv(B, "play", card="robot-8", pile=1, t=2.0), mv(A, "play", card="robot-9", pile=1, t=3.0),
               mv(A, "play", card="teen-8", pile=1, t=4.0))
    assert top(state, 1) == "teen-8"
    verdict = bad(state, mv(A, "play", card="joe-6", pile=1, t=5.0), R.PILE)
    assert verdict.why == "a 6 cannot go on an 8 (pile 1); play 7 or 9, or a Wisdom"
    assert verdict.fix == "take the joe-6 back into your hand"


@covers(R.PILE, "legal")
def test_k_and_1_wrap_both_ways() -> None:
    hands = {A: ["start-1", "teen-8", "teen-9", "teen-10", "robot-J", "robot-Q", "ninja-K", "joe-1", "joe-K", "joe-2"],
             B: ["start-2"]}
    state = started(hands)
    for t, card in enumerate(["start-1", "teen-8", "teen-9", "teen-10", "robot-J", "robot-Q", "ninja-K", "joe-1",
                              "joe-K"], start=1):
        state = ok(state, mv(A, "play", card=card, pile=1 if t > 1 else "new", t=float(t)))
    assert top(state, 1) == "joe-K"
    bad(state, mv(A, "play", card="joe-2", pile=1, t=20.0), R.PILE)


@covers(R.WISDOM, "legal", "illegal")
def test_wisdom_is_wild_both_ways() -> None:
    state = ok(seven(), mv(A, "play", card="wisdom-1", pile=1, t=2.0))
    assert top(state, 1) == "wisdom-1"
    state = ok(state, mv(B, "play", card="ninja-K", pile=1, t=3.0))  # anything goes on a Wisdom
    assert top(state, 1) == "ninja-K"
    state = ok(state, mv(B, "play", card="wisdom-2", pile=1, t=4.0), mv(A, "play", card="teen-3", pile=1, t=5.0))
    strict = ok(started(HANDS, options={"wisdom_on_wisdom": False}),
                mv(A, "play", card="wisdom-1", pile="new", t=1.0))
    bad(strict, mv(B, "play", card="wisdom-2", pile=1, t=9.0), R.WISDOM)
    ok(started(HANDS), mv(A, "play", card="wisdom-1", pile="new", t=1.0), mv(B, "play", card="wisdom-2", pile=1, t=9.0))


@covers(R.COMBO, "legal", "illegal")
def test_two_low_cards_of_a_suit_add_up_and_play_continues_from_the_top_card() -> None:
    state = ok(seven(), mv(A, "play", card="teen-8", pile=1, t=2.0))
    state = ok(state, mv(A, "play", cards=["teen-3", "teen-4"], pile=1, t=3.0))  # 3 + 4 = 7 on the 8
    assert top(state, 1) == "teen-4"
    ok(state, mv(A, "play", card="teen-5", pile=1, t=4.0))  # 5 goes on the 4, not on the 7
    bad(state, mv(A, "play", card="teen-8", pile=1, t=4.0), R.OWNER)  # the 8 is on the pile already
    bad(state, mv(B, "play", card="robot-8", pile=1, t=9.0), R.PILE)


@covers(R.COMBO, "illegal")
def test_a_combination_must_add_up_to_a_playable_value_and_share_a_suit() -> None:
    state = ok(seven(), mv(A, "play", card="teen-8", pile=1, t=2.0))
    verdict = bad(state, mv(A, "play", cards=["teen-3", "teen-5"], pile=1, t=3.0), R.COMBO)
    assert "add up to 8" in verdict.why
    bad(state, mv(B, "play", cards=["mouse-5", "robot-2"], pile=1, t=9.0), R.COMBO)  # 7, but two suits
    bad(state, mv(B, "play", cards=["robot-J", "ninja-K"], pile=1, t=9.0), R.COMBO)  # not the same letter


@covers(R.COMBO, "legal")
def test_two_face_cards_of_one_letter_play_as_one_card() -> None:
    hands = {A: ["start-1", "teen-8", "teen-9", "teen-10"], B: ["robot-J", "teen-J", "robot-Q"]}
    state = ok(started(hands), *(mv(A, "play", card=c, pile=1 if i else "new", t=float(i + 1))
                                 for i, c in enumerate(["start-1", "teen-8", "teen-9", "teen-10"])))
    state = ok(state, mv(B, "play", cards=["robot-J", "teen-J"], pile=1, t=9.0))
    assert top(state, 1) == "teen-J"
    ok(state, mv(B, "play", card="robot-Q", pile=1, t=10.0))


@covers(R.COMBO_DOOM, "illegal", "legal")
def test_doom_master_cards_never_combine() -> None:
    hands = {A: ["start-1", "teen-8", "teen-9", "teen-10"], B: ["robot-J", "doom-J", "doom-Q"]}
    state = ok(started(hands), *(mv(A, "play", card=c, pile=1 if i else "new", t=float(i + 1))
                                 for i, c in enumerate(["start-1", "teen-8", "teen-9", "teen-10"])))
    verdict = bad(state, mv(B, "play", cards=["doom-J", "robot-J"], pile=1, t=9.0), R.COMBO_DOOM)
    assert verdict.fix == "take both cards back into your hand"
    state = ok(state, mv(B, "play", card="doom-J", pile=1, t=9.0))  # alone it plays like a J
    ok(state, mv(B, "play", card="doom-Q", pile=1, t=10.0))


@covers(R.ONE_CARD, "legal", "illegal")
def test_one_card_at_a_time_unless_a_combination() -> None:
    state = ok(seven(), mv(A, "play", card="teen-8", pile=1, t=2.0))
    verdict = bad(state, mv(A, "play", cards=["robot-9", "joe-6"], pile=1, t=3.0), R.ONE_CARD)
    assert "one card at a time" in verdict.why
    bad(state, mv(A, "play", cards=["robot-9", "wisdom-1"], pile=1, t=3.0), R.ONE_CARD)
    ok(state, mv(A, "play", card="robot-9", pile=1, t=3.0))


def test_a_play_names_card_or_cards_not_both() -> None:
    with pytest.raises(NotationError, match="either"):
        mv(A, "play", card="teen-8", cards=["teen-3", "teen-4"], pile=1)
    with pytest.raises(NotationError, match="twice"):
        mv(A, "play", cards=["teen-3", "teen-3"], pile=1)
    with pytest.raises(NotationError, match="not an Escape Master card"):
        mv(A, "play", card="teen-14", pile=1)
    with pytest.raises(NotationError, match="pile 0"):
        mv(A, "play", card="teen-8", pile=0)


@covers(R.DEAD_END, "legal", "illegal")
def test_a_dead_end_closes_its_pile() -> None:
    state = ok(seven(), mv(A, "play", card="dead-end", pile=1, t=2.0))
    pile = GAME.scoreboard(state)["piles"][0]
    assert pile["open"] is False and pile["top"] == "dead-end"
    verdict = bad(state, mv(A, "play", card="teen-8", pile=1, t=9.0), R.DEAD_END)
    assert "closed" in verdict.why
    fresh = started(HANDS)
    bad(fresh, mv(A, "play", card="dead-end", pile="new", t=1.0), R.DEAD_END)
    state = ok(state, mv(B, "play", card="start-2", pile=1, t=10.0))  # the place is free again
    assert top(state, 1) == "start-2"


@covers(R.NOT_ON_PILE, "illegal", "legal")
def test_traps_never_go_on_a_pile() -> None:
    state = seven()
    bad(state, mv(A, "play", card="trap-up-1", pile=1, t=2.0), R.NOT_ON_PILE)
    ok(state, mv(A, "trap", card="trap-up-1", target=B, t=2.0))  # on ben's action pile instead


@covers(R.BEATEN, "illegal", "legal")
def test_beaten_to_the_pile_names_both_players_and_times() -> None:
    state = ok(seven(), mv(A, "play", card="teen-8", pile=1, t=12.3))
    verdict = bad(state, mv(B, "play", card="robot-8", pile=1, t=12.345), R.BEATEN)
    assert verdict.why == "ben's robot-8 was beaten to pile 1 by anna's teen-8, 45 ms earlier"
    assert verdict.fix == "take the robot-8 back into your hand"
    assert bad(state, mv(B, "play", card="robot-8", pile=1, t=14.0), R.PILE)  # seconds later: simply wrong
    early = bad(state, mv(B, "play", card="robot-8", pile=1, t=12.25), R.BEATEN)
    assert "stamped 50 ms before anna's teen-8" in early.why and "referee" in early.fix
    ok(state, mv(A, "play", card="robot-9", pile=1, t=12.4))  # a card that still fits is no race


@covers(R.BEATEN, "illegal")
def test_beaten_by_a_dead_end_and_to_a_free_place() -> None:
    state = ok(seven(), mv(A, "play", card="dead-end", pile=1, t=5.0))
    verdict = bad(state, mv(B, "play", card="robot-8", pile=1, t=5.2), R.BEATEN)
    assert "by anna's dead-end, 200 ms earlier" in verdict.why
    fresh = ok(started(HANDS), mv(A, "play", card="start-1", pile=3, t=1.0))
    bad(fresh, mv(B, "play", card="start-2", pile=3, t=1.1), R.BEATEN)


@covers(R.HAND, "legal", "illegal")
def test_a_play_is_attributed_to_the_hand_that_holds_the_card() -> None:
    state = ok(seven(), mv(None, "play", card="robot-8", pile=1, t=2.0))  # no "by": ben holds it
    assert "robot-8" not in hand(state, B) and top(state, 1) == "robot-8"
    verdict = bad(state, mv(None, "play", card="lumberjack-9", pile=1, t=3.0), R.HAND)
    # Where a hidden card is stays unsaid (issue 15): the draw pile reads like a hand.
    assert verdict.why == "lumberjack-9 is in nobody's hand: it is not face up on the table"


@covers(R.OWNER, "legal", "illegal")
def test_a_card_in_another_hand_is_not_yours_to_play() -> None:
    state = seven()
    verdict = bad(state, mv(A, "play", card="robot-8", pile=1, t=2.0), R.OWNER)
    assert verdict.why == "robot-8 is not in anna's hand; only your own cards can be played"  # not whose it is
    bad(state, mv(None, "play", cards=["teen-3", "mouse-5"], pile=1, t=2.0), R.OWNER)
    ok(state, mv(B, "play", card="robot-8", pile=1, t=2.0))


@covers(R.CARD, "illegal", "legal")
def test_a_well_formed_card_outside_the_deck_is_illegal() -> None:
    state = seven()
    bad(state, mv(A, "play", card="start-9", pile="new", t=2.0), R.CARD)
    ok(state, mv(A, "play", card="teen-8", pile=1, t=2.0))


def test_half_a_combination_then_its_second_card() -> None:
    state = ok(seven(), mv(A, "play", card="teen-8", pile=1, t=2.0))
    state = ok(state, mv(A, "half", card="teen-3", pile=1, t=3.0))  # the 3 alone does not fit the 8
    assert GAME.scoreboard(state)["piles"][0]["half"] == "teen-3" and top(state, 1) == "teen-8"
    bad(state, mv(A, "out"), R.OUT)
    done = ok(state, mv(A, "play", cards=["teen-3", "teen-4"], pile=1, t=3.4))
    assert top(done, 1) == "teen-4" and GAME.scoreboard(done)["piles"][0]["half"] is None
    back = ok(state, mv(A, "withdraw", card="teen-3", t=4.0))
    assert "teen-3" in hand(back, A)
    bad(back, mv(A, "withdraw", card="teen-3"), R.COMBO)


def test_half_is_only_for_a_card_that_needs_a_partner() -> None:
    state = ok(seven(), mv(A, "play", card="teen-8", pile=1, t=2.0))
    bad(state, mv(A, "half", card="robot-9", pile=1, t=3.0), R.COMBO)  # fits alone
    bad(state, mv(B, "half", card="mouse-5", pile=1, t=3.0), R.COMBO)  # no partner in ben's hand
    bad(state, mv(B, "half", card="doom-J", pile=1, t=3.0), R.COMBO_DOOM)


def test_a_single_face_card_becomes_a_pair_with_its_twin() -> None:
    hands = {A: ["start-1", "teen-8", "teen-9", "teen-10"], B: ["robot-J", "teen-J"]}
    state = ok(started(hands), *(mv(A, "play", card=c, pile=1 if i else "new", t=float(i + 1))
                                 for i, c in enumerate(["start-1", "teen-8", "teen-9", "teen-10"])))
    state = ok(state, mv(B, "play", card="robot-J", pile=1, t=9.0))
    state = ok(state, mv(B, "play", cards=["robot-J", "teen-J"], pile=1, t=9.4))
    assert top(state, 1) == "teen-J" and hand(state, B) == []


@covers(R.LEADER, "legal", "illegal")
def test_the_teen_leader_combines_teen_cards_with_other_suits() -> None:
    hands = {A: ["start-1", "teen-8", "teen-2", "robot-5", "joe-2", "mouse-5"], B: ["start-2"]}
    plain = ok(started(hands), mv(A, "play", card="start-1", pile="new", t=1.0), mv(A, "play", card="teen-8", pile=1, t=2.0))
    bad(plain, mv(A, "play", cards=["teen-2", "robot-5"], pile=1, t=3.0), R.COMBO)
    teen = ok(started(hands, leaders={A: "teen"}), mv(A, "play", card="start-1", pile="new", t=1.0),
              mv(A, "play", card="teen-8", pile=1, t=2.0))
    ok(teen, mv(A, "play", cards=["teen-2", "robot-5"], pile=1, t=3.0))
    bad(teen, mv(A, "play", cards=["joe-2", "mouse-5"], pile=1, t=3.0), R.COMBO)
    beast = teen._replace(mods=replace(teen.mods, beast=(True, False)))
    ok(beast, mv(A, "play", cards=["joe-2", "mouse-5"], pile=1, t=3.0))  # Beast Mode: any two 1-5 cards
