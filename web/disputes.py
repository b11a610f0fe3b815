"""The dispute view's states, cheaply (issue 15, item 4).

``/api/log/<seq>`` shows the state before and after a row. Replaying the whole log for each request
(under the log's lock) made one request cost a second on a long game. Here rows are folded (with the
session's own :func:`companion.log.fold.step`) from snapshots: the folded game is kept every
:data:`SNAPSHOT_EVERY` rows, and recent answers are kept in a small LRU, so a request folds at most
:data:`SNAPSHOT_EVERY` rows. Snapshots are made by
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
from companion.log.fold import Folded, folds
from companion.referee.session import Session

log = logging.getLogger(__name__)

SNAPSHOT_EVERY = 128
"""Rows between two kept snapshots: the most a dispute request folds."""
ANSWERS_KEPT = 256
"""(before, after) pairs kept for rows asked about recently."""


class DisputeStates:
    """States around any log row, folded from snapshots."""

    def __init__(self, session: Session, every: int = SNAPSHOT_EVERY) -> None:
        self.session = session
        self.every = every
        self._snapshots: dict[int, Folded] = {}
        self._seqs: list[int] = []
        self._answers: OrderedDict[int, tuple[Any, Any]] = OrderedDict()
        self._lock = threading.Lock()
        self.replayed = 0
        """Rows folded in all, for tests and the benchmark."""

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
        rows = list(session.log.rows(after=base_seq, limit=max(seq - base_seq, 0)))
        if not rows or rows[-1].seq != seq:
            raise LogError(f"{session.log.path}: there is no row {seq}")
        # Fold on from the snapshot, keeping the game at each snapshot boundary passed on the way.
        made: dict[int, Folded] = {}
        current = base if base is not None else Folded.start(session.game, session.header)
        before = current.state
        for row, current in folds(session.game, current, rows):
            self.replayed += 1
            if row.seq % self.every == 0:
                made[row.seq] = current
            if row.seq == seq - 1:
                before = current.state
        pair: tuple[Any, Any] = (before, current.state)
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
