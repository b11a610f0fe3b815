"""Lights at the zones in every game with readers (issue 25's done-when): each game's own table
(its sensor plan's layout) on simulated reader arrays running the real firmware with their LEDs
recorded, the real bridges and table model, the Session, and the zones' lights attached as
``companion serve`` attaches them. One of the game's rules is played at the table through the
plan's own actions (companion/demo/runner.py): its refused move (then put right, as the verdict's
fix says) and its allowed move, from the same position; then a tag no one enrolled is laid there.

Each verdict reaches its zone's LED: red for every refusal at a zone with an LED, a green blink for
the legal move at its zone, amber for the alert, and a blue pulse at the hand pad of each player the
game waits for then (where that position waits for no one in particular, at a position of the game's
rule cases that does). (That an L frame is lit in the polling round it arrives is tests/firmware/test_leds.py's;
how long it takes is bench/lights.py's.)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from companion.app.lights import TableLights, array_channel
from companion.contract.spec import GameSpec
from companion.core import Zone
from companion.core.lights import Colour
from companion.core.zones import HAND_PAD
from companion.demo.runner import SensorRun
from companion.games import get_spec, specs
from companion.log.store import LogRow
from hardware.sim.firmware_array import FirmwareArray
from tests.games.scenes import scene
from tests.app.colours import amber, blue, green, red
from tests.hardware.helpers import wait_until
from tests.rulecases.cases import RuleCase, cases_file, read_cases

pytestmark = pytest.mark.slow

PLAYED: dict[str, str] = {spec.id: rule for spec in specs().values() if (rule := scene(spec).lights_rule) is not None}
"""Each game with readers on an array, and the rule played at its table (``lights_rule`` of the game's
tests/games/<package>_scenes.py)."""


def cases(spec: GameSpec, rule: str) -> tuple[RuleCase, RuleCase]:
    game = spec.game
    read = [c for c in read_cases(game, cases_file(game.id)) if c.rule == rule]
    same = [(i, l) for i in read if i.expect == "illegal" for l in read if l.expect == "legal"
            and l.header.to_json() == i.header.to_json() and l.moves == i.moves]
    assert same, f"{rule} has no illegal and legal case from one position"
    return same[0]


class Seen:
    """An LED's writes, read from its simulated array."""

    def __init__(self, run: SensorRun, zone: Zone) -> None:
        at = array_channel(zone)
        assert at is not None and run.readers is not None
        self.array: FirmwareArray = run.readers.arrays[at.array]
        self.channel = at.channel

    def since(self, at: float, shown: Callable[[Colour], bool]) -> bool:
        return any(lit.at >= at and shown(lit.colours[self.channel]) for lit in self.array.lit())


