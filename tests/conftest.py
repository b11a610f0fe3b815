"""Shared fixtures: a real log on disk, a session of the toy game, a clock the test controls."""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

# The toy game is a real game package kept with the tests; the registry finds it like any other.
os.environ["COMPANION_GAMES"] = ",".join(filter(None, [os.environ.get("COMPANION_GAMES", ""), "tests.toy_game"]))

from companion.core import Header, Observation, ObservationKind  # noqa: E402 (after the registry is told)
from companion.log.store import GameLog
from companion.referee.session import Session
from tests.serving import Served, serve
from tests.toy_game import GAME as TOY


class StepClock:
    """Wall and monotonic time that advance by one millisecond per reading."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self._ticks = itertools.count()
        self.start = start

    def wall(self) -> float:
        return self.start + next(self._ticks) / 1000

    def mono(self) -> float:
        return next(self._ticks) / 1000


class TableClock:
    """The session's clock, moved by the test: table time and monotonic time alike (``t``)."""

    def __init__(self, t: float) -> None:
        self.t = t

    def wall(self) -> float:
        return self.t

    def mono(self) -> float:
        return self.t


TOY_HEADER = Header("toy", ("anna", "ben"), {"pile": 7}, {})


def move(payload: dict[str, object], t: float = 100.0, source: str = "test") -> Observation:
    return Observation(source, t, ObservationKind.MOVE, payload)


@pytest.fixture
def log_path(tmp_path: Path) -> Path:
    return tmp_path / "game.sqlite"


@pytest.fixture
def toy_session(log_path: Path) -> Iterator[Session]:
    game_log = GameLog(log_path)
    session = Session(TOY, game_log, TOY_HEADER, clock=StepClock())
    yield session
    session.stop()
    game_log.close()


@pytest.fixture
def served(toy_session: Session) -> Iterator[Served]:
    """The toy game's session behind the real web server on a free loopback port (PIN 123456)."""
    running = serve(toy_session)
    yield running
    running.web.close()

