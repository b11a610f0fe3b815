"""The dispute view's states, cheaply (issue 15, item 4).

``/api/log/<seq>`` shows the state before and after a row. Replaying the whole log for each request
(under the log's lock) made one request cost a second on a long game. Here states are rebuilt from
snapshots: the replay state is kept every :data:`SNAPSHOT_EVERY` rows, and recent answers are kept
in a small LRU, so a request replays at most :data:`SNAPSHOT_EVERY` rows. Snapshots are made by
the requests that need them, never on the session's write path; the dispute view is rate-limited
too (``web.limits.DISPUTE_RATE``).
"""

from __future__ import annotations

import bisect
import logging
import threading
from collections import OrderedDict
from typing import Any

from flask import Flask

from companion.core.errors import LogError
from companion.log.store import LogRow
from companion.log.history import Rebuilt, rebuild
from companion.referee.session import Session

log = logging.getLogger(__name__)

SNAPSHOT_EVERY = 128
"""Rows between two kept replay states: the most a dispute request replays."""
ANSWERS_KEPT = 256
"""(before, after) pairs kept for rows asked about recently."""


class DisputeStates:
    """States around any log row, from snapshots of the replay."""

    def __init__(self, session: Session, every: int = SNAPSHOT_EVERY) -> None:
        self.session = session
        self.every = every
        self._snapshots: dict[int, Rebuilt] = {}
        self._seqs: list[int] = []
        self._answers: OrderedDict[int, tuple[Any, Any]] = OrderedDict()
        self._lock = threading.Lock()
        self.replayed = 0
        """Rows replayed in all, for tests and the benchmark."""

    def around(self, seq: int) -> tuple[Any, Any]:
        """The game state just before and just after row ``seq`` (``LogError`` if there is none)."""
        with self._lock:
            if seq in self._answers:
                self._answers.move_to_end(seq)
                return self._answers[seq]
            i = bisect.bisect_right(self._seqs, seq - 1) - 1
            base_seq = self._seqs[i] if i >= 0 else 1
            base = self._snapshots.get(base_seq)
        session = self.session
        if seq == 1:
            state = session.game.new_state(session.header)
            return state, state
        found: dict[str, Any] = {}
        made: dict[int, Rebuilt] = {}
        rows = list(session.log.rows(after=base_seq, limit=max(seq - base_seq, 0)))
        if not rows or rows[-1].seq != seq:
            raise LogError(f"{session.log.path}: there is no row {seq}")

        def watch(row: LogRow, before: Any, after: Any) -> None:
            if row.seq == seq:
                found["pair"] = (before, after)

        # Replay in stretches that end on snapshot boundaries, keeping each boundary's state.
        current = base
        start_seq = base_seq
        while rows:
            boundary = (start_seq // self.every + 1) * self.every
            stretch = [r for r in rows if r.seq <= boundary]
            rows = rows[len(stretch) :]
            current = rebuild(session.game, session.header, stretch, watch, start=current)
            self.replayed += len(stretch)
            if stretch and stretch[-1].seq == boundary:
                made[boundary] = current
            start_seq = stretch[-1].seq
        pair: tuple[Any, Any] = found["pair"]
        with self._lock:
            for at, snap in made.items():
                if at not in self._snapshots:
                    self._snapshots[at] = snap
                    bisect.insort(self._seqs, at)
            self._answers[seq] = pair
            while len(self._answers) > ANSWERS_KEPT:
                self._answers.popitem(last=False)
        return pair


def dispute_states(app: Flask) -> DisputeStates:
    states: DisputeStates = app.extensions["dispute_states"]
    return states


def init_app(app: Flask, session: Session) -> None:
    app.extensions["dispute_states"] = DisputeStates(session)
