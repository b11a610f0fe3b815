"""Lights at the zones, end to end (issue 25): a table service with ``[feedback] lights = true`` and
Escape Master's readers on a simulated array over a pty (the real firmware polling simulated
readers, its LEDs recorded), the real bridge, table model and Session. Each verdict reaches the
zone's LED: a green blink (legal), red held until the card is taken back (illegal), amber while an
alert stands, a blue pulse at the hand pad of the player the game waits for."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from companion.app.config import load_config
from companion.app.table_service import TableService
from companion.core import Observation, ObservationKind
from companion.core.lights import Colour
from companion.demo.rig import uid_of
from companion.table.registry import TagRegistry
from hardware.sim.firmware_array import FirmwareArray
from tests.app.colours import amber, blue, green, red
from tests.hardware.helpers import wait_until
from tests.serving import ARRAY_ZONES

pytestmark = pytest.mark.slow

CONFIG = """
[game]
id = "escape-master"
players = ["anna", "ben"]
[game.setup]
dealer = "anna"
hands = {{ anna = ["start-1", "teen-8", "teen-9", "robot-10", "joe-J", "teen-3", "teen-4", "trap-up-1", "escape-1", "wisdom-1"], ben = ["start-2", "robot-6", "robot-5", "mouse-8", "robot-8", "doom-K", "joe-2", "escape-discard-1", "dead-end", "ninja-Q"] }}
[log]
path = "game.sqlite"
[web]
host = "127.0.0.1"
port = 0
[tags]
registry = "tags.json"
[array]
port = "{port}"
[feedback]
lights = {lights}
"""

PILE, ANNA, BEN = 0, 1, 2


def dark(c: Colour) -> bool:
    return c == (0, 0, 0)


@pytest.fixture
def array(tmp_path: Path) -> Iterator[FirmwareArray]:
    registry = TagRegistry(tmp_path / "tags.json", "escape-master")
    for card in ("start-1", "joe-2", "teen-8"):
        registry.enrol(uid_of(card), card)
    sim = FirmwareArray(3, kinds=["pile", "pad", "pad"], link=tmp_path / "array-tty", heartbeat_ms=200, leds=True)
    sim.plug()
    try:
        yield sim
    finally:
        sim.close()


def serve(tmp_path: Path, lights: bool) -> TableService:
    path = tmp_path / "table.toml"
    path.write_text((CONFIG + ARRAY_ZONES).format(port=tmp_path / "array-tty", lights="true" if lights else "false"), encoding="utf-8")
    return TableService(load_config(path), pin="12345678").start()


def seen_since(array: FirmwareArray, channel: int, since: float, shown: Callable[[Colour], bool]) -> bool:
    """The LED on ``channel`` showed a colour ``shown`` accepts at some write after ``since``."""
    return any(lit.at >= since and shown(lit.colours[channel]) for lit in array.lit())


def test_each_signal_reaches_its_zones_led(tmp_path: Path, array: FirmwareArray) -> None:
    service = serve(tmp_path, lights=True)
    try:
        bridge = service.hardware.context.links["array"].link
        wait_until(lambda: bridge.lights.leds == 3, timeout=10, what="the array to say it drives 3 LEDs")
        # Waiting: the dealer is to call Start!, so anna's hand pad pulses, and only hers.
        array.wait_colour(ANNA, blue)
        assert dark(array.colour(BEN)) and dark(array.colour(PILE))
        start = Observation("test", time.time(), ObservationKind.MOVE, {"by": "anna", "do": "start"})
        service.session.submit(start).result(10)
        array.wait_colour(ANNA, dark)  # the game waits for no one in particular now

        # Legal: anna's start card starts pile 1; a green blink there, then dark again.
        since = time.monotonic()
        array.place(PILE, uid_of("start-1"))
        wait_until(lambda: seen_since(array, PILE, since, green), timeout=10, what="the green blink at pile 1")
        array.wait_colour(PILE, dark)

        # Illegal: ben's 2 on a 7. Red, held while the card lies there, gone once it is taken back.
        array.place(PILE, uid_of("joe-2"))
        array.wait_colour(PILE, red)
        rounds = array.rounds
        wait_until(lambda: array.rounds > rounds + 20, what="20 polling rounds")
        assert red(array.colour(PILE))  # held, not blinked
        array.take(PILE, uid_of("joe-2"))
        array.wait_colour(PILE, dark)

        # An alert: a tag no one enrolled on the pile; amber there until a move read there explains it.
        array.place(PILE, "0badc0ffee0001")
        array.wait_colour(PILE, amber)
        assert [a["zone"] for a in service.session.board()["alerts"]] == ["pile-1"]
        array.take(PILE, "0badc0ffee0001")
        assert amber(array.colour(PILE))  # taking it off explains nothing: the alert stands
        since = time.monotonic()
        array.place(PILE, uid_of("teen-8"))  # anna's 8 on the 7: legal, and the alert clears
        wait_until(lambda: seen_since(array, PILE, since, green), timeout=10, what="the green blink after the alert")
        array.wait_colour(PILE, dark)
        assert service.session.board()["alerts"] == []
        assert bridge.lights.sent >= 6
    finally:
        service.stop()
    assert service.session.board()["health"].get("lights") is None  # the lights never failed


def test_lights_off_says_so_once_and_lights_nothing(tmp_path: Path, array: FirmwareArray, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="companion.app.table_service")
    service = serve(tmp_path, lights=False)
    try:
        bridge = service.hardware.context.links["array"].link
        wait_until(lambda: bridge.lights.leds == 3, timeout=10, what="the array's LED count")
        array.place(PILE, uid_of("start-1"))
        assert service.lights is None and bridge.lights.sent == 0
    finally:
        service.stop()
    said = [r for r in caplog.records if "lights: off" in r.getMessage()]
    assert len(said) == 1
    assert all(dark(lit.colours[c]) for lit in array.lit() for c in range(3))
