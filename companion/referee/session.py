"""The session: the one authority that turns observations into logged, judged, applied moves.

Every input, from a reader, the camera or a person, enters through :meth:`Session.submit` (or
:meth:`Session.process` for a caller that wants the answer at once) and goes down one path:
interpret -> judge -> apply -> append to the log -> publish. Observations are processed one at a
time under one lock, in arrival order; a burst is written in one transaction (one fsync) and
acknowledged only once it is durable. State at start-up is the replay of the log.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Iterable
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
from companion.contract.game import Game
from companion.log.store import HEADER_KIND, GameLog, LogRow, NewRow
from companion.log.history import Applied, Judged, play_into, rebuild, take_back_check
from companion.log.public import public_row

log = logging.getLogger(__name__)

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
        self.clock: Clock = clock or SystemClock()
        self._lock = threading.RLock()
        self._listeners: list[Listener] = []
        self._history: list[Applied] = []
        self.last_judged: Judged | None = None
        """The last move entry judged (legal or not), for "take back" and its preview."""
        self.alerts: dict[str, Unexplained] = {}
        self.health: dict[str, JsonObject] = {}
        self.counters: dict[str, int] = {"observations": 0, "illegal": 0, "alerts": 0, "errors": 0, "replay_mismatches": 0}
        self._queue: queue.Queue[tuple[Observation, Future[LogRow]] | None] = queue.Queue(QUEUE_LIMIT)
        self._worker: threading.Thread | None = None

        stored = log_.header()
        if stored is None:
            if header is None:
                raise LogError(f"{log_.path}: the log is empty and no game header was given")
            self.header = header
            self.state = game.new_state(header)
            now = self.clock
            log_.append(NewRow(HEADER_KIND, "session", None, now.wall(), now.mono(), header.to_json()))
        else:
            if header is not None and header.to_json() != stored.to_json():
                raise LogError(f"{log_.path}: holds a different game ({stored.game} with {', '.join(stored.players)})")
            if stored.game != game.id:
                raise LogError(f"{log_.path}: is a {stored.game} log, not {game.id}")
            self.header = stored
            self.state = game.new_state(stored)
            self._replay()

    # -- start-up -----------------------------------------------------------------------------

    def _replay(self) -> None:
        """Rebuild state and the undo history from the log; never writes."""
        rebuilt = rebuild(self.game, self.header, self.log.rows(after=1))
        self.state, self._history, self.alerts = rebuilt.state, rebuilt.history, rebuilt.alerts
        self.last_judged = rebuilt.judged
        self.counters.update(observations=rebuilt.observations, illegal=rebuilt.illegal, replay_mismatches=rebuilt.mismatches)
        log.info("resumed %s from %s: %d rows", self.game.id, self.log.path, self.log.last_seq)

    def states_around(self, seq: int) -> tuple[Any, Any]:
        """The game state just before and just after log row ``seq`` (for disputes)."""
        before: Any = None
        after: Any = None

        def watch(row: LogRow, state_before: Any, state_after: Any) -> None:
            nonlocal before, after
            if row.seq == seq:
                before, after = state_before, state_after

        rebuilt = rebuild(self.game, self.header, self.log.rows(after=1, limit=max(seq - 1, 0)), watch)
        if seq == 1:
            return rebuilt.state, rebuilt.state
        if before is None:
            raise LogError(f"{self.log.path}: there is no row {seq}")
        return before, after

    # -- the one path in ----------------------------------------------------------------------

    def process(self, observation: Observation) -> LogRow:
        """Judge, apply, log (durably) and publish one observation; return its row."""
        return self.process_many([observation])[0]

    def process_many(self, observations: Iterable[Observation]) -> list[LogRow]:
        with self._lock:
            state, history, alerts = self.state, list(self._history), dict(self.alerts)
            judged = [self.last_judged]
            new_rows: list[NewRow] = []
            for obs in observations:
                seq = self.log.last_seq + len(new_rows) + 1
                row, state = self._decide(obs, state, history, alerts, seq, judged)
                new_rows.append(row)
            stored = self.log.append_many(new_rows)  # raises before any state changes if the disk fails
            self.state, self._history, self.alerts, self.last_judged = state, history, alerts, judged[0]
            for row in stored:
                self._count(row)
            board = self.board()
            listeners = list(self._listeners)
        for listener in listeners:
            try:
                listener(stored, board)
            except Exception:  # a broken screen must not stop the referee; it is logged, not hidden
                log.exception("a session listener failed")
        return stored

    def _count(self, row: LogRow) -> None:
        self.counters["observations"] += 1
        if row.verdict is not None and not row.verdict.get("ok"):
            self.counters["illegal"] += 1
        if row.alert is not None:
            self.counters["alerts"] += 1
        if row.error is not None:
            self.counters["errors"] += 1

    def _decide(
        self,
        obs: Observation,
        state: Any,
        history: list[Applied],
        alerts: dict[str, Unexplained],
        seq: int,
        judged: list[Judged | None],
    ) -> tuple[NewRow, Any]:
        """What one observation becomes, given the state so far in this batch.

        Mutates history, alerts and ``judged`` (a one-item list: the last judged entry)."""
        fields: dict[str, Any] = {}
        kind = obs.kind
        try:
            if kind is ObservationKind.UNDO:
                take_back_check(history, judged[0], obs.payload)
                undone = history.pop()
                state = undone.before
                fields["move"] = self.game.codec.to_json(undone.move)
            elif kind is ObservationKind.CORRECTION:
                take_back_check(history, judged[0], obs.payload)
                move = self.game.codec.from_json(obs.payload.get("move"))
                verdict, state = play_into(self.game, history, state, move, seq, correcting=True)
                fields["move"], fields["verdict"] = self.game.codec.to_json(move), verdict.to_json()
            elif kind is ObservationKind.NOTE:
                pass
            else:
                result = self.game.interpret(state, obs)
                zone = obs.payload.get("zone")
                if isinstance(result, Unexplained):
                    alerts[result.zone] = result
                    fields["alert"] = {"zone": result.zone, "what": result.what, "fix": result.fix}
                elif isinstance(result, Move):
                    verdict, state = play_into(self.game, history, state, result, seq, correcting=False)
                    fields["move"], fields["verdict"] = self.game.codec.to_json(result), verdict.to_json()
                    judged[0] = Judged(seq, result.by, verdict.ok)
                    if isinstance(zone, str):
                        alerts.pop(zone, None)
        except CompanionError as exc:
            fields = {"error": str(exc)}
            log.warning("observation from %s rejected: %s", obs.source, exc)
        except Exception as exc:  # a bug in an engine must not stop the table; the row keeps the evidence
            log.exception("internal error on an observation from %s", obs.source)
            fields = {"error": f"internal error ({type(exc).__name__}: {exc}); the observation is logged, the state is unchanged"}
        row = NewRow(
            kind=kind.value,
            source=obs.source,
            table_time=obs.table_time,
            wall_time=self.clock.wall(),
            mono_time=self.clock.mono(),
            payload=dict(obs.payload),
            **fields,
        )
        return row, state

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
            changed = before != status.get("status")
        if changed:
            self.process(
                Observation(component, self.clock.wall(), ObservationKind.NOTE, {"health": component, **dict(status)})
            )
        else:
            board = self.board()
            for listener in list(self._listeners):
                listener([], board)

    def board(self) -> JsonObject:
        """The public board: the game's scoreboard plus outcome, prompts, alerts and health."""
        with self._lock:
            outcome = self.game.outcome(self.state)
            return {
                "game": self.game.id,
                "title": self.game.title,
                "players": list(self.header.players),
                "seq": self.log.last_seq,
                "scoreboard": self.game.scoreboard(self.state),
                "outcome": outcome.to_json() if outcome else None,
                "winners": list(outcome.winners) if outcome else None,  # for standings across tables (issue 16)
                # Once the game is over nothing more is asked of anyone (a game's own prompts may not know).
                "prompts": [] if outcome else [{"who": p.who, "verb": p.verb, "text": p.text} for p in self.game.prompts(self.state)],
                "alerts": [{"zone": a.zone, "what": a.what, "fix": a.fix} for a in self.alerts.values()],
                "health": dict(self.health),
                "counters": dict(self.counters),
                "chain": self.log.chain_info(),  # rows, head fingerprint, kind, the broken log this continues
            }

    def public_row(self, row: LogRow) -> JsonObject:
        """A log row as anyone may see it (:func:`companion.public.public_row`)."""
        return public_row(self.game, row)

    def snapshot(self) -> tuple[Any, int]:
        """The state in force and the log row it stands at, read together."""
        with self._lock:
            return self.state, self.log.last_seq

    def take_back_preview(self, player: str | None) -> JsonObject:
        """What "take back" would do now, said before it is done: the move in force it would undo
        (``seq``, the public move) or why nothing would be (``why``); ``refused`` names a last entry
        that was refused and so changed nothing. ``player`` None is the referee."""
        with self._lock:
            history, judged = list(self._history), self.last_judged
        out: JsonObject = {"seq": None, "move": None, "why": None, "refused": None}
        if judged is not None and not judged.ok:
            row = self.log.row(judged.seq)
            if row is not None:
                out["refused"] = {"seq": judged.seq, "move": self.public_row(row)["move"]}
        try:
            take_back_check(history, judged, {} if player is None else {"player": player})
        except NotationError as exc:
            out["why"] = exc.message
            return out
        last = history[-1]
        out["seq"] = last.seq
        out["move"] = self.game.public_move(last.move)
        return out

    def player_snapshot(self, player: str) -> tuple[JsonObject, JsonObject]:
        """``player``'s private view and the public board, read together (one state, one seq)."""
        with self._lock:
            return self.game.view(self.state, player), self.board()

    def applied(self) -> list[Applied]:
        with self._lock:
            return list(self._history)
