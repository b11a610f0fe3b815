"""The sensor runner's camera (issue 21): cubes, pawns and cards moved by a plan's actions are rendered
as the camera takes them and read by the real vision pipeline, and the settled views reach the session.

The game is the toy take-away played with counters under the camera: the counters are colour cubes
in one outlined zone, and the camera's count of them is the move (a take of the counters gone); each
player's pawn on a grid marks whose turn it is, and a peeked card lies face up on an outlined zone.
Nothing here builds an observation: every view comes from a rendered frame.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from companion.contract.sensors import Action, Cubes, Enter, Pawns, PlanDefaults, Put, Take as TakeOff
from companion.contract.spec import ExampleTable, GameSpec
from companion.core import Header, Move, ObservationKind, Unexplained, Zone, ZoneKind
from companion.core.seen import Cubes as CubesSeen, Seen, VisionSeen
from companion.core.zones import HAND_PAD, Watch
from companion.demo.account import How
from companion.demo.runner import SensorRun
from tests.toy_game.engine import Peek, State, Take, ToyGame

pytestmark = pytest.mark.slow

COUNTERS = ZoneKind("counters", camera=Watch.CUBES)
TRACK = ZoneKind("grid", camera=Watch.PAWNS)
SHOWN = ZoneKind("shown")  # a card zone the camera watches (no reader)
COLOURS = ("red", "orange", "yellow", "green", "blue")
SQ = 25.4


def rect(x: float, y: float, w: float, h: float) -> tuple[tuple[float, float], ...]:
    return ((x, y), (x + w, y), (x + w, y + h), (x, y + h))


class CountersToy(ToyGame):
    """Take-away whose counters the camera counts: fewer cubes in the counters zone is a take."""

    zone_kinds = (HAND_PAD, COUNTERS, TRACK, SHOWN)

    def interpret_table(self, state: State, seen: Seen) -> Move | Unexplained | None:
        if isinstance(seen, VisionSeen) and seen.zone.is_a(COUNTERS) and isinstance(seen.view, CubesSeen):
            gone = state.left - len(seen.view.colours)
            if gone > 0:
                return Take(by=state.players[state.turn], n=gone, t=seen.t)
            if gone < 0:
                return Unexplained(seen.zone.name, "more counters than are left", "take the extra ones away")
        return None


def counters(left: int) -> tuple[str, ...]:
    return tuple(COLOURS[k % len(COLOURS)] for k in range(left))


def pawns(state: State) -> dict[str, tuple[int, int]]:
    """Each player's pawn on their own row: the one whose turn it is stands on column 1 + left % 8."""
    return {p: ((1 + state.left % 8) if k == state.turn else 1, k + 1) for k, p in enumerate(state.players)}


class CountersPlan(PlanDefaults):
    def layout(self, players: Sequence[str]) -> tuple[Zone, ...]:
        return (
            Zone("counters", COUNTERS, polygon=rect(100, 100, 160, 120)),
            Zone("track", TRACK, polygon=rect(300, 90, 8 * SQ, 6 * SQ)),
            Zone("shown", SHOWN, polygon=rect(100, 260, 77, 102)),
        )

    def setup(self, state: Any) -> Sequence[Action]:
        return (Cubes("counters", counters(state.left)), Pawns("track", pawns(state)))

    def actions(self, state: Any, move: Move, after: Any, legal: bool) -> Sequence[Action]:
        if isinstance(move, Peek) or not legal:
            peeked: list[Action] = [Enter(GAME.codec.to_json(move), "a secret look, or a take refused")]
            if isinstance(move, Peek) and legal and not state.secrets:
                peeked.append(Put("shown", "ace-of-peeks"))  # the first card peeked is laid face up
            elif isinstance(move, Peek) and legal and len(state.secrets) == 1:
                peeked.append(TakeOff("shown", "ace-of-peeks"))
            return peeked
        return (Cubes("counters", counters(after.left)), Pawns("track", pawns(after)))


GAME = CountersToy()


def example(rng: random.Random) -> ExampleTable:
    return ExampleTable(Header(GAME.id, ("anna", "ben"), {}, {}))


SPEC = GameSpec(game=GAME, package="tests.toy_game", example=example, playout=lambda *a, **k: (Header(GAME.id, ("anna", "ben"), {}, {}), []), sensors=CountersPlan())


def test_the_camera_counts_the_counters_and_sees_the_pawns_and_the_card(tmp_path: Path) -> None:
    header = Header(GAME.id, ("anna", "ben", "cleo"), {"pile": 9}, {})
    moves = [Take(by="anna", n=2), Peek(by="ben", card="ace"), Take(by="ben", n=3), Take(by="cleo", n=1),
             Peek(by="anna", card="king"), Take(by="anna", n=1), Take(by="ben", n=2), Take(by="cleo", n=1)]
    # the last take is refused (none left): entered, and nothing on the table changes
    run = SensorRun(SPEC, header, tmp_path / "run", fast=True)
    try:
        report = run.play(moves, header)
        rows = list(run.log.rows(after=1))
    finally:
        run.close()
    lines = "\n".join(report.lines())
    assert report.misread == 0, lines
    assert [r.how for r in report.results] == [How.SENSORS, How.ENTERED, How.SENSORS, How.SENSORS, How.ENTERED, How.SENSORS, How.SENSORS, How.ENTERED], lines
    assert report.share == 5 / 8 and report.watched == 3
    # each take: the counters and the pawns confirmed; the peeks: the card laid, then taken up
    assert [r.seen for r in report.results] == [("counters", "track")] + [("shown",)] + [("counters", "track")] * 2 + [("shown",)] + [("counters", "track")] * 2 + [()], lines
    assert report.confirmed == 7 and "the camera confirmed 7 moves" in lines
    views = [(r.payload["zone"], r.payload["state"]) for r in rows if r.kind == ObservationKind.VISION.value]
    # the table as laid, then each move's views, each as the table shows it
    assert dict(views[:3]) == {"counters": {"cubes": ["red", "red", "orange", "orange", "yellow", "yellow", "green", "green", "blue"]},
                               "track": {"pawns": {"anna": [2, 1], "ben": [1, 2], "cleo": [1, 3]}},
                               "shown": {"occupied": False}}
    counts = [len(state["cubes"]) for zone, state in views if zone == "counters"]
    assert counts == [9, 7, 4, 3, 2, 0]
    cards = [state["occupied"] for zone, state in views if zone == "shown"]
    assert cards == [False, True, False]
    assert ("track", {"pawns": {"anna": [1, 1], "ben": [1, 2], "cleo": [1 + 4 % 8, 3]}}) in views
    takes = [r for r in rows if r.move is not None and r.move["do"] == "take" and r.kind == ObservationKind.VISION.value]
    assert [m.move["n"] for m in takes if m.move is not None] == [2, 3, 1, 1, 2]
    assert all(r.alert is None and r.error is None for r in rows)
