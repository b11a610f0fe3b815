"""Escape House at a live table: nobody types a face-down card, and the game is the same game.

Every random playout is replayed twice: as the notation file knows it (every pile listed at setup)
and as a live table plays it (only the face-up main puzzle at setup; the hands tapped in with
``dealt``; each main puzzle tapped as it turns up; a face-down side puzzle named as it is cleared).
The two must agree move by move on every verdict and on the public scoreboard, and end alike.
"""

from __future__ import annotations

import json
import random

import pytest

from companion.core import Observation, ObservationKind, Zone
from companion.core.errors import SetupError
from companion.games.escape_house import GAME
from companion.games.escape_house.moves import Dealt, Draw, Flip, MoveTo
from companion.games.escape_house.options import EscapeHouseOptions
from companion.games.escape_house.playout import as_live_table, random_playout
from companion.games.escape_house.state import Phase
from companion.games.escape_house.table import TAP_PAD

SIX = ("anna", "ben", "cleo", "dev", "eli", "fay")


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 154])
def test_a_live_table_judges_every_move_as_the_full_setup_does(seed: int) -> None:
    header, moves = random_playout(seed, illegal_every=None if seed == 154 else 7, teamwork=1.0 if seed == 154 else 0.6)
    live_header, live_moves = as_live_table(header, moves, random.Random(seed))
    full = GAME.new_state(header)
    live = GAME.new_state(live_header)
    assert live.phase is Phase.DEAL and live.main_left() == full.main_left()
    deal = [m for m in live_moves if isinstance(m, Dealt)]
    for move in deal:
        verdict, live = GAME.play(live, move)
        assert verdict.ok, (move, verdict)
    assert live.phase is Phase.EXPLORE and {p: sorted(h) for p, h in live.hands.items()} == {p: sorted(h) for p, h in full.hands.items()}
    flips = 0
    for move in live_moves[len(deal):]:
        if isinstance(move, Flip):
            assert GAME.prompts(live) == (GAME.prompts(live)[0],) and GAME.prompts(live)[0].verb == "flip"
            verdict, live = GAME.play(live, move)
            assert verdict.ok, (move, verdict)
            assert GAME.scoreboard(live) == GAME.scoreboard(full)
            flips += 1
            continue
        full_verdict, full = GAME.play(full, move)
        live_verdict, live = GAME.play(live, move)
        assert live_verdict.ok == full_verdict.ok, (GAME.codec.to_json(move), full_verdict, live_verdict)
        if live.needs_flip():  # the next main puzzle is face down until the table taps it
            assert GAME.scoreboard(live)["main_puzzle"] is None and GAME.scoreboard(full)["main_puzzle"] is not None
            assert not GAME.judge(live, MoveTo(by=live.alive[0], room="main")).ok
        else:
            assert GAME.scoreboard(live) == GAME.scoreboard(full), GAME.codec.to_json(move)
    assert GAME.outcome(live) == GAME.outcome(full) and GAME.outcome(full) is not None
    if seed == 154:  # the determined table escapes: every main puzzle but the first was turned up live
        assert GAME.outcome(live).to_json()["won"] and flips == len(header.setup["main"]) - 1  # type: ignore[union-attr]


HANDS = {
    "anna": ("betray-1", "key-1", "rope-1", "dagger-1"),
    "ben": ("betray-2", "key-2", "rope-2", "dagger-2"),
    "cleo": ("betray-3", "key-3", "rope-3", "candle-1"),
    "dev": ("betray-4", "key-4", "lamp-1", "candle-2"),
    "eli": ("betray-5", "key-5", "lamp-2", "matches-1"),
    "fay": ("betray-6", "lamp-3", "crowbar-1", "matches-2"),
}


def _dealt_table() -> object:
    state = GAME.setup(SIX, EscapeHouseOptions(), {"card_set": "example", "main": ["front-door"]})
    for p, hand in HANDS.items():
        for card in hand:
            verdict, state = GAME.play(state, Dealt(by=p, card=card))
            assert verdict.ok, (p, card, verdict)
    return state


