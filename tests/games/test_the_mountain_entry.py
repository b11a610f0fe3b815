"""The Mountain by tapping (companion.games.the_mountain.entry): declared domains, the moves the
engine proposes, the values a player's page shows, the prompts, and each acceptance-file move
tapped in through the move builder.

Every move of the acceptance files, legal or an illegal attempt, is tapped in on the player's page
and on the referee's console.
"""

from __future__ import annotations

import dataclasses
import statistics
from pathlib import Path
from typing import Any

import pytest

from companion.core import Move
from companion.entry.builder import Builder, field_specs, move_form
from companion.core.picks import Pick
from companion.games.the_mountain.picks import PYRAMID_SLOT
from companion.games.the_mountain import GAME, entry
from companion.games.the_mountain.cards import DECK, POSITIONS
from companion.games.the_mountain.moves import MOVE_TYPES, Act
from companion.games.the_mountain.playout import random_playout
from companion.games.the_mountain.state import MountainState
from companion.log.notation import read_notation
from tests.entry_driver import tap_in
from tests.games.mountain_support import ready, start
from companion.games import get_spec

DATA = get_spec("the-mountain").path("acceptance")
FILES = sorted(DATA.glob("*.jsonl"))
OPTIONS: list[dict[str, Any]] = [
    {},
    {"nightmare": True},
    {"chain_link": "any_earlier"},
    {"geometry": "peak_on_top"},
    {"neighbours": "row_only"},
    {"spades_cascade": False},
    {"short_actions": False},
    {"health_draw": "any"},
]



def _file_moves(path: Path) -> list[tuple[int, MountainState, Move]]:
    with path.open(encoding="utf-8") as handle:
        notation = read_notation(handle)
    state = notation.start
    out = []
    for n, (_, move) in enumerate(notation.moves, start=1):
        out.append((n, state, move))
        _, state = GAME.play(state, move)
    return out


def _cases() -> list[Any]:
    return [
        pytest.param(state, move, id=f"{path.stem}/{n}-{move.verb}")
        for path in FILES
        for n, state, move in _file_moves(path)
    ]


def _taps(state: MountainState, move: Move, referee: bool = False) -> int:
    """Taps to enter ``move`` on the page of its player, or on the referee's console."""
    as_json = GAME.codec.to_json(move)
    builder = Builder(GAME, state, (state.player,), None if referee else move.by)
    built, taps = tap_in(builder, as_json, referee=referee or move.by is None)
    assert GAME.codec.from_json(built) == move.replace(t=None)
    return taps


@pytest.mark.parametrize(("state", "move"), _cases())
def test_each_move_of_the_acceptance_files_is_tapped_in(state: MountainState, move: Move) -> None:
    assert _taps(state, move) <= 16


@pytest.mark.parametrize(("state", "move"), _cases())
def test_the_referee_taps_in_each_move_of_the_acceptance_files(state: MountainState, move: Move) -> None:
    assert _taps(state, move, referee=True) <= 16


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_the_moves_take_few_taps(path: Path) -> None:
    counted = [_taps(state, move) for _, state, move in _file_moves(path)]
    assert statistics.median(counted) <= 3, counted


def test_every_field_of_every_move_declares_a_domain() -> None:
    for move_type in MOVE_TYPES:
        named = field_specs(move_type)  # raises for a field without a domain
        fields = {f.name for f in dataclasses.fields(move_type)} - {"by", "t"}
        assert {name for name, _ in named} == fields == set(move_type.picks), move_type.verb


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_every_legal_move_of_a_playout_is_proposed(options: dict[str, Any]) -> None:
    for seed in range(3):
        header, moves = random_playout(seed, options=options)
        state = GAME.new_state(header)
        for move in moves:
            legal = [_unordered(m) for m in Builder(GAME, state, header.players, None).legal(move.by)]
            _check_prompts(state, {m["do"] for m in legal})
            made = _unordered(move_form(move))
            if isinstance(move, Act) and move.cards[0].endswith("S"):
                made["targets"] = []  # spade sets are proposed without targets: the engine finds them
            assert made in legal, (options, seed, made)
            _, state = GAME.play(state, move)


