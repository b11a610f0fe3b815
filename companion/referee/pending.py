"""Moves the table began and never finished become one alert each (issue 21).

The first card of two put down (an Escape Master half combination, say) is a pending move
(``Game.pending``). A table that leaves one unfinished longer than the timeout is told once: the
referee logs one alert row naming the zone, what is missing and the fix; it stands until the move is
finished, taken back or gone with the round (the fold clears it: :mod:`companion.log.fold`).

:class:`PendingWatch` looks in its own thread, on a snapshot of the game, and hands an alert to the
session's queue like any observation: the session's one path is neither blocked nor slowed (a look
costs one ``Game.pending`` call, outside the session's lock). The timeout is table time, the clock
person entries and readers stamp with (``[referee] pending_timeout_s`` in the table config).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from companion.contract.sensors import Pending
from companion.core import Observation, ObservationKind
from companion.referee.session import PENDING_SOURCE, Session

log = logging.getLogger(__name__)

DEFAULT_TIMEOUT_S = 5.0
"""How long a move may stay unfinished before the table is told (a second card is put down within
a second or two; a player who changed their mind takes the first one back as fast)."""
LOOK_EVERY_S = 0.5


def pending_note(pending: Pending, now: float) -> Observation:
    """The observation that raises, at table time ``now``, the alert for ``pending`` (the session
    checks it still stands)."""
    return Observation(PENDING_SOURCE, now, ObservationKind.NOTE, {"pending": {"zone": pending.zone, "since": pending.since}})


class PendingWatch:
    """Raises the alert for each move left unfinished longer than ``timeout_s``, once.

    ``session_of`` gives the session of the game on the table now (a table may start a new game)."""

    def __init__(self, session_of: Callable[[], Session], timeout_s: float = DEFAULT_TIMEOUT_S, every_s: float = LOOK_EVERY_S) -> None:
        if not timeout_s > 0:
            raise ValueError(f"the pending timeout must be above 0 seconds, not {timeout_s!r}")
        self._session_of = session_of
        self.timeout_s = timeout_s
        self.every_s = every_s
        self._sent: set[tuple[str, float]] = set()
        self._session: Session | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def look(self) -> list[Pending]:
        """One look: the unfinished moves whose alert goes to the session now."""
        session = self._session_of()
        if session is not self._session:  # a new game: nothing of the last one is pending
            self._session, self._sent = session, set()
        now = session.clock.wall()
        due = [p for p in session.overdue(now, self.timeout_s) if (p.zone, p.since) not in self._sent]
        for pending in due:
            self._sent.add((pending.zone, pending.since))
            log.info("%s: %s, pending since %.3f; alert raised", pending.zone, pending.what, pending.since)
            session.submit(pending_note(pending, now))
        return due

    def _run(self) -> None:
        while not self._stop.wait(self.every_s):
            try:
                self.look()
            except Exception:  # the watch must not die with one bad look; the trace is kept
                log.exception("looking for unfinished moves failed")

    def start(self) -> "PendingWatch":
        if self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name="pending-watch", daemon=True)
            self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.join(timeout)
