"""The Draw Pile running out: the reshuffle, the sixth-card discard, and the end of the game."""

from __future__ import annotations

from companion.games.horrible_mountain_2 import GAME
from companion.games.horrible_mountain_2.cards import sort_cards
from companion.games.horrible_mountain_2.state import Phase, State, evolve
from tests.games.test_horrible_mountain_2_support import ADAM, EVE, covers, mv, placed, play, refused


def draw_turn(state: State, card: str | None = None, discard: str | None = None) -> State:
    """The player to act draws ``card`` (default: the first of the Draw Pile) and discards if at six."""
    card = card or sort_cards(state.draw_pile)[0]
    state = play(state, mv(state.current, "draw", card=card))
    if state.must_discard:
        state = play(state, mv(state.current, "discard", card=discard or card))
    return state


def first_exhaustion() -> State:
    """Nine draws: the ninth empties the Draw Pile while Eve holds six cards."""
    state = placed()
    for card in ("3D", "3C", "4D", "4C", "5D", "5C", "6D", "6C"):
        state = draw_turn(state, card)  # draws 5-8 are discarded at once: the Discard Pile is 5D 5C 6D 6C
    assert state.discard == ("5D", "5C", "6D", "6C") and state.draw_pile == {"2C"}
    return play(state, mv(EVE, "draw", card="2C"))


@covers("HM2-RESHUFFLE", "legal")
def test_the_discard_pile_becomes_the_draw_pile_and_the_sixth_card_starts_the_new_discard_pile() -> None:
    state = first_exhaustion()
    assert state.exhausted == 1
    assert state.draw_pile == {"5D", "5C", "6D", "6C"} and state.discard_size == 0
    assert state.must_discard and state.current == EVE
    state = play(state, mv(EVE, "discard", card="2C"))
    assert state.discard == ("2C",)  # not included in the reshuffle
    assert state.draw_pile == {"5D", "5C", "6D", "6C"}
    assert GAME.scoreboard(state)["exhausted"] == 1


@covers("HM2-RESHUFFLE", "illegal")
def test_the_sixth_card_discard_cannot_be_drawn_from_the_new_draw_pile() -> None:
    state = play(first_exhaustion(), mv(EVE, "discard", card="2C"))
    verdict = refused(state, mv(ADAM, "draw", card="2C"), "HM2-DRAW", "HM2-RESHUFFLE")
    assert verdict.why == (
        "2C cannot come from the Draw Pile: 2C is the top card of the Discard Pile, "
        "and is shuffled in only when the Draw Pile runs out"
    )
    play(state, mv(ADAM, "draw", card="6C"))


def test_take_table_refill_can_empty_the_draw_pile() -> None:
    state = evolve(placed(), draw_pile=frozenset({"6D"}), discard=("3D", "4D"))
    state = play(state, mv(EVE, "take_table", cube="red", replacement="6D"))
    assert state.exhausted == 1 and state.draw_pile == {"3D", "4D"} and state.discard == ()
    assert state.current == ADAM  # four cards in hand: no discard, the turn is over


@covers("HM2-GAME-END", "legal")
def test_the_game_ends_at_the_end_of_the_turn_of_the_third_exhaustion() -> None:
    state = play(first_exhaustion(), mv(EVE, "discard", card="2C"))
    while state.exhausted < 3:
        state = play(state, mv(state.current, "draw", card=sort_cards(state.draw_pile)[0]))
        if state.exhausted == 3:
            break
        assert GAME.outcome(state) is None
        if state.must_discard:
            state = play(state, mv(state.current, "discard", card=sort_cards(state.hands[state.turn])[0]))
    # The third exhaustion came on a draw to six cards: the turn (and the game) is not over yet.
    assert state.must_discard and GAME.outcome(state) is None and state.phase is Phase.PLAY
    prompts = GAME.prompts(state)
    assert [p.verb for p in prompts] == ["discard"] and prompts[0].who == state.current
    state = play(state, mv(state.current, "discard", card=sort_cards(state.hands[state.turn])[0]))
    assert state.phase is Phase.OVER and GAME.outcome(state) is not None
    assert GAME.scoreboard(state)["turn"] is None and GAME.scoreboard(state)["exhausted"] == 3


@covers("HM2-GAME-END", "illegal")
def test_no_move_after_the_end_and_no_end_before_the_third_exhaustion() -> None:
    two = evolve(placed(), draw_pile=frozenset({"6D"}), discard=("3D", "4D"), exhausted=2)
    # Two exhaustions: the game goes on.
    assert GAME.outcome(play(evolve(two, exhausted=1), mv(EVE, "draw", card="6D"))) is None
    over = play(two, mv(EVE, "draw", card="6D"))  # the third, with four cards in hand: ends at once
    assert over.phase is Phase.OVER and GAME.outcome(over) is not None
    verdict, after = GAME.play(over, mv(ADAM, "draw", card="3D"))
    assert not verdict.ok and verdict.rules == ("GAME-OVER",) and after is over
