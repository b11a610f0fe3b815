"""The simulators the demo uses: a scripted array through the real bridge, the tag emulator's tag."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.core import Observation, Zone
from companion.core.zones import HAND_PAD, PILE
from companion.table.model import TableModel
from companion.table.registry import TagRegistry
from hardware.bridge import ArrayBridge
from hardware.health import HealthBoard
from hardware.sim.script import ScriptedArray, ScriptEvent
from hardware.sim.tag_emulator import answer, tag_memory
from tests.hardware.helpers import wait_until

RED7, BLUE3 = "0a1b2c3d4e5f60", "c0ffee01"


def test_a_scripted_game_drives_the_table_through_the_real_bridge(tmp_path: Path) -> None:
    registry = TagRegistry(tmp_path / "tags.json", "escape-master")
    registry.enrol(RED7, "red-7")
    registry.enrol(BLUE3, "blue-3")
    zones = [Zone("pile-1", PILE, index=1, reader="array:0"), Zone("hand-ben", HAND_PAD, player="ben", reader="array:1")]
    script: list[ScriptEvent] = [
        (0.0, 1, BLUE3, "arrive"),  # dealt to ben
        (0.05, 1, BLUE3, "depart"),
        (0.05, 0, RED7, "arrive"),
        (0.05, 0, BLUE3, "arrive"),
    ]
    observations: list[Observation] = []
    health = HealthBoard()
    table = TableModel(zones, registry, observations.append, health=health, debounce_s=0.02)
    with ScriptedArray(script, channels=2, link=tmp_path / "array", heartbeat_s=0.2) as sim:
        bridge = ArrayBridge(sim.port, table.reader_event, health)
        bridge.start()
        try:
            wait_until(lambda: health.status("array")["status"] == "ok", what="the bridge to open the pty")
            sim.start()
            assert sim.wait(10)
            wait_until(lambda: len(observations) == 4, what="the four observations")
        finally:
            bridge.stop()
            table.stop()
    assert sim.played == 4
    # Each zone's events come in the order they happened, each with its own table time. Across zones a
    # held departure may be delivered after another reader's later arrival (companion/table/debounce.py):
    # a busy machine delivered the hand's departure after the pile's arrivals of the same moment.
    by_zone: dict[str, list[tuple[str, str]]] = {}
    for o in observations:
        by_zone.setdefault(o.payload["zone"], []).append((o.payload["event"], o.payload["card"]))
    assert by_zone == {
        "hand-ben": [("arrive", "blue-3"), ("depart", "blue-3")],
        "pile-1": [("arrive", "red-7"), ("arrive", "blue-3")],
    }
    for zone in by_zone:
        times = [o.table_time for o in observations if o.payload["zone"] == zone]
        assert times == sorted(times), (zone, times)


@pytest.mark.parametrize(
    "bad",
    [[(-1.0, 0, RED7, "arrive")], [(0.0, 5, RED7, "arrive")], [(0.0, 0, RED7, "vanish")]],
    ids=["negative delay", "no such channel", "unknown event"],
)
def test_a_bad_script_is_refused_before_it_plays(bad: list[ScriptEvent]) -> None:
    with pytest.raises(ValueError, match="script line 0"):
        ScriptedArray(bad, channels=2)


def test_the_emulated_tag_answers_read_with_its_uid_and_nothing_else() -> None:
    memory = tag_memory(bytes.fromhex(RED7))
    page0 = answer(memory, b"\x30\x00")
    assert page0 is not None and len(page0) == 16
    assert page0[:3] == bytes.fromhex(RED7)[:3] and page0[3] == 0x88 ^ 0x0A ^ 0x1B ^ 0x2C  # BCC0
    assert page0[12:14] == b"\xe1\x10"  # capability container: an NDEF tag
    assert answer(memory, b"\x30\x0f") == (memory + memory)[60:76]  # reads wrap round
    assert answer(memory, b"\x60") is None  # GET_VERSION: not an NXP tag, stays silent
