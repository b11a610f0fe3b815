"""The one "is this a player" check: ``move.by`` names a player at this table.

Each game cites its own rule id for it (stable: old logs cite them), so the id is the caller's;
the question and the sentence are the same everywhere.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from companion.core import Move, Verdict


def not_a_player(
    rule: str, players: Sequence[str] | Collection[str], move: Move, *, optional: bool = False, what: str | None = None
) -> Verdict | None:
    """The refusal, citing ``rule``, when ``move.by`` is not one of ``players``; None when it is.

    ``optional``: the move may name nobody (the game works out who, or nobody acts); otherwise a move
    without ``by`` is refused too. ``what``: how the refusal names the move ("a Draw! call"),
    "a <verb>" (or "an <verb>") by default.
    """
    by = move.by
    if by is None:
        if optional:
            return None
        said = what or f"{'an' if move.verb[:1] in ('a', 'e', 'i', 'o', 'u') else 'a'} {move.verb}"
        return Verdict.illegal(rule, f'{said} needs a player: say who ("by")', "enter the move again with the player")
    if by in players:
        return None
    if len(players) == 1:
        (player,) = players
        return Verdict.illegal(rule, f"this is {player}'s solitaire game, not {by}'s", "let the player make the move")
    return Verdict.illegal(rule, f"{by} is not a player in this game", "say which player makes the move")
