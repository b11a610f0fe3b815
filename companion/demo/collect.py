"""Which observations each move's actions made: every observation the readers and the camera hand the
session passes through a :class:`Collector`, and the runner claims, move by move, the ones its actions
must have made (a card arriving at a reader, leaving it, a button pressed, a view settled). What no
action explains is a stray, laid at the door of the move being played."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import Future
from dataclasses import dataclass

from companion.core import Observation, ObservationKind
from companion.log.store import LogRow

Key = tuple[str, ...]
"""What an observation is, for matching: (kind, zone[, event, uid])."""


def key_of(observation: Observation) -> Key:
    payload = observation.payload
    zone = str(payload.get("zone"))
    if observation.kind is ObservationKind.TAG:
        return ("tag", zone, str(payload.get("event")), str(payload.get("uid")))
    return (observation.kind.value, zone)


@dataclass
class Reached:
    """An observation that reached the session, and the row it will become."""

    key: Key
    observation: Observation
    future: Future[LogRow]
    owner: int | None = None
    """The move (its index in the game) it is laid to."""

    def row(self, timeout: float = 30.0) -> LogRow:
        return self.future.result(timeout)


class Collector:
    """The sink the readers and the camera are given: passes each observation on to ``submit`` and
    keeps it, to be claimed by the move that made it. Called from any thread."""

    def __init__(self, submit: Callable[[Observation], Future[LogRow]]) -> None:
        self._submit = submit
        self._cond = threading.Condition()
        self._free: list[Reached] = []

    def __call__(self, observation: Observation) -> Future[LogRow]:
        future = self._submit(observation)
        with self._cond:
            self._free.append(Reached(key_of(observation), observation, future))
            self._cond.notify_all()
        return future

    def claim(self, keys: Iterable[Key], owner: int, timeout: float | None) -> tuple[list[Reached], list[Key]]:
        """For each key, the oldest unclaimed observation with it, now laid to ``owner``; waits up to
        ``timeout`` seconds for those not yet there (None: does not wait). Returns what was claimed
        and the keys still missing."""
        wanted = list(keys)
        claimed: list[Reached] = []
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            while True:
                still: list[Key] = []
                for key in wanted:
                    found = next((r for r in self._free if r.key == key), None)
                    if found is None:
                        still.append(key)
                        continue
                    self._free.remove(found)
                    found.owner = owner
                    claimed.append(found)
                wanted = still
                if not wanted or deadline is None:
                    return claimed, wanted
                left = deadline - time.monotonic()
                if left <= 0:
                    return claimed, wanted
                self._cond.wait(min(left, 0.05))

    def arrived(self, key: Key, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds until an unclaimed observation with ``key`` has reached the
        session (it stays unclaimed); whether one has."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while not any(r.key == key for r in self._free):
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(min(left, 0.05))
            return True

    def judged(self, timeout: float) -> None:
        """Wait until every observation handed on so far and not yet claimed has its row (the session
        has judged it), up to ``timeout`` seconds each."""
        with self._cond:
            futures = [r.future for r in self._free]
        for future in futures:
            future.result(timeout)

    def strays(self, owner: int, keep: Iterable[Key] = ()) -> list[Reached]:
        """Every unclaimed observation but those with a key in ``keep`` (still expected), laid to ``owner``."""
        waiting = set(keep)
        with self._cond:
            out = [r for r in self._free if r.key not in waiting]
            self._free = [r for r in self._free if r.key in waiting]
        for reached in out:
            reached.owner = owner
        return out
