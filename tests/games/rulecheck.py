"""What every engine's tests do: read a move as the table enters it, play moves that must be legal,
and check that a move is refused for the right rule with a why (and a fix)."""

from __future__ import annotations

from typing import Any, TypeVar

from companion.core import Move, Verdict
from companion.contract.game import Game

S = TypeVar("S")


def read_move(game: Game[Any], player: str | None, do: str, /, **fields: Any) -> Move:
    """A move read through the game's codec, as a notation file or the console gives it.

    ``player`` becomes ``by``; a game whose verb has a field named ``by`` (an Escape House
    ``clear``) passes it in ``fields`` with no player."""
    obj: dict[str, Any] = {"do": do, **fields}
    if player is not None:
        obj["by"] = player
    return game.codec.from_json(obj)


def legal(game: Game[S], state: S, *moves: Move) -> S:
    """Apply moves that must be legal, failing on the first that is not."""
    for move in moves:
        verdict = game.judge(state, move)
        assert verdict.ok, (game.codec.to_json(move), verdict)
        state = game.apply(state, move)
    return state


def refused(game: Game[S], state: S, move: Move, rule: str, *, only: bool = False, fix: bool = True) -> Verdict:
    """Assert ``move`` is illegal citing ``rule`` (the only rule, with ``only``), with a why (and a fix)."""
    verdict = game.judge(state, move)
    assert not verdict.ok, game.codec.to_json(move)
    if only:
        assert verdict.rules == (rule,), verdict
    else:
        assert rule in verdict.rules, (rule, verdict)
    assert verdict.why, verdict
    if fix:
        assert verdict.fix, verdict
    return verdict


def refused_exactly(game: Game[S], state: S, move: Move, *rules: str) -> Verdict:
    """The move is illegal, names exactly ``rules``, says why and how to fix it, and changes nothing."""
    verdict, after = game.play(state, move)
    assert not verdict.ok, game.codec.to_json(move)
    assert verdict.rules == rules, verdict
    assert verdict.why and verdict.fix, verdict
    assert after is state
    return verdict