def test_the_deal_is_tapped_in_and_nothing_else_goes_first() -> None:
    state = GAME.setup(SIX, EscapeHouseOptions(), {"card_set": "example", "main": ["front-door"]})
    assert GAME.scoreboard(state)["deck_sizes"] == {"library": 4, "kitchen": 4, "cellar": 4, "study": 4, "attic": 4, "parlour": 3}
    early = GAME.judge(state, MoveTo(by="anna", room="library"))
    assert not early.ok and "the hands are dealt first" in early.why
    verdict, state = GAME.play(state, Dealt(by="anna", card="betray-1"))
    assert verdict.ok
    second = GAME.judge(state, Dealt(by="anna", card="betray-2"))
    assert not second.ok and "one Betray card" in second.why
    puzzle = GAME.judge(state, Dealt(by="anna", card="front-door"))
    assert not puzzle.ok and "main card" in puzzle.why
    verdict, state = GAME.play(state, Dealt(by="ben", card="key-1"))
    assert verdict.ok
    # anna taps ben's card: refused without a word of where it is
    taken = GAME.judge(state, Dealt(by="anna", card="key-1"))
    assert not taken.ok and "ben" not in taken.why + (taken.fix or "") and "hand" not in taken.why
    state = _dealt_table()
    assert state.phase is Phase.EXPLORE  # type: ignore[attr-defined]


def test_a_draw_names_any_card_nobody_has_named_and_a_flip_turns_up_the_next_main() -> None:
    state = _dealt_table()
    verdict, state = GAME.play(state, MoveTo(by="anna", room="library"))  # type: ignore[arg-type]
    assert verdict.ok
    held = GAME.judge(state, Draw(by="anna", room="library", card="key-2"))  # ben holds key-2
    assert not held.ok and "ben" not in held.why
    verdict, state = GAME.play(state, Draw(by="anna", room="library", card="gear-1"))
    assert verdict.ok and GAME.scoreboard(state)["deck_sizes"]["library"] == 3
    again = GAME.judge(state, Draw(by="anna", room="library", card="gear-1"))
    assert not again.ok
    flip = GAME.judge(state, Flip(card="altar"))
    assert not flip.ok and "face up already" in flip.why


def test_a_bad_live_setup_is_one_sentence() -> None:
    bad = [
        ({"card_set": "example"}, 'missing "main"'),
        ({"card_set": "example", "main": ["locked-chest"]}, "side card, not main"),
        ({"card_set": "example", "main": []}, "face-up main puzzle"),
        ({"card_set": "example", "main": ["front-door"], "rooms": ["a", "b"]}, "has 2 side rooms; 6 players need 6"),
        ({"card_set": "example", "main": ["front-door"], "rooms": ["main", "b", "c", "d", "e", "f"]}, "cannot name a side room"),
        ({"card_set": "example", "main": ["front-door"], "penalties": []}, 'unknown field "penalties"'),
        ({"card_set": "nope", "main": ["front-door"]}, "no card set named"),
    ]
    for setup, words in bad:
        with pytest.raises(SetupError) as caught:
            GAME.setup(SIX, EscapeHouseOptions(), setup)
        assert words in str(caught.value), (json.dumps(setup), str(caught.value))


def test_the_next_main_puzzle_tapped_on_the_tap_pad_is_its_flip() -> None:
    header, moves = as_live_table(*random_playout(154, teamwork=1.0))
    state = GAME.new_state(header)
    for move in moves:
        if isinstance(move, Flip):
            break
        state = GAME.play(state, move)[1]
    assert state.needs_flip()
    payload = {**Zone("tap", TAP_PAD).payload(), "event": "arrive", "uid": "04a1b2c3", "card": move.card}
    got = GAME.interpret(state, Observation("nfc:tap", 3.0, ObservationKind.TAG, payload))
    assert got == Flip(card=move.card, t=3.0) and GAME.judge(state, got).ok
    assert GAME.scoreboard(GAME.apply(state, got))["main_puzzle"]["id"] == move.card
