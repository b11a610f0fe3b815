"""The session: the one authority that turns observations into logged, judged, applied moves.

Every input, from a reader, the camera or a person, enters through :meth:`Session.submit` (or
:meth:`Session.process` for a caller that wants the answer at once) and goes down one path:
interpret -> the row it makes -> fold the row (judge, apply: :func:`companion.log.fold.step`) ->
append to the log -> publish. Observations are processed one at a time under one lock, in arrival
order; a burst is written in one transaction (one fsync) and acknowledged only once it is durable.
State at start-up is the same fold run over the log.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import Future
from typing import Any, Protocol

from companion.core import (
    Header,
    JsonObject,
    Move,
    Observation,
    ObservationKind,
    Unexplained,
)
from companion.core.errors import CompanionError, LogError, NotationError
from companion.core.sources import entered_on_a_page, entered_through_link
from companion.contract.game import Game
from companion.contract.sensors import Pending
from companion.log.store import HEADER_KIND, GameLog, LogRow, NewRow
from companion.log.fold import Applied, Folded, FoldRow, Judged, folds, replay, step, take_back_check
from companion.log.public import card_names, public_row
from companion.referee.board import public_board

log = logging.getLogger(__name__)

PENDING_SOURCE = "referee:pending"
"""The source of the referee's alert for a move the table began and left unfinished."""

BATCH_LIMIT = 512
"""Most observations written in one transaction when a burst arrives."""

QUEUE_LIMIT = 50_000
"""Observations waiting to be judged before :meth:`Session.submit` makes its caller wait: a reader
thread that outruns the referee slows down (the serial port buffers) instead of growing memory."""


class Clock(Protocol):
    def wall(self) -> float: ...

    def mono(self) -> float: ...


class SystemClock:
    def wall(self) -> float:
        return time.time()

    def mono(self) -> float:
        return time.monotonic()


Listener = Callable[[list[LogRow], JsonObject], None]
"""Called after each durable batch with its rows and the public board after it."""


