"""The one fold of a game's log: each row, in order, into what it leads to.

A game at any row is a :class:`Folded`: the state, the moves in force (the undo history), the
alerts standing, the last move entry judged and the counters. :func:`step` folds one row into it,
purely; it is the only code that does. The session folds each row it writes with it, start-up
replays the log with it (:func:`replay`), and the dispute view folds from its snapshots with it, so
live play, a resumed table and a dispute cannot disagree about what a row did.

What a row is made of is the session's business (interpret, take-back checks, errors); what it does
is decided here, including its verdict: the step judges the move it carries, live and in replay alike.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.contract.game import Game
from companion.core import Header, JsonObject, Move, ObservationKind, Unexplained, Verdict
from companion.core.errors import NotationError
from companion.core.sources import entered_by, entered_through_link
from companion.log.store import LogRow

log = logging.getLogger(__name__)

_UNDO = ObservationKind.UNDO.value
_CORRECTION = ObservationKind.CORRECTION.value
_TAKE_BACKS = (_UNDO, _CORRECTION)
_VISION = ObservationKind.VISION.value


@dataclass(frozen=True)
class Applied:
    """A move in force: the row it came from and the state before it (for undo)."""

    seq: int
    move: Move
    before: Any


@dataclass(frozen=True, eq=False)
class History:
    """The moves in force, the last on top. Persistent: pushing or popping makes a new history that
    shares the rest, so every folded row keeps its own without copying a long game's list."""

    top: Applied | None = None
    rest: "History | None" = None
    size: int = 0

    def push(self, applied: Applied) -> "History":
        return History(applied, self, self.size + 1)

    def pop(self) -> "History":
        if self.rest is None:
            raise IndexError("no move is in force")
        return self.rest

    def __len__(self) -> int:
        return self.size

    def __iter__(self) -> Iterator[Applied]:
        """The moves in force, oldest first."""
        out: list[Applied] = []
        node: History | None = self
        while node is not None and node.top is not None:
            out.append(node.top)
            node = node.rest
        return reversed(out)


@dataclass(frozen=True)
class Judged:
    """The last move entry the rules judged: whose move it was, whether it was applied, and who
    entered it (its row's source: :mod:`companion.core.sources`)."""

    seq: int
    by: str | None
    ok: bool
    source: str = ""

    @property
    def link(self) -> str | None:
        """The player whose own link entered it, or None (the referee, a reader, the camera, ...)."""
        return entered_through_link(self.source)


@dataclass(frozen=True)
class Counts:
    """What the board's counters say: rows folded, and of them illegal moves, alerts and errors;
    ``replay_mismatches``: stored verdicts the rules of this version answer otherwise."""

    observations: int = 0
    illegal: int = 0
    alerts: int = 0
    errors: int = 0
    replay_mismatches: int = 0

    def to_json(self) -> dict[str, int]:
        return {
            "observations": self.observations,
            "illegal": self.illegal,
            "alerts": self.alerts,
            "errors": self.errors,
            "replay_mismatches": self.replay_mismatches,
        }


@dataclass(frozen=True)
class FoldRow:
    """One log row as the fold reads it: what it carries, decoded."""

    seq: int
    kind: str
    """The observation kind's value (``"move"``, ``"undo"``, ...)."""
    move: Move | None = None
    """The move to judge: an entry's, or a correction's replacement. None on an undo row (the move it
    names is only the record of what was taken back)."""
    alert: Unexplained | None = None
    zone: str | None = None
    """The zone the observation came from, if any: a move read there clears that zone's alert."""
    error: bool = False
    logged: JsonObject | None = None
    """The verdict the log holds (replay); None live, where the step's verdict is the one logged."""
    pending: float | None = None
    """On the referee's alert for a move the table began and left unfinished: since when (table
    time) that move is pending. The alert stands until the move is no longer pending."""
    source: str = ""
    """Who entered it (the observation's source): a take-back follows it."""


