"""A whole game played at a table with sensors, and each move accounted (issue 21).

    run = SensorRun(spec, header, folder, fast=True)     # the table, its readers and session
    try:
        report = run.play(moves)                         # every move through the sensors
    finally:
        run.close()
    print("\\n".join(report.lines()))                    # ends with the sensor share

The game's sensor plan (``spec.sensors``, :mod:`companion.contract.sensors`) lays the reference
table (``layout``), says what lies on it at the start (``setup``) and, for each move, the physical
actions that make it (``actions``) and the moves the table's rows will be (``table_moves``). The
runner does each action for real: a card put on a reader lands on a simulated reader array running
the real firmware, read by the real bridge and table model (:mod:`companion.demo.readers`); a
button is pressed on the array; an ``Enter`` goes down the referee's path (a MOVE observation, as
the console sends). Zones with outlines are watched by the camera (:mod:`companion.demo.camera`):
once a move's actions are done, the physical table is rendered as the camera takes it and read by
the real vision pipeline until every view the move changed has settled (``Put``, ``Take``,
``Cubes``, ``Pawns`` on an outlined zone). Everything reaches one :class:`~companion.referee.session.Session`
and its log, with the referee's watch for unfinished moves running beside it.

After a move's actions the runner waits until the pipeline has settled (every reading those
actions make has reached the session and its row is written; a tapped card's departure is the one
reading it does not wait for: it carries no move, and is claimed before that pad is used again or
at the end), then accounts the move (:mod:`companion.demo.account`). A misread is fixed as a referee
would: the rows it applied are undone and the table's moves entered by hand, so the game goes on
as it should; it still counts as a misread.
"""

from __future__ import annotations

import logging
import shutil
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from companion.contract.sensors import Action, Cubes, Enter, Pawns, Press, Put, SensorPlan, Take, Tap
from companion.contract.spec import GameSpec
from companion.core import Header, Move, Observation, ObservationKind, Verdict
from companion.demo.account import How, MoveResult, Report
from companion.demo.camera import CameraRig, Shown
from companion.demo.collect import Collector, Key, Reached
from companion.demo.physical import PhysicalTable, PlanError
from companion.demo.readers import ReaderRig, uid_of
from companion.log.store import GameLog, LogRow
from companion.referee.pending import DEFAULT_TIMEOUT_S, PendingWatch
from companion.referee.session import Session

log = logging.getLogger(__name__)

REFEREE = "demo:referee"
"""The source of what the runner's referee enters (the console's path)."""
SETTLE_TIMEOUT_S = 20.0
"""How long the runner waits for a reading its actions must make before calling it missing."""
MOVE_PACE_S = 0.7
ACTION_PACE_S = 0.12
QUICK_S = 0.05
"""How soon after the last move a move comes at a fast table (the pipeline's own latency)."""
MAX_GAP_S = 3.0
"""The longest of the game's own gaps the runner keeps (every timing window of the rules is shorter)."""


class RunError(Exception):
    """The run cannot go on: the plan is wrong, or the pipeline stopped answering."""


def _significant(row: LogRow) -> bool:
    return row.move is not None or row.alert is not None or row.error is not None


def _rules(verdict: Verdict | dict[str, Any] | None) -> tuple[bool, tuple[str, ...]]:
    if verdict is None:
        return False, ("(no verdict)",)
    if isinstance(verdict, Verdict):
        return verdict.ok, tuple(verdict.rules)
    return bool(verdict.get("ok")), tuple(verdict.get("rules", ()))


def _judged(rows: Sequence[LogRow]) -> tuple[bool, tuple[str, ...]]:
    """How the session judged a move made of these rows: legal when each of its moves was, and the
    rules its refusals cite."""
    verdicts = [_rules(r.verdict) for r in rows if r.move is not None and r.verdict is not None]
    return all(ok for ok, _ in verdicts), tuple(rule for _, rules in verdicts for rule in rules)


