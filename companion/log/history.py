"""The moves in force and how a log leads to them: judging a move into the undo history, whether a
take-back may go ahead, and replaying log rows into the state, history and alerts they lead to.
The session plays live through these, and disputes and start-up replay through the same ones."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.core import Header, Move, ObservationKind, Unexplained, Verdict
from companion.core.errors import NotationError
from companion.contract.game import Game
from companion.log.store import LogRow

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Applied:
    """A move in force: the row it came from and the state before it (for undo)."""

    seq: int
    move: Move
    before: Any


def play_into(
    game: Game[Any], history: list[Applied], state: Any, move: Move, seq: int, correcting: bool
) -> tuple[Verdict, Any]:
    """Judge ``move`` and, if legal, record it in the undo history: the one rule for live play and replay.

    A correction is judged on the state before the last applied move and replaces it. Returns the
    verdict and the state now in force (unchanged when the move is illegal).
    """
    base = history[-1].before if correcting else state
    verdict, after = game.play(base, move)
    if not verdict.ok:
        return verdict, state
    if correcting:
        history.pop()
    history.append(Applied(seq, move, base))
    return verdict, after


@dataclass(frozen=True)
class Judged:
    """The last move entry the rules judged: whose it was and whether it was applied."""

    seq: int
    by: str | None
    ok: bool


def take_back_check(history: list[Applied], judged: Judged | None, payload: Mapping[str, Any]) -> None:
    """May this undo (or correction) go ahead? Raises :class:`NotationError` saying why not.

    ``payload["seq"]``, when given, is the row the person was shown they would take back: if another
    move came in since, nothing is taken back. ``payload["player"]`` marks a player taking back their
    own entry, which is allowed only while it is the last move judged and it was applied.
    """
    if not history:
        raise NotationError("there is no move to undo: no move is in force")
    last = history[-1]
    expected = payload.get("seq")
    if expected is not None and expected != last.seq:
        raise NotationError(f"row {expected} is no longer the last move in force (row {last.seq} is); look again")
    player = payload.get("player")
    if player is None:
        return
    if judged is None or judged.by != player:
        raise NotationError("another entry has been judged since your last one; ask the referee to take it back")
    if not judged.ok:
        raise NotationError(f"your last entry (row {judged.seq}) was refused and changed nothing; there is nothing to take back")
    if last.seq < judged.seq:
        raise NotationError(f"your last entry (row {judged.seq}) has already been taken back")


@dataclass
class Rebuilt:
    """What replaying a log gives back."""

    state: Any
    history: list[Applied]
    alerts: dict[str, Unexplained]
    observations: int = 0
    illegal: int = 0
    mismatches: int = 0
    judged: Judged | None = None


def rebuild(
    game: Game[Any],
    header: Header,
    rows: Iterable[LogRow],
    watch: Callable[[LogRow, Any, Any], None] | None = None,
    start: Rebuilt | None = None,
) -> Rebuilt:
    """Replay log rows (after the header) through the rules: the state, undo history and alerts they lead to.

    Stored moves are re-judged, not re-interpreted; a verdict that differs from the stored one is
    counted (``mismatches``) and the rules of this version win. ``start``: go on from an earlier
    rebuild (a snapshot; it is copied, not changed) instead of from the header.
    """
    out = Rebuilt(game.new_state(header), [], {}) if start is None else Rebuilt(start.state, list(start.history), dict(start.alerts))
    for row in rows:
        out.observations += 1
        before = out.state
        kind = row.kind
        if kind == ObservationKind.UNDO.value:
            if out.history and row.error is None:
                out.state = out.history.pop().before
        elif row.move is not None and row.verdict is not None:
            move = game.codec.from_json(row.move)
            correcting = kind == ObservationKind.CORRECTION.value and bool(out.history)
            verdict, out.state = play_into(game, out.history, out.state, move, row.seq, correcting)
            if verdict.to_json() != row.verdict:
                out.mismatches += 1
                log.warning("row %d: the rules now say %s where the log says %s", row.seq, verdict.to_json(), row.verdict)
            if not verdict.ok:
                out.illegal += 1
            if kind != ObservationKind.CORRECTION.value:
                out.judged = Judged(row.seq, move.by, verdict.ok)
        if row.alert is not None:
            out.alerts[str(row.alert["zone"])] = Unexplained(**row.alert)
        elif row.move is not None and isinstance(row.payload.get("zone"), str):
            out.alerts.pop(str(row.payload["zone"]), None)
        if watch is not None:
            watch(row, before, out.state)
    return out
