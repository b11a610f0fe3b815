"""Escape House by tapping: field domains, the moves the engine proposes, what a seat's pickers show."""

from __future__ import annotations

import json
import statistics
from pathlib import Path
from typing import Any

import pytest

from companion.entry.builder import Builder, Draft, field_specs
from companion.core.picks import GENERIC, Pick
from companion.games.escape_house.picks import PICKS
from companion.games.escape_house import GAME
from companion.games.escape_house.entry import candidates, card_label, choices
from companion.games.escape_house.moves import MOVE_TYPES
from companion.games.escape_house.state import State
from companion.log.notation import read_notation
from tests.entry_driver import assert_as_meant, tap_in
from tests.games.test_escape_house_support import A, B, C, HANDS, PLAYERS, ROOMS, loose, mv, new, play, to_action
from companion.games import get_spec

DATA = get_spec("escape-house").path("acceptance")
FILES = sorted(DATA.glob("*.jsonl"))


def test_every_field_of_every_move_declares_a_domain() -> None:
    for move_type in MOVE_TYPES:
        for name, spec in field_specs(move_type):  # raises TypeError for a field without picks
            assert isinstance(spec.pick, Pick), (move_type.verb, name)


def test_cards_read_by_their_card_set_names() -> None:
    state = new()
    # The set's Keys are identical copies: one card to a person, whichever copy (issue 22).
    assert card_label(state, "key-3") == card_label(state, "key-1") == "Key"
    assert card_label(state, "shove") == "Shove"
    hand = choices(state, A, A, Pick.HAND_CARD, False)
    assert hand is not None and {c.value for c in hand} == set(HANDS[A])
    assert all(c.card == c.value and c.label != c.value for c in hand if "-" in c.value)


def test_every_legal_move_is_proposed() -> None:
    state = play(new(), mv(A, "move", room="library"), mv(B, "move", room="library"))
    proposed = {json.dumps(GAME.codec.to_json(m), sort_keys=True) for m in candidates(state, A)}
    for line in (
        {"by": A, "do": "draw", "room": "library", "card": "door-slam-1"},
        {"by": A, "do": "trade", "to": B, "card": "key-1"},
    ):
        assert json.dumps(line, sort_keys=True) in proposed
    assert [m.verb for m in candidates(state, None)][-1] == "end_explore"


def _offers(state: State, viewer: str) -> list[Any]:
    """Everything a seat's page is offered: each verb, and each verb's first and second steps."""
    builder = Builder(GAME, state, PLAYERS, viewer)
    out: list[Any] = [builder.offer(Draft(viewer)).to_json()]
    for move_type in MOVE_TYPES:
        first = builder.offer(Draft(viewer, move_type.verb)).to_json()
        out.append(first)
        nxt = first["next"]
        if nxt and nxt["choices"] and not nxt["many"]:
            out.append(builder.offer(Draft(viewer, move_type.verb, {nxt["field"]: nxt["choices"][0]["value"]})).to_json())
    return out


@pytest.mark.parametrize("phase", ["explore", "action"])
def test_a_seat_is_offered_nothing_that_depends_on_hidden_cards(phase: str) -> None:
    """Two houses that differ only in face-down cards (room decks of one size, other hands) offer anna
    the very same pickers: no offer tells where another card lies."""
    rooms = {**ROOMS, "library": ["locked-chest", "fuse-2", "key-3", "pit", "lamp-2"],
             "kitchen": ["boiler", "alarm", "door-slam-1", "crowbar-2", "cobweb-1"]}
    hands = {**HANDS, B: ["betray-2", "rope-1", "amulet-1", "scavenge-1"], C: ["betray-3", "crowbar-1", "candle-1", "dagger-2"]}
    states = [loose(), loose(rooms=rooms, hands=hands)]
    moves = [mv(A, "move", room="library"), mv(B, "move", room="library")]
    states = [play(s, *moves) if phase == "explore" else to_action(s, *moves) for s in states]
    assert choices(states[0], None, A, Pick.UNSEEN_CARD, False) != choices(states[1], None, A, Pick.UNSEEN_CARD, False)
    for pick in (*GENERIC, *PICKS):
        assert choices(states[0], A, A, pick, False) == choices(states[1], A, A, pick, False), pick
    assert _offers(states[0], A) == _offers(states[1], A)


def test_the_referee_draws_from_the_real_piles() -> None:
    state = play(new(), mv(A, "move", room="library"))
    unseen = choices(state, None, A, Pick.UNSEEN_CARD, False)
    assert unseen is not None and "door-slam-1" in {c.value for c in unseen}
    mine = choices(state, A, A, Pick.UNSEEN_CARD, False)
    assert mine is not None and not {c.value for c in mine} & set(HANDS[A])


def test_prompts_name_who_does_what() -> None:
    over = play(new({"trades_per_explore": None}), mv(B, "trade", to=A, card="crowbar-1"), mv(C, "trade", to=A, card="rope-1"))
    (ask,) = GAME.prompts(over)
    assert (ask.who, ask.verb) == (A, "stash") and "main room" in ask.text and "discard pile" in ask.text
    credit = new().but(draw_credit={A: 1})
    assert [(p.who, p.verb) for p in GAME.prompts(credit)] == [(A, "draw_discard"), (None, "end_explore")]


def _tap_through(path: Path) -> list[tuple[str, int]]:
    """(verb, taps) for each move of the file, from the acting player's page (the console for the table's)."""
    with path.open(encoding="utf-8") as handle:
        notation = read_notation(handle)
    state = notation.start
    counted = []
    for _, move in notation.moves:
        builder = Builder(GAME, state, notation.header.players, move.by)
        built, taps = tap_in(builder, move, referee=move.by is None)
        assert_as_meant(builder, built, move)  # a page names a card, not a copy of it
        counted.append((move.verb, taps))
        _, state = GAME.play(state, move)
    return counted


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_every_move_is_tapped_in(path: Path) -> None:
    """Legal moves and illegal attempts alike, clears too (their cards are "by" in the notation)."""
    counted = _tap_through(path)
    assert any(verb == "clear" for verb, _ in counted)
    assert statistics.median(t for _, t in counted) <= 3, counted


def test_a_clear_is_tapped_in() -> None:
    state = to_action(loose(), mv(A, "trade", to=B, card="key-2"))
    state = play(state, mv(A, "play", card="key-1", target=A), mv(B, "play", card="key-2", target=B), mv(None, "resolve"))
    as_json: dict[str, Any] = {"do": "clear", "puzzle": "front-door", "by": ["key-1", "key-2"]}
    assert GAME.judge(state, GAME.codec.from_json(as_json)).ok
    builder = Builder(GAME, state, PLAYERS, None)
    built, _ = tap_in(builder, as_json, referee=True)
    assert_as_meant(builder, built, GAME.codec.from_json(as_json))
