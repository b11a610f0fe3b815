"""The idioms every game shares (companion/contract): dispatch by move type, one refusal of a move
the game does not have, and one "is this a player" check citing each game's own rule id."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import pytest

from companion.contract.dispatch import MoveTable
from companion.contract.players import not_a_player
from companion.core import Header, Move, Verdict
from companion.core.errors import CompanionError, NotationError, UnknownMoveError
from companion.games import game_ids, get_game, get_spec


@dataclass(frozen=True)
class Wave(Move):
    """A move no game has."""

    verb = "wave"


@dataclass(frozen=True)
class Shrug(Move):
    """Another move no game has, with a field."""

    verb = "shrug"
    how: str = "slowly"


def _states(game_id: str, upto: int) -> Iterable[tuple[Any, Header, Move]]:
    """The states along a seeded playout, each with the legal move made next."""
    game = get_game(game_id)
    header, moves = get_spec(game_id).playout(3, upto)
    state = game.new_state(header)
    for move in list(moves)[:upto]:
        yield state, header, move
        verdict, state = game.play(state, move)
        assert verdict.ok, verdict


DISPATCHED = [g for g in game_ids() if get_game(g).move_table is not None]


def test_every_game_of_this_tree_dispatches_through_its_move_table() -> None:
    assert {g for g in game_ids() if get_spec(g).package.startswith("companion.games.")} <= set(DISPATCHED)


@pytest.mark.parametrize("game_id", DISPATCHED)
def test_every_move_type_of_a_game_has_its_check_and_apply_in_its_table(game_id: str) -> None:
    game = get_game(game_id)
    table = game.move_table
    assert table is not None
    assert sorted(t.__name__ for t in table.move_types) == sorted(t.__name__ for t in game.move_types)
    assert set(table.move_types) == set(game.move_types)
    assert table.game == game.title


@pytest.mark.parametrize("game_id", DISPATCHED)
def test_a_move_the_game_does_not_have_is_refused_one_way_by_check_and_apply(game_id: str) -> None:
    game = get_game(game_id)
    for n, (state, header, _) in enumerate(_states(game_id, 40)):
        if n % 13:
            continue
        for stranger in (Wave(by=header.players[0]), Wave(), Shrug(by=header.players[-1])):
            for ask in (game.check, game.judge, game.apply):
                with pytest.raises(UnknownMoveError, match=f'"{stranger.verb}" .* is not a move of {game.title}'):
                    ask(state, stranger)


def test_the_refusal_of_an_unknown_move_is_a_notation_error_the_session_logs() -> None:
    assert issubclass(UnknownMoveError, NotationError) and issubclass(UnknownMoveError, CompanionError)


@pytest.mark.parametrize("game_id", [g for g in game_ids() if get_game(g).player_rule])
def test_a_move_by_someone_not_at_the_table_cites_the_games_own_player_rule(game_id: str) -> None:
    game = get_game(game_id)
    assert game.player_rule in game.rules
    asked = 0
    for state, _, move in _states(game_id, 60):
        if move.by is None:
            continue
        verdict = game.judge(state, move.replace(by="zed"))
        assert verdict.rules == (game.player_rule,), (move, verdict)
        asked += 1
    assert asked >= 10


def test_the_player_check_reads_the_same_in_every_game() -> None:
    players = ("anna", "ben")
    assert not_a_player("X-WHO", players, Wave(by="anna")) is None
    assert not_a_player("X-WHO", players, Wave(by="zed")) == Verdict.illegal(
        "X-WHO", "zed is not a player in this game", "say which player makes the move"
    )
    assert not_a_player("X-WHO", players, Wave()) == Verdict.illegal(
        "X-WHO", 'a wave needs a player: say who ("by")', "enter the move again with the player"
    )
    assert not_a_player("X-WHO", players, Wave(), optional=True) is None
    named = not_a_player("X-WHO", players, Wave(), what="a greeting")
    assert named is not None and named.why.startswith("a greeting needs a player")
    solo = not_a_player("X-SOLO", ("solo",), Wave(by="bob"))
    assert solo is not None and solo.why == "this is solo's solitaire game, not bob's"


def test_a_move_table_dispatches_by_exact_type() -> None:
    @dataclass(frozen=True)
    class Nod(Move):
        verb = "nod"

    table: MoveTable[int] = MoveTable("Toy", {Nod: (lambda s, m: Verdict.legal(), lambda s, m: s + 1)})
    assert table.move_types == (Nod,)
    assert table.check(1, Nod()).ok and table.apply(1, Nod()) == 2
    assert table.checker(Nod()) is not None
    for ask in (table.checker, lambda m: table.check(1, m), lambda m: table.apply(1, m)):
        with pytest.raises(UnknownMoveError, match='"wave" \\(Wave\\) is not a move of Toy'):
            ask(Wave())
