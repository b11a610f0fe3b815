"""Re-checking a whole game from its notation (``companion replay``) — the PGN check of this project."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from companion.core import JsonObject
from companion.games import get_game
from companion.log.notation import NotationFile


def replay(record: NotationFile) -> Iterator[JsonObject]:
    """One result per move, in order, then the final scoreboard and outcome (NOTATION.md).

    An illegal move is reported and not applied; the game goes on from the state before it.
    """
    game = get_game(record.header.game)
    state: Any = record.start if record.start is not None else game.new_state(record.header)
    for n, (_line, move) in enumerate(record.moves, start=1):
        verdict, state = game.play(state, move)
        if verdict.ok:
            yield {"n": n, "ok": True}
        else:
            yield {"n": n, "ok": False, "rules": list(verdict.rules), "why": verdict.why}
    outcome = game.outcome(state)
    yield {"scoreboard": game.scoreboard(state), "outcome": outcome.to_json() if outcome else None}