def _unordered(move: dict[str, Any]) -> dict[str, Any]:
    """A move with its set of cards in a fixed order (the builder matches them as a set)."""
    return {**move, "cards": sorted(move["cards"])} if "cards" in move else move


def test_prompts_name_the_verbs_that_are_legal_now() -> None:
    for path in FILES:
        for _, state, _ in _file_moves(path):
            _check_prompts(state, {m["do"] for m in Builder(GAME, state, (state.player,), state.player).legal(state.player)})


def _check_prompts(state: MountainState, legal: set[str]) -> None:
    """One prompt per verb the player may make now, in turn order; none once the game is over."""
    prompts = GAME.prompts(state)
    if state.result is not None:
        assert prompts == ()
        return
    assert [p.verb for p in prompts] == [v for v in ("discard", "draw", "act", "skip", "end_turn") if v in legal], state
    assert all(p.who == state.player and p.text.startswith(f"{state.player}: ") for p in prompts)


def test_a_players_draw_grid_is_built_from_the_cards_seen() -> None:
    state = ready(("5C", "AD", "AH"))
    grid = [c.value for c in entry.choices(state, "solo", "solo", Pick.UNSEEN_CARD, False)]
    assert grid[0] == state.health[0]  # the health pile's top, face up
    assert set(grid[1:]) == state.stock
    # The stock itself is never read for a player: the same table with the stock unknown gives the same grid.
    assert [c.value for c in entry.choices(state.evolve(stock=frozenset()), "solo", "solo", Pick.UNSEEN_CARD, False)] == grid
    # Someone else at the table has not seen the hand: it is among the cards they may name.
    watching = [c.value for c in entry.choices(state, "bob", "bob", Pick.UNSEEN_CARD, False) or []]
    assert set(watching) == set(grid) | {"5C", "AD", "AH"}
    everything = entry.choices(state, "solo", "solo", Pick.UNSEEN_CARD, True)
    assert [c.value for c in everything] == list(DECK)


def test_the_pyramid_offers_each_slot_with_its_card() -> None:
    state = start()
    slots = entry.choices(state, "solo", "solo", PYRAMID_SLOT, False)
    assert slots is not None and [c.value for c in slots] == list(POSITIONS)
    first = slots[0]
    assert first.card == state.mountain[0] and first.label == f"1-1 {entry.card_label(first.card or '')}"
    gone = state.evolve(mountain=(None,) + state.mountain[1:])
    assert [c.value for c in entry.choices(gone, "solo", "solo", PYRAMID_SLOT, False) or []] == list(POSITIONS[1:])
    assert len(entry.choices(gone, None, "solo", PYRAMID_SLOT, True) or []) == 21


def test_a_hand_is_offered_only_to_its_player_and_the_referee() -> None:
    state = ready(("5C", "AD", "AH"))
    assert [c.label for c in entry.choices(state, "solo", "solo", Pick.HAND_CARD, False) or []] == ["5♣", "A♦", "A♥"]
    assert [c.value for c in entry.choices(state, None, "solo", Pick.HAND_CARD, False) or []] == ["5C", "AD", "AH"]
    assert entry.choices(state, "bob", "bob", Pick.HAND_CARD, False) == []


def test_a_spade_choice_is_a_word_or_a_pair_of_words() -> None:
    state = start()
    words = entry.choices(state, "solo", "solo", Pick.WORD, False) or []
    shown = {c.value for c in words if isinstance(c.value, str)}
    assert shown and all(any(_shows(card, w) for card in state.mountain if card) for w in shown)
    assert ["suit:H", "rank:K"] in [c.value for c in entry.choices(state, "solo", "solo", Pick.WORD, True) or []]
    assert entry.choice_label("rank:7") == "7s" and entry.choice_label("suit:H") == "♥ hearts"


def _shows(card: str, word: str) -> bool:
    kind, _, value = word.partition(":")
    return card[:-1] == value if kind == "rank" else card[-1] == value


def test_the_spades_choice_is_asked_in_words_not_by_its_field_name() -> None:
    # issue 22, MEDIUM 6: no step is labelled "Pick choose"
    asked = dict(field_specs(Act))["choose"].ask
    assert asked and "choose" not in asked.lower()