@dataclass(frozen=True)
class Folded:
    """A game as of one row of its log."""

    state: Any
    history: History = History()
    alerts: Mapping[str, Unexplained] = field(default_factory=dict)
    """Alerts standing, by zone; never changed in place (a step makes a new mapping)."""
    judged: Judged | None = None
    """The last move entry judged (legal or not), for "take back" and its preview."""
    counts: Counts = Counts()
    verdict: Verdict | None = None
    """The rules' verdict on the row folded last; None if it carried no move to judge."""
    pending: Mapping[str, float] = field(default_factory=dict)
    """Zones whose alert stands for a move left unfinished (``Game.pending``), and since when that
    move is pending: the alert goes once the game no longer has that pending move."""
    camera_alerts: frozenset[str] = frozenset()
    """Zones whose standing alert a camera view raised: a later view of the zone that the game reads as
    agreeing with the state clears it (a view is the whole zone; a reader's event is not)."""

    @classmethod
    def start(cls, game: Game[Any], header: Header) -> "Folded":
        return cls(game.new_state(header))


def step(game: Game[Any], folded: Folded, row: FoldRow) -> Folded:
    """Fold one row: the one rule for live play, start-up replay and disputes.

    An undo takes back the move on top; a move is judged (a correction on the state before the
    move on top, which it replaces when legal) and, if legal, goes in force; an alert stands for
    its zone until a move is read at that zone (a camera's alert also until the camera's view of it agrees
    with the state again), and the referee's alert for a move left unfinished
    until the game no longer has that move pending. Raises what the engine raises (the session
    makes that an error row); ``folded`` is never changed.
    """
    counts = folded.counts
    observations, illegal, alerts_n, errors, mismatches = (
        counts.observations + 1, counts.illegal, counts.alerts, counts.errors, counts.replay_mismatches,
    )
    state, history, judged, alerts = folded.state, folded.history, folded.judged, folded.alerts
    pending = folded.pending
    camera_alerts = folded.camera_alerts
    before = state
    verdict: Verdict | None = None
    if row.error:
        errors += 1
    if row.kind == _UNDO:
        if not row.error and history.top is not None:
            state, history = history.top.before, history.pop()
    elif row.move is not None:
        replaced = history.top if row.kind == _CORRECTION else None  # a correction with no move in force is a plain move
        base = replaced.before if replaced is not None else state
        verdict, after = game.play(base, row.move)
        if verdict.ok:
            if replaced is not None:
                history = history.pop()
            history = history.push(Applied(row.seq, row.move, base))
            state = after
        else:
            illegal += 1
        if row.logged is not None and verdict.to_json() != row.logged:
            mismatches += 1
            log.warning("row %d: the rules now say %s where the log says %s", row.seq, verdict.to_json(), row.logged)
        if row.kind != _CORRECTION:
            judged = Judged(row.seq, row.move.by, verdict.ok, row.source)
    if row.alert is not None:
        alerts = {**alerts, row.alert.zone: row.alert}
        alerts_n += 1
        camera_alerts = camera_alerts | {row.alert.zone} if row.kind == _VISION else camera_alerts - {row.alert.zone}
        if row.pending is not None:
            pending = {**pending, row.alert.zone: row.pending}
        elif row.alert.zone in pending:
            pending = {zone: since for zone, since in pending.items() if zone != row.alert.zone}
    elif row.move is not None and row.zone is not None and row.kind not in _TAKE_BACKS and row.zone in alerts:
        alerts = {zone: a for zone, a in alerts.items() if zone != row.zone}
        pending = {zone: since for zone, since in pending.items() if zone != row.zone}
    elif (row.kind == _VISION and not row.error and row.move is None and row.zone in camera_alerts
          and row.zone in alerts and row.zone not in pending):
        # A settled camera view is the whole zone: one the game reads as agreeing with the state (no
        # move, no alert) after the camera's own alert there means the table was put right (a pawn
        # set back where its plan put it).
        alerts = {zone: a for zone, a in alerts.items() if zone != row.zone}
    if pending and state is not before:
        alerts, pending = _finished(game, state, alerts, pending)
    camera_alerts = camera_alerts & alerts.keys()  # only alerts that still stand
    return Folded(state, history, alerts, judged, Counts(observations, illegal, alerts_n, errors, mismatches), verdict, pending,
                  camera_alerts)