class Session:
    """A game in progress, backed by its log."""

    def __init__(self, game: Game[Any], log_: GameLog, header: Header | None = None, clock: Clock | None = None) -> None:
        self.game = game
        self.log = log_
        self._instance = ""  # the log's header-row key, read once it is there (see instance)
        self.clock: Clock = clock or SystemClock()
        self._lock = threading.RLock()
        self._listeners: list[Listener] = []
        self._folded: Folded
        """The game as of the last row written (:mod:`companion.log.fold`)."""
        self.health: dict[str, JsonObject] = {}
        self._health_reports = 0
        """Health reports so far: with the log's last row, what the public board depends on (:meth:`moment`)."""
        self._board: JsonObject | None = None
        self._board_at: tuple[int, int] = (-1, -1)
        self._queue: queue.Queue[tuple[Observation, Future[LogRow]] | None] = queue.Queue(QUEUE_LIMIT)
        self._worker: threading.Thread | None = None

        stored = log_.header()
        if stored is None:
            if header is None:
                raise LogError(f"{log_.path}: the log is empty and no game header was given")
            self.header = header
            self._folded = Folded.start(game, header)
            now = self.clock
            log_.append(NewRow(HEADER_KIND, "session", None, now.wall(), now.mono(), header.to_json()))
        else:
            if header is not None and header.to_json() != stored.to_json():
                raise LogError(f"{log_.path}: holds a different game ({stored.game} with {', '.join(stored.players)})")
            if stored.game != game.id:
                raise LogError(f"{log_.path}: is a {stored.game} log, not {game.id}")
            self.header = stored
            self._replay()

    # -- start-up -----------------------------------------------------------------------------

    def _replay(self) -> None:
        """Fold the log into the state, undo history, alerts and counters it leads to; never writes."""
        self._folded = replay(self.game, Folded.start(self.game, self.header), self.log.rows(after=1))
        log.info("resumed %s from %s: %d rows", self.game.id, self.log.path, self.log.last_seq)

    def states_around(self, seq: int) -> tuple[Any, Any]:
        """The game state just before and just after log row ``seq``, folded from the start (the
        dispute view folds from snapshots: :class:`web.disputes.DisputeStates`)."""
        folded = Folded.start(self.game, self.header)
        if seq == 1:
            return folded.state, folded.state
        for row, after in folds(self.game, folded, self.log.rows(after=1, limit=max(seq - 1, 0))):
            if row.seq == seq:
                return folded.state, after.state
            folded = after
        raise LogError(f"{self.log.path}: there is no row {seq}")

    # -- what the game is now ------------------------------------------------------------------

    @property
    def state(self) -> Any:
        """The state in force."""
        return self._folded.state

    @property
    def alerts(self) -> Mapping[str, Unexplained]:
        """Alerts standing, by zone."""
        return self._folded.alerts

    @property
    def last_judged(self) -> Judged | None:
        """The last move entry judged (legal or not), for "take back" and its preview."""
        return self._folded.judged

    @property
    def counters(self) -> dict[str, int]:
        return self._folded.counts.to_json()

    def folded(self) -> Folded:
        """The game as of the last row written: what folding the whole log gives."""
        with self._lock:
            return self._folded

    # -- the one path in ----------------------------------------------------------------------

    def process(self, observation: Observation) -> LogRow:
        """Judge, apply, log (durably) and publish one observation; return its row."""
        return self.process_many([observation])[0]

    def process_many(self, observations: Iterable[Observation]) -> list[LogRow]:
        with self._lock:
            folded = self._folded
            new_rows: list[NewRow] = []
            for obs in observations:
                seq = self.log.last_seq + len(new_rows) + 1
                row, folded = self._decide(obs, folded, seq)
                new_rows.append(row)
            stored = self.log.append_many(new_rows)  # raises before any state changes if the disk fails
            self._folded = folded
            board = self.board()
            listeners = list(self._listeners)
        for listener in listeners:
            try:
                listener(stored, board)
            except Exception:  # a broken screen must not stop the referee; it is logged, not hidden
                log.exception("a session listener failed")
        return stored

    def _decide(self, obs: Observation, folded: Folded, seq: int) -> tuple[NewRow, Folded]:
        """What one observation becomes (its row), and the game once that row is folded in.

        The row is decided here; what it does, its verdict included, is the fold's :func:`step`."""
        try:
            entry, undone = self._read(obs, folded, seq)
            after = step(self.game, folded, entry)
            fields = self._fields(entry, undone, after)
        except CompanionError as exc:
            log.warning("observation from %s rejected: %s", obs.source, exc)
            return self._refused(obs, folded, seq, str(exc))
        except Exception as exc:  # a bug in an engine must not stop the table; the row keeps the evidence
            log.exception("internal error on an observation from %s", obs.source)
            why = f"internal error ({type(exc).__name__}: {exc}); the observation is logged, the state is unchanged"
            return self._refused(obs, folded, seq, why)
        return self._row(obs, fields), after

    def _fields(self, entry: FoldRow, undone: Move | None, after: Folded) -> dict[str, Any]:
        """The log columns of a row that was read: its move (or the one an undo took back), the
        verdict the fold gave it, its alert."""
        fields: dict[str, Any] = {}
        shown = entry.move if entry.move is not None else undone
        if shown is not None:
            fields["move"] = self.game.codec.to_json(shown)
        if after.verdict is not None:
            fields["verdict"] = after.verdict.to_json()
        if entry.alert is not None:
            fields["alert"] = {"zone": entry.alert.zone, "what": entry.alert.what, "fix": entry.alert.fix}
        return fields

    def _refused(self, obs: Observation, folded: Folded, seq: int, error: str) -> tuple[NewRow, Folded]:
        """An observation that became an error row: it changes nothing but the counters."""
        row = FoldRow(seq, obs.kind.value, error=True, source=obs.source)
        return self._row(obs, {"error": error}), step(self.game, folded, row)

    def _read(self, obs: Observation, folded: Folded, seq: int) -> tuple[FoldRow, Move | None]:
        """The row an observation makes, and the move an undo takes back (for the record).

        Raises :class:`CompanionError` for an observation that cannot be read or a take-back refused."""
        kind = obs.kind
        source = obs.source
        if kind in (ObservationKind.UNDO, ObservationKind.CORRECTION):
            # A take-back through a player's link is that player's, whatever its payload says.
            taker = entered_through_link(source)
            asked = obs.payload if taker is None else {**obs.payload, "player": taker}
            undone = take_back_check(folded, asked).move
            if kind is ObservationKind.UNDO:
                return FoldRow(seq, kind.value, source=source), undone
            return FoldRow(seq, kind.value, move=self.game.codec.from_json(obs.payload.get("move")), source=source), None
        if kind is ObservationKind.NOTE:
            if obs.source == PENDING_SOURCE and isinstance(obs.payload.get("pending"), Mapping):
                return self._unfinished(obs.payload["pending"], folded, seq), None
            return FoldRow(seq, kind.value, source=source), None
        result = self.game.interpret(folded.state, obs)
        if isinstance(result, Move) and kind is ObservationKind.MOVE and entered_on_a_page(obs.source):
            # A person tapping names a card, not a copy of it (Game.settle); a reader's tag, a notation
            # file or a script names the very copy and is judged as named.
            result = self.game.settle(folded.state, result)
        zone = obs.payload.get("zone")
        where = zone if isinstance(zone, str) else None
        if isinstance(result, Unexplained):
            return FoldRow(seq, kind.value, alert=result, zone=where, source=source), None
        if isinstance(result, Move):
            return FoldRow(seq, kind.value, move=result, zone=where, source=source), None
        return FoldRow(seq, kind.value, zone=where, source=source), None

    def _unfinished(self, said: Mapping[str, Any], folded: Folded, seq: int) -> FoldRow:
        """The referee's alert for a move left unfinished, if the game still has it pending (it may
        have been finished while the alert waited in the queue: then the row is a plain note)."""
        for pending in self.game.pending(folded.state):
            if pending.zone == said.get("zone") and pending.since == said.get("since"):
                alert = Unexplained(pending.zone, pending.what, pending.fix)
                return FoldRow(seq, ObservationKind.NOTE.value, alert=alert, pending=pending.since)
        return FoldRow(seq, ObservationKind.NOTE.value)

    def overdue(self, now: float, timeout_s: float) -> list[Pending]:
        """Moves the table began more than ``timeout_s`` before table time ``now`` and has not
        finished, and whose alert has not been raised yet (:mod:`companion.referee.pending`)."""
        folded = self._folded  # one reference read: the game as of the last row, without the lock
        alerted = folded.pending
        return [
            p for p in self.game.pending(folded.state)
            if now - p.since >= timeout_s and alerted.get(p.zone) != p.since
        ]

    def _row(self, obs: Observation, fields: Mapping[str, Any]) -> NewRow:
        return NewRow(
            kind=obs.kind.value,
            source=obs.source,
            table_time=obs.table_time,
            wall_time=self.clock.wall(),
            mono_time=self.clock.mono(),
            payload=dict(obs.payload),
            **fields,
        )

    # -- a queue for readers and the camera -----------------------------------------------------

    def start(self, around: Callable[[Callable[[], None]], Callable[[], None]] | None = None) -> None:
        """Start the worker that drains :meth:`submit`'s queue in durable batches.

        ``around`` wraps the worker's body (a profiler in a benchmark); it changes nothing inside."""
        if self._worker is None:
            body = around(self._drain) if around is not None else self._drain
            self._worker = threading.Thread(target=body, name="session", daemon=True)
            self._worker.start()

    def queued(self) -> int:
        """Observations submitted and not yet judged (a backlog gauge)."""
        return self._queue.qsize()

    def stop(self, timeout: float = 5.0) -> None:
        if self._worker is not None:
            self._queue.put(None)
            self._worker.join(timeout)
            self._worker = None

    def submit(self, observation: Observation) -> Future[LogRow]:
        """Queue an observation; the future resolves once its row is durable (needs :meth:`start`).

        Waits while :data:`QUEUE_LIMIT` observations are already queued (back-pressure, never loss)."""
        future: Future[LogRow] = Future()
        self._queue.put((observation, future))
        return future

    def _drain(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            batch = [item]
            stop = False
            while len(batch) < BATCH_LIMIT:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                batch.append(more)
            try:
                rows = self.process_many([obs for obs, _ in batch])
            except Exception as exc:  # the log could not be written: every caller is told, none is acked
                log.exception("could not record %d observations", len(batch))
                for _, future in batch:
                    future.set_exception(exc)
            else:
                for (_, future), row in zip(batch, rows):
                    future.set_result(row)
            if stop:
                return

    # -- what the screens see ----------------------------------------------------------------

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        with self._lock:
            self._listeners.append(listener)

        def unsubscribe() -> None:
            with self._lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return unsubscribe

    def report_health(self, component: str, status: JsonObject) -> None:
        """A reader, the serial link or the camera reports its state. A change of status is logged."""
        with self._lock:
            before = self.health.get(component, {}).get("status")
            self.health[component] = dict(status)
            self._health_reports += 1
            changed = before != status.get("status")
        if changed:
            self.process(
                Observation(component, self.clock.wall(), ObservationKind.NOTE, {"health": component, **dict(status)})
            )
        else:
            board = self.board()
            for listener in list(self._listeners):
                listener([], board)

    def moment(self) -> tuple[int, int]:
        """What the public board (and every view) depends on: the log's last row and the health reports
        so far. Answers built at one moment are the same for every page asking at it."""
        with self._lock:
            return self.log.last_seq, self._health_reports

    def board(self) -> JsonObject:
        """The public board: the game's scoreboard plus outcome, prompts, alerts and health.

        Built once per :meth:`moment` (every open page asks for it after each row); each caller gets its
        own top-level dict, the values inside are shared and not to be changed."""
        return self.stamped_board()[1]

    def stamped_board(self) -> tuple[tuple[int, int], JsonObject]:
        """The :meth:`moment` and the public board at it, read together."""
        with self._lock:
            at = self.moment()
            if self._board is None or self._board_at != at:
                board = public_board(self.game, self.header, self.state, self.alerts, self.health, self.counters, self.log)
                self._board, self._board_at = board, at
            return at, dict(self._board)

    def public_row(self, row: LogRow) -> JsonObject:
        """A log row as anyone may see it (:func:`companion.public.public_row`), its refusal naming
        cards as people do (the deck does not change in a game: the state in force names them)."""
        return public_row(self.game, row, self._folded.state)

    def snapshot(self) -> tuple[Any, int]:
        """The state in force and the log row it stands at, read together."""
        with self._lock:
            return self.state, self.log.last_seq

    REPEAT_WINDOW = 20
    """How many of the last rows a take-back looks through for the one it repeats."""

    @property
    def instance(self) -> str:
        """This game's key: the first 16 hex of its log's header-row hash ("" for an empty log). A new
        game is a new log whose seqs start again at 1; the venue and the offer cache key rows by it.
        Read once the header row is there (it never changes): every offer asks for it."""
        if not self._instance:
            first = self.log.row(1)
            self._instance = first.hash[:16] if first is not None else ""
        return self._instance

    def take_back(self, obs: Observation) -> tuple[LogRow, bool]:
        """A person's take-back (an undo naming the row it takes back): processed and logged, unless it
        repeats the take-back already made of that row (a double tap, a retried request); then the row
        that made it, ``True``, and nothing is written. Decided under the session's lock, so two taps at
        once make one row."""
        with self._lock:
            seq = obs.payload.get("seq")
            if isinstance(seq, int) and not isinstance(seq, bool):
                last = self.log.last_seq
                for row in self.log.rows(after=max(seq, last - self.REPEAT_WINDOW)):
                    if row.kind == ObservationKind.UNDO.value and row.error is None and row.payload.get("seq") == seq:
                        log.info("a take-back of row %d repeats row %d: nothing written", seq, row.seq)
                        return row, True
            return self.process(obs), False

    def take_back_preview(self, player: str | None) -> JsonObject:
        """What "take back" would do now, said before it is done: the move in force it would undo
        (``seq``, the public move) or why nothing would be (``why``); ``refused`` names a last entry
        that was refused and so changed nothing; ``names`` how a person names the move's cards (a copy
        as the card, :func:`companion.log.public.card_names`). ``player`` None is the referee."""
        with self._lock:
            folded = self._folded
        judged = folded.judged
        out: JsonObject = {"seq": None, "move": None, "names": {}, "why": None, "refused": None}
        if judged is not None and not judged.ok:
            row = self.log.row(judged.seq)
            if row is not None:
                out["refused"] = {"seq": judged.seq, "move": self.public_row(row)["move"]}
        try:
            last = take_back_check(folded, {} if player is None else {"player": player})
        except NotationError as exc:
            out["why"] = exc.message
            return out
        out["seq"] = last.seq
        out["move"] = self.game.public_move(last.move)
        out["names"] = card_names(self.game, folded.state, out["move"])
        return out

    def view_snapshot(self, player: str | None) -> tuple[tuple[int, int], JsonObject, JsonObject]:
        """The :meth:`moment`, ``player``'s private view (None: the referee's whole view) and the public
        board, read together (one state, one seq)."""
        with self._lock:
            return self.moment(), self.game.view(self.state, player), self.board()

    def applied(self) -> list[Applied]:
        """The moves in force, oldest first."""
        with self._lock:
            return list(self._folded.history)