@pytest.mark.parametrize("game_id", sorted(PLAYED))
def test_each_verdict_reaches_its_zones_led_at_the_games_own_table(game_id: str, tmp_path: Path) -> None:
    spec = get_spec(game_id)
    illegal, legal = cases(spec, PLAYED[game_id])
    run = SensorRun(spec, illegal.header, tmp_path / "run", leds=True)
    boards: dict[int, Any] = {}  # row -> the board after its batch
    pads: dict[str | None, Zone] = {}
    lights: TableLights | None = None

    def boards_after(rows: Any, board: Any) -> None:
        boards.update((row.seq, board) for row in rows)

    try:
        assert run.readers is not None
        for name in run.readers.arrays:
            bridge = run.readers.readers.context.links["array" if not name else f"array:{name}"].link
            wait_until(lambda b=bridge: b.lights.leds, timeout=15, what=f"array {name or 'table'} to say how many LEDs it drives")
        lights = TableLights.for_readers(run.zones, run.readers.readers)
        assert lights.zones
        run.session.subscribe(boards_after)
        lights.attach(run.session)
        start_seq = run.session.log.last_seq
        report = run.play([*illegal.moves, illegal.move, legal.move], illegal.header)
        assert not report.setup_misread
        rows = [r for r in run.log.rows(after=start_seq) if r.payload.get("zone") in lights.zones and r.verdict is not None]
        lit = {z.name: z for z in run.zones if z.name in lights.zones}

        refused = [r for r in rows if r.verdict and r.verdict.get("ok") is False]
        assert refused, "the refusal was read at a zone with an LED"
        for row in refused:
            wait_until(lambda row=row: Seen(run, lit[row.payload["zone"]]).since(row.mono_time, red), timeout=10,
                       what=f"red at {row.payload['zone']} for row {row.seq}")
        allowed = [r for r in rows if r.verdict and r.verdict.get("ok") is True and not _lasting(lights, r, boards[r.seq])]
        assert allowed, "a legal move was read at a zone with an LED and nothing lasting to show"
        for row in allowed:
            wait_until(lambda row=row: Seen(run, lit[row.payload["zone"]]).since(row.mono_time, green), timeout=10,
                       what=f"the green blink at {row.payload['zone']} for row {row.seq}")

        # An alert: a tag no one enrolled, laid at the zone of the legal move.
        zone = lit[allowed[-1].payload["zone"]]
        seen = Seen(run, zone)
        seen.array.place(seen.channel, "0badc0ffee0025")
        wait_until(lambda: amber(seen.array.colour(seen.channel)), timeout=10,
                   what=f"amber at {zone.name}")

        # Waiting: the hand pad of each player the game waits for now pulses blue (one it waited for
        # only a moment may never have been lit: a light replaced before it was sent is stale, dropped).
        board = run.session.board()
        alerted = {a["zone"] for a in board["alerts"]}
        waiting = {p["who"] for p in board["prompts"]}
        pads = {z.player: z for z in lit.values() if z.kind == HAND_PAD and z.player in waiting and z.name not in alerted}
        for player, pad in pads.items():
            at = Seen(run, pad)
            wait_until(lambda at=at: blue(at.array.colour(at.channel)), timeout=10, what=f"the blue pulse at {player}'s hand pad")
        assert lights.failures == 0
    finally:
        if lights is not None:
            lights.detach()
        run.close()
    if not pads:  # this position waits for no one in particular: one that does, at the same table
        assert_pulse_where_the_game_waits(spec, tmp_path / "waiting")


def waiting_case(spec: GameSpec) -> RuleCase:
    """The first rule case whose position (before its move) waits for a player with a hand pad on an array."""
    game, plan = spec.game, spec.sensors
    assert plan is not None
    for case in read_cases(game, cases_file(game.id)):
        state = game.new_state(case.header)
        for move in case.moves:
            state = game.apply(state, move)
        pads = {z.player for z in plan.layout(case.header.players) if z.kind == HAND_PAD and array_channel(z) is not None}
        if any(p.who in pads for p in game.prompts(state)):
            return case
    raise AssertionError(f"{game.id}: no rule case waits for a player with a hand pad")


def assert_pulse_where_the_game_waits(spec: GameSpec, folder: Path) -> None:
    case = waiting_case(spec)
    run = SensorRun(spec, case.header, folder, leds=True)
    lights: TableLights | None = None
    try:
        assert run.readers is not None
        lights = TableLights.for_readers(run.zones, run.readers.readers)
        lights.attach(run.session)
        run.play(list(case.moves), case.header)
        waiting = {p["who"] for p in run.session.board()["prompts"]}
        pads = [z for z in run.zones if z.kind == HAND_PAD and z.player in waiting and z.name in lights.zones]
        assert pads, f"{spec.id}: the position of {case.rule} ({case.where()}) waits for {sorted(map(str, waiting))}"
        for pad in pads:
            seen = Seen(run, pad)
            wait_until(lambda seen=seen: blue(seen.array.colour(seen.channel)), timeout=15, what=f"the blue pulse at {pad.name}")
    finally:
        if lights is not None:
            lights.detach()
        run.close()


def _lasting(lights: TableLights, row: LogRow, board: Any) -> bool:
    """Did the zone of ``row`` have a lasting light to show after it (the pulse of a player the game
    waits for, an alert), which a legal move's blink does not put out?"""
    zone = lights.signals.zones[row.payload["zone"]]
    waiting = {p.get("who") for p in board.get("prompts") or ()}
    alerted = {a.get("zone") for a in board.get("alerts") or ()}
    return (zone.kind == HAND_PAD and zone.player in waiting) or zone.name in alerted


def test_every_game_with_array_readers_is_played_here() -> None:
    missing = []
    for spec in specs().values():
        plan = spec.sensors
        players = spec.example(random.Random(1)).header.players
        if plan is not None and any(array_channel(z) is not None for z in plan.layout(players)) and spec.id not in PLAYED:
            missing.append(spec.id)
    assert not missing, f"games with array readers whose lights are not tested end to end here: {missing}"