def _finished(
    game: Game[Any], state: Any, alerts: Mapping[str, Unexplained], pending: Mapping[str, float]
) -> tuple[Mapping[str, Unexplained], Mapping[str, float]]:
    """The alerts for unfinished moves that are finished now (completed, taken back, or gone with
    the round) cleared: only the state decides, wherever the move that finished it was read."""
    standing = {(p.zone, p.since) for p in game.pending(state)}
    done = {zone for zone, since in pending.items() if (zone, since) not in standing}
    if not done:
        return alerts, pending
    return ({zone: a for zone, a in alerts.items() if zone not in done},
            {zone: since for zone, since in pending.items() if zone not in done})


def fold_row(game: Game[Any], row: LogRow) -> FoldRow:
    """A stored row as the fold reads it (its move decoded by the game's codec)."""
    judged = row.move is not None and row.verdict is not None
    zone = row.payload.get("zone")
    unfinished = row.payload.get("pending") if row.kind == ObservationKind.NOTE.value and row.alert is not None else None
    since = unfinished.get("since") if isinstance(unfinished, dict) else None
    return FoldRow(
        seq=row.seq,
        kind=row.kind,
        move=game.codec.from_json(row.move) if judged else None,
        alert=Unexplained(**row.alert) if row.alert is not None else None,
        zone=zone if isinstance(zone, str) else None,
        error=row.error is not None,
        logged=row.verdict,
        pending=float(since) if isinstance(since, (int, float)) and not isinstance(since, bool) else None,
        source=row.source,
    )


def folds(game: Game[Any], start: Folded, rows: Iterable[LogRow]) -> Iterator[tuple[LogRow, Folded]]:
    """Each stored row (after the header) with the game as of that row, folded on from ``start``.

    Stored moves are re-judged, not re-interpreted: where this version's rules answer otherwise the
    row is counted (``replay_mismatches``) and the rules of this version win."""
    folded = start
    for row in rows:
        folded = step(game, folded, fold_row(game, row))
        yield row, folded


def replay(game: Game[Any], start: Folded, rows: Iterable[LogRow]) -> Folded:
    """The game as of the last of ``rows``, folded on from ``start``."""
    folded = start
    for _row, folded in folds(game, start, rows):
        pass
    return folded


def take_back_check(folded: Folded, payload: Mapping[str, Any]) -> Applied:
    """May this undo (or correction) go ahead? The move it would take back, or
    :class:`NotationError` saying why not, in one sentence.

    ``payload["seq"]``, when given, is the row the person was shown they would take back: if another
    move came in since, nothing is taken back. ``payload["player"]`` marks a player taking back through
    their own link (the session sets it from the take-back's source): a player may take back only an
    entry their own link made, while it is the last move judged, was applied and is still in force.
    The referee's entries (even in the player's name) and a reader's rows are the referee's to take back.
    """
    last = folded.history.top
    if last is None:
        raise NotationError("there is no move to undo: no move is in force")
    expected = payload.get("seq")
    if expected is not None and expected != last.seq:
        raise NotationError(f"row {expected} is no longer the last move in force (row {last.seq} is); look again")
    player = payload.get("player")
    if player is None:
        return last
    judged = folded.judged
    if judged is None or judged.by != player and judged.link != player:
        raise NotationError("another entry has been judged since your last one; ask the referee to take it back")
    mine = judged.link == player
    if not judged.ok:
        whose = f"your last entry (row {judged.seq})" if mine else (
            f"the last entry in your name (row {judged.seq}), entered {entered_by(judged.source)},"
        )
        raise NotationError(f"{whose} was refused and changed nothing; there is nothing to take back")
    if not mine:
        raise NotationError(
            f"row {judged.seq} was entered {entered_by(judged.source)}, not through your own link; only the referee can take it back"
        )
    if last.seq < judged.seq:
        raise NotationError(f"your last entry (row {judged.seq}) has already been taken back")
    if last.seq > judged.seq:
        raise NotationError(f"the referee's correction (row {last.seq}) stands in place of your last entry; only the referee can take it back")
    return last