class SensorRun:
    """One game's table: layout, readers, session, log and the referee's watch."""

    def __init__(
        self,
        spec: GameSpec,
        header: Header,
        folder: Path,
        *,
        fast: bool = True,
        pace: float = 1.0,
        pending_timeout_s: float = DEFAULT_TIMEOUT_S,
        stop: threading.Event | None = None,
        leds: bool = False,
    ) -> None:
        plan = spec.sensors
        if plan is None:
            raise RunError(f"{spec.id} has no sensor plan (GameSpec.sensors)")
        self.spec, self.plan, self.game = spec, plan, spec.game
        self.fast, self.pace, self.leds = fast, pace, leds
        self.stop = stop or threading.Event()
        self.started = time.monotonic()
        if folder.exists():
            shutil.rmtree(folder)
        folder.mkdir(parents=True)
        self.folder = folder
        self.log = GameLog(folder / f"{self.game.id}.sqlite")
        self.session = Session(self.game, self.log, header)
        self.session.start()
        self.report = Report(self.game.id, self.game.title)
        self.zones = plan.layout(header.players)
        self.table = PhysicalTable(self.zones)
        self.collector = Collector(self.session.submit)
        self._trailing: list[tuple[Key, int]] = []
        self._claimed_seqs: set[int] = set()
        self.readers: ReaderRig | None = None
        self.camera: CameraRig | None = None
        self.watch = PendingWatch(lambda: self.session, pending_timeout_s)
        self._file_t: float | None = None
        """The time of the game's last move that had one (notation seconds)."""
        self._mark = time.time()
        """When the last move's readings had all reached the session (wall clock)."""
        self._walls: dict[float, float] = {}
        """For each of the game's move times so far, when that move's readings had all reached the session."""
        try:
            self._open(header)
        except BaseException:
            self.close()
            raise

    # -- the table as set up ------------------------------------------------------------------

    def _open(self, header: Header) -> None:
        laid: list[tuple[str, str]] = []
        for action in self.plan.setup(self.game.new_state(header)):
            if not isinstance(action, (Put, Cubes, Pawns)):
                raise PlanError(f"setup: {action} (a table is laid with cards, cubes and pawns)")
            self.table.apply(action)
            if isinstance(action, Put) and self.zones_by_name()[action.zone].reader is not None:
                laid.append((action.zone, action.card))
        if any(z.reader for z in self.zones):
            self.readers = ReaderRig(
                self.zones, self.plan.stacks, self.game.deck() or (), self.collector, self.folder, self.game.id,
                on_health=self.session.report_health, setup=laid, leds=self.leds,
            )
            self.report.readers = sum(1 for z in self.zones if z.reader and z.reader.startswith("array:"))
            self.report.buttons = sum(1 for z in self.zones if z.reader and z.reader.startswith("button:"))
            self.report.arrays = len(self.readers.arrays)
        if any(z.polygon for z in self.zones):
            self.camera = CameraRig(self.zones, header.players, self.collector, fast=self.fast)
            self.report.watched = len(self.camera.zones)
            self.camera.show(self.table)  # the table as laid: every view settles once
        self.watch.start()
        for reached in self.collector.strays(-1):
            row = reached.row()
            self._claimed_seqs.add(row.seq)
            if _significant(row):
                self.report.setup_misread.append(self._describe(row))

    def zones_by_name(self) -> dict[str, Any]:
        return {z.name: z for z in self.zones}

    # -- a whole game -------------------------------------------------------------------------

    def play(self, moves: Sequence[Move], header: Header | None = None, each: Callable[[MoveResult], None] | None = None) -> Report:
        """Every move through the table; the report (also ``self.report``)."""
        file_state = self.game.new_state(header or self.session.header)
        for index, move in enumerate(moves):
            if self.stop.is_set():
                break
            file_verdict, after = self.game.play(file_state, move)
            kept = self._keep_time(file_state, move, file_verdict)
            result = self.move(index, move, file_verdict, paced=kept)
            file_state = after
            if each is not None:
                each(result)
        self.finish()
        return self.report

    def finish(self) -> None:
        """Claim the last departures, gather the alerts no move asked for, time the run."""
        self._claim_trailing(block=True)
        deadline = time.monotonic() + SETTLE_TIMEOUT_S
        while self.session.queued() and time.monotonic() < deadline:
            time.sleep(0.01)
        for row in self.log.rows(after=1):
            if row.alert is not None and row.seq not in self._claimed_seqs:
                self.report.alerts.append(f"row {row.seq} at {row.alert['zone']}: {row.alert['what']}")
        self.report.seconds = time.monotonic() - self.started

    # -- one move -----------------------------------------------------------------------------

    def _keep_time(self, state: Any, move: Move, verdict: Verdict) -> bool:
        """Where the rules read the time since the game's last move (a play after Escape Master!, the
        second card of a pair), the table keeps the game's own gap before making ``move`` (True);
        and where the table would read ``move`` otherwise made at once after an earlier move
        (``SensorPlan.gap_from``), the gap from that one. Elsewhere the runner goes at its own pace
        (False). A move whose gap matters to the rules is one they would judge otherwise made at the
        runner's pace."""
        t, last = move.t, self._file_t
        if t is not None:
            self._file_t = t
        if t is None or last is None or t < last:
            return False
        waits: list[float] = []
        since = self.plan.gap_from(state, move)
        if since is not None and since in self._walls:
            waits.append(min(t - since, MAX_GAP_S) - (time.time() - self._walls[since]))
        paces = [QUICK_S] + ([] if self.fast else [QUICK_S + MOVE_PACE_S / max(self.pace, 1e-6)])
        if any(_rules(self.game.play(state, move.replace(t=last + pace))[0]) != _rules(verdict) for pace in paces):
            waits.append(min(t - last, MAX_GAP_S) - (time.time() - self._mark))
        if not waits:
            return False
        wait = max(waits)
        log.debug("move %s at %.3f: keeping the game's own time (waiting %.3f s)", move.verb, t, wait)
        if wait > 0:
            self.stop.wait(wait)
        return True

    def move(self, index: int, move: Move, file_verdict: Verdict, paced: bool = False) -> MoveResult:
        """Make ``move`` at the table, wait until it has settled, account it (and fix a misread).
        ``paced``: the game's own gap before it has been kept (:meth:`_keep_time`)."""
        state = self.session.state
        plan: SensorPlan = self.plan
        if not paced:
            self._wait(MOVE_PACE_S)
        # The plan sees the move at the table's time (the session's state is in table time): what a
        # reader makes of a card can depend on how long ago the last one came.
        now = move.replace(t=time.time()) if move.t is not None else move
        if plan.made_already(state, now, file_verdict.ok):
            table_moves: tuple[Move, ...] = ()
            actions: tuple[Action, ...] = ()  # its rows were written with an earlier move's
        else:
            table_moves = tuple(plan.table_moves(state, now))
            _, after = self.game.play(state, now)
            actions = tuple(plan.actions(state, now, after, file_verdict.ok))
        expected, entries, shows = self._do(index, actions)
        self._claim_trailing(block=False)
        claimed, missing = self.collector.claim(expected, index, SETTLE_TIMEOUT_S)
        missing += [("vision", zone) for shown in shows for zone in shown.unsettled]
        self._mark = time.time()
        if move.t is not None:
            self._walls[move.t] = self._mark
        strays = self.collector.strays(index, keep=[key for key, _ in self._trailing])
        rows = sorted([r.row() for r in claimed + strays] + entries, key=lambda r: r.seq)
        self._claimed_seqs.update(r.seq for r in rows)
        entered = any(isinstance(a, Enter) for a in actions)
        why = "; ".join(m for shown in shows for m in shown.misseen()) or self._check(state, table_moves, rows, missing)
        data = self.game.codec.to_json(move)
        result = MoveResult(index, move.verb, data, How.MISREAD if why else (How.ENTERED if entered else How.SENSORS), file_verdict.ok)
        if why:
            result.why = why
            log.warning("move %d (%s): misread: %s", index + 1, move.verb, why)
            self._fix(rows, table_moves)
        elif entered:
            result.why = "; ".join(sorted({a.why for a in actions if isinstance(a, Enter)}))
        if not why:
            result.seen = tuple(str(o.payload["zone"]) for shown in shows for o in shown.settled)
        if not why:
            table_ok, table_rules = _judged(rows)
            result.retimed = table_rules != tuple(file_verdict.rules) and table_ok == file_verdict.ok
            if table_ok != file_verdict.ok:
                result.how = How.MISREAD
                result.why = f"the table judged it {'legal' if table_ok else 'illegal'}, the game {'legal' if file_verdict.ok else 'illegal'}"
        self.report.results.append(result)
        return result

    def _wait(self, seconds: float) -> None:
        if not self.fast and seconds > 0:
            self.stop.wait(seconds / max(self.pace, 1e-6))

    def _do(self, index: int, actions: Sequence[Action]) -> tuple[list[Key], list[LogRow], list[Shown]]:
        """Do the actions at the table, then let the camera look; the readings they must make, the
        rows of entries, and what the camera showed the pipeline (each look).

        A card taken off a watched zone after another one this move was taken off is taken a moment
        later: the camera looks between the two (cards taken one by one, as a hand takes them; several
        gone at once look like a hand over the table)."""
        expected: list[Key] = []
        entries: list[LogRow] = []
        sweep: list[Take] = []
        shows: list[Shown] = []
        taken_unseen = False
        for k, action in enumerate(actions):
            if k:
                self._wait(ACTION_PACE_S)
            if not isinstance(action, Take) and sweep:
                self._sweep(sweep)
                sweep = []
            if isinstance(action, Take) and self.camera is not None and self.camera.watches(action.zone):
                if taken_unseen:
                    shows.append(self._look(expected))
                taken_unseen = True
            self.table.apply(action)  # the plan's mistakes stop here, before anything is read
            if isinstance(action, Enter):
                if expected:  # a person enters what the table has not read after its readings are judged
                    self.collector.judged(SETTLE_TIMEOUT_S)
                entries.append(self.session.process(Observation(REFEREE, time.time(), ObservationKind.MOVE, dict(action.move))))
                continue
            readers = self.readers
            if readers is None or not readers.has_reader(action.zone):
                if isinstance(action, (Put, Take, Cubes, Pawns)) and self.camera is not None and self.camera.watches(action.zone):
                    continue  # the camera sees it once the move's actions are done
                raise PlanError(f"{action}: no {'camera' if isinstance(action, (Cubes, Pawns)) else 'reader'} watches {action.zone}")
            self._claim_trailing(block=True, zone=action.zone)
            if isinstance(action, Put):
                readers.put(action.zone, action.card)
                expected.append(self._reached(("tag", action.zone, "arrive", uid_of(action.card))))
            elif isinstance(action, Take):
                readers.lift(action.zone, action.card)
                sweep.append(action)
                expected.append(("tag", action.zone, "depart", uid_of(action.card)))
            elif isinstance(action, Tap):
                readers.put(action.zone, action.card)
                readers.lift(action.zone, action.card)
                expected.append(self._reached(("tag", action.zone, "arrive", uid_of(action.card))))
                self._trailing.append((("tag", action.zone, "depart", uid_of(action.card)), index))
            elif isinstance(action, Press):
                readers.press(action.zone)
                expected.append(self._reached(("press", action.zone)))
        if sweep:
            self._sweep(sweep)
        if self.camera is not None:
            shows.append(self._look(expected))
        return expected, entries, shows

    def _look(self, expected: list[Key]) -> Shown:
        """The camera looks at the table as it is now; the views that settle are expected readings,
        waited for as a reader's are (the session reads them before what the table does next)."""
        assert self.camera is not None
        shown = self.camera.show(self.table)
        expected += [self._reached(("vision", str(o.payload["zone"]))) for o in shown.settled]
        return shown

    def _reached(self, key: Key) -> Key:
        """Wait until the reading ``key`` has reached the session before the next action: a hand at
        the table is slower than the pipeline, and readings of two arrays (two serial links) reach
        the session in the order they were made only when they are not made within its latency."""
        if not self.collector.arrived(key, SETTLE_TIMEOUT_S):
            log.warning("no reading of %s within %.0f s", " ".join(key), SETTLE_TIMEOUT_S)
        return key

    def _sweep(self, takes: Sequence[Take]) -> None:
        """Cards taken off together (a hand sweeping a pile): once the array has seen each gone."""
        assert self.readers is not None
        for take in takes:
            self.readers.gone(take.zone, take.card)

    def _claim_trailing(self, block: bool, zone: str | None = None) -> None:
        """Claim the departures of tapped cards that have come (all of them, or a zone's: waited for
        when ``block``); one that carries a move or an alert makes its own move a misread."""
        keep: list[tuple[Key, int]] = []
        for key, owner in self._trailing:
            if zone is not None and key[1] != zone:
                keep.append((key, owner))
                continue
            claimed, missing = self.collector.claim([key], owner, SETTLE_TIMEOUT_S if block else None)
            if missing:
                if block:
                    raise RunError(f"the departure of a card tapped on {key[1]} never reached the session")
                keep.append((key, owner))
                continue
            self._late(claimed[0])
        self._trailing = keep

    def _late(self, reached: Reached) -> None:
        row = reached.row()
        self._claimed_seqs.add(row.seq)
        if not _significant(row) or reached.owner is None or reached.owner < 0:
            return
        result = next((r for r in self.report.results if r.index == reached.owner), None)
        if result is not None and result.how is not How.MISREAD:
            result.how = How.MISREAD
            result.why = f"the tapped card's departure read {self._describe(row)}"

    # -- accounting ---------------------------------------------------------------------------

    def _describe(self, row: LogRow) -> str:
        if row.error is not None:
            return f"an error ({row.error})"
        if row.alert is not None:
            return f"an alert at {row.alert['zone']} ({row.alert['what']})"
        move = dict(row.move or {})
        move.pop("t", None)
        ok, rules = _rules(row.verdict)
        return f"{move} ({'legal' if ok else 'illegal: ' + ', '.join(rules)})"

    def _check(self, state: Any, table_moves: Sequence[Move], rows: Sequence[LogRow], missing: Sequence[Key]) -> str:
        """Why the rows are not the table's moves, or "" when they are."""
        if missing:
            return f"no reading of {', '.join(' '.join(k[:3]) for k in missing)}"
        wrong = [r for r in rows if r.alert is not None or r.error is not None]
        if wrong:
            return "; ".join(self._describe(r) for r in wrong)
        moves = [r for r in rows if r.move is not None and r.verdict is not None]
        if len(moves) != len(table_moves):
            read = "; ".join(self._describe(r) for r in moves) or "no move"
            return f"read {read} for {len(table_moves)} move(s)"
        for expected, row in zip(table_moves, moves):
            assert row.move is not None
            got = self.game.codec.from_json(row.move)
            want = expected.replace(t=got.t)
            v_want, after_want = self.game.play(state, want)
            v_got, after_got = self.game.play(state, got)
            same = _rules(v_want) == _rules(v_got) and (not v_want.ok or after_want == after_got)
            if not same:
                return f"read {self._describe(row)} for {self._show_move(want, v_want)}"
            if _rules(row.verdict) != _rules(v_want):
                return f"the session judged {self._describe(row)} where the rules say {self._show_move(want, v_want)}"
            state = after_got
        return ""

    def _show_move(self, move: Move, verdict: Verdict) -> str:
        data = self.game.codec.to_json(move)
        data.pop("t", None)
        return f"{data} ({'legal' if verdict.ok else 'illegal: ' + ', '.join(verdict.rules)})"

    def _fix(self, rows: Sequence[LogRow], table_moves: Sequence[Move]) -> None:
        """The referee takes back what the misreading applied and enters the table's moves."""
        applied = [r for r in rows if r.move is not None and r.verdict is not None and r.verdict.get("ok")]
        for _ in applied:
            self._claimed_seqs.add(self.session.process(Observation(REFEREE, time.time(), ObservationKind.UNDO, {})).seq)
        for move in table_moves:
            data = self.game.codec.to_json(move)
            data.pop("t", None)
            self._claimed_seqs.add(self.session.process(Observation(REFEREE, time.time(), ObservationKind.MOVE, data)).seq)

    # -- the end ------------------------------------------------------------------------------

    def close(self) -> None:
        self.watch.stop()
        if self.readers is not None:
            self.readers.close()
        self.session.stop()
        self.log.close()
