"""The array bridge over a pseudo-terminal pair, against a simulated array that misbehaves."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from companion.core.readers import ReaderEvent
from hardware.bridge import ArrayBridge
from hardware.health import Backoff, HealthBoard, Status
from hardware.sim.array import SimulatedArray
from tests.hardware.helpers import wait_until

UID_A = "0a1b2c3d4e5f60"
UID_B = "c0ffee01"


@dataclass
class Rig:
    sim: SimulatedArray
    bridge: ArrayBridge
    health: HealthBoard
    events: list[ReaderEvent] = field(default_factory=list)
    reports: list[tuple[str, dict[str, Any]]] = field(default_factory=list)

    def status(self, reader: str) -> str:
        return str(self.health.status(reader)["status"])

    def count(self, reader: str, counter: str) -> int:
        return int(self.health.status(reader).get(counter, 0))

    def wait_events(self, n: int) -> list[tuple[str, str, str]]:
        wait_until(lambda: len(self.events) >= n, what=f"{n} events (have {self.events})")
        return [(e.event, e.reader, e.uid) for e in self.events]


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[Rig]:
    lock = threading.Lock()
    reports: list[tuple[str, dict[str, Any]]] = []

    def on_health(reader: str, status: dict[str, Any]) -> None:
        with lock:
            reports.append((reader, status))

    health = HealthBoard(on_health)
    sim = SimulatedArray(4, link=tmp_path / "array", heartbeat_s=0.1)
    sim.plug()
    events: list[ReaderEvent] = []
    bridge = ArrayBridge(sim.port, events.append, health, silent_after_s=0.5, backoff=Backoff(0.05, 0.2))
    rig = Rig(sim, bridge, health, events, reports)
    bridge.start()
    try:
        wait_until(lambda: rig.status("array") == "ok", what="the bridge to open the port")
        # A heartbeat has come through: the channels are known and sequence numbers are tracked.
        wait_until(lambda: all(rig.status(f"array:{ch}") == "ok" for ch in range(4)), what="every channel ok")
        yield rig
    finally:
        bridge.stop()
        sim.close()
    assert not bridge.running


def test_arrivals_and_departures_come_through_in_order(rig: Rig) -> None:
    rig.sim.arrive(1, UID_A)
    rig.sim.arrive(2, UID_B)
    rig.sim.depart(1, UID_A)
    assert rig.wait_events(3) == [("arrive", "array:1", UID_A), ("arrive", "array:2", UID_B), ("depart", "array:1", UID_A)]
    times = [e.table_time for e in rig.events]
    assert times == sorted(times)
    assert times[-1] <= time.time()


def test_device_clock_spacing_is_kept(rig: Rig) -> None:
    # Heartbeats have taught the bridge the offset; two plays 3 ms apart on the array's clock
    # arrive in one read, yet stay 3 ms apart.
    now = rig.sim.ms
    rig.sim.arrive(0, UID_A, ms=now - 10)
    rig.sim.arrive(3, UID_B, ms=now - 7)
    rig.wait_events(2)
    assert rig.events[1].table_time - rig.events[0].table_time == pytest.approx(0.003, abs=1e-5)


def test_channels_named_in_the_config_are_reported_before_the_array_speaks(tmp_path: Path) -> None:
    health = HealthBoard()
    bridge = ArrayBridge(str(tmp_path / "nothing"), lambda e: None, health, channels=[0, 5])
    assert health.status("array:5")["status"] == "reconnecting"
    assert health.status("array:1")["detail"] == "never reported"
    assert bridge.frames == 0


def test_garbage_and_cut_lines_are_counted_and_skipped(rig: Rig) -> None:
    rig.sim.garbage()
    rig.sim.cut_next()
    rig.sim.arrive(0, UID_A)  # cut in half: lost
    rig.sim.arrive(1, UID_B)  # runs into the cut line: recovered
    rig.sim.send_raw(b"MPY: soft reboot\r\n")
    rig.sim.depart(1, UID_B)
    assert rig.wait_events(2) == [("arrive", "array:1", UID_B), ("depart", "array:1", UID_B)]
    assert rig.count("array", "bad_frames") == 3  # the noise, the cut frame, the boot message
    assert rig.count("array", "gaps") == 1  # the cut frame's sequence number never arrived whole


def test_noise_without_a_newline_is_dropped(rig: Rig) -> None:
    rig.sim.send_raw(b"x" * 300)
    rig.sim.send_raw(b"\n")
    rig.sim.arrive(2, UID_A)
    assert rig.wait_events(1) == [("arrive", "array:2", UID_A)]
    assert rig.count("array", "bad_frames") >= 1


def test_a_duplicate_frame_is_skipped_and_counted(rig: Rig) -> None:
    rig.sim.arrive(0, UID_A)
    rig.sim.repeat_last()
    rig.sim.depart(0, UID_A)
    assert rig.wait_events(2) == [("arrive", "array:0", UID_A), ("depart", "array:0", UID_A)]
    wait_until(lambda: rig.count("array", "duplicates") == 1, what="the duplicate to be counted")
    assert len(rig.events) == 2


def test_a_gap_is_counted_and_what_follows_still_comes(rig: Rig) -> None:
    rig.sim.arrive(0, UID_A)
    rig.sim.skip(5)
    rig.sim.arrive(1, UID_B)
    assert rig.wait_events(2) == [("arrive", "array:0", UID_A), ("arrive", "array:1", UID_B)]
    assert rig.count("array", "gaps") == 5


def test_a_reader_the_array_cannot_reach_is_down_and_comes_back(rig: Rig) -> None:
    wait_until(lambda: rig.status("array:2") == "ok", what="array:2 ok")
    rig.sim.fail_reader(2)
    wait_until(lambda: rig.status("array:2") == "down", what="array:2 down")
    assert "channel 2" in rig.health.status("array:2")["detail"]
    assert rig.status("array:1") == "ok" and rig.status("array") == "ok"
    rig.sim.fail_reader(2, failed=False)
    wait_until(lambda: rig.status("array:2") == "ok", what="array:2 ok again")


def test_a_silent_link_is_reported_and_recovers(rig: Rig) -> None:
    rig.sim.quiet()
    wait_until(lambda: rig.status("array") == "silent", what="the link to go silent")
    assert rig.status("array:0") == "silent"
    rig.sim.quiet(False)
    wait_until(lambda: rig.status("array") == "ok", what="the link to recover")
    wait_until(lambda: rig.status("array:0") == "ok", what="array:0 back from the heartbeat")


def test_an_unplugged_array_is_reconnected(rig: Rig) -> None:
    rig.sim.arrive(0, UID_A)
    rig.wait_events(1)
    rig.sim.unplug()
    wait_until(lambda: rig.status("array") == "reconnecting", what="reconnecting")
    assert rig.status("array:0") == "reconnecting"
    rig.sim.plug()
    wait_until(lambda: rig.status("array") == "ok", what="reconnected")
    rig.sim.arrive(3, UID_B)
    assert rig.wait_events(2)[-1] == ("arrive", "array:3", UID_B)
    assert rig.count("array", "reconnects") == 1
    statuses = [s["status"] for reader, s in rig.reports if reader == "array"]
    assert statuses[-1] == "ok" and "reconnecting" in statuses[statuses.index("ok") :]


class ArraySendsAtOnce(HealthBoard):
    """A health board on which, the moment the link is reported open again, the array sends a tag
    (a real array may send at any moment; this one picks the worst)."""

    def __init__(self, on_health: Any) -> None:
        super().__init__(on_health)
        self.send: Any = None

    def set_status(self, reader_id: str, status: Status, detail: str = "") -> None:
        super().set_status(reader_id, status, detail)
        if reader_id == "array" and status is Status.OK and self.send is not None:
            send, self.send = self.send, None
            send()


def test_a_frame_sent_as_the_link_reads_ok_is_not_dropped_as_stale(tmp_path: Path) -> None:
    """Once the link reads "ok" (a page, the console, a test waits for it), what the array sends is
    read: the bytes buffered while the port was closed are dropped before, never after."""
    health = ArraySendsAtOnce(None)
    sim = SimulatedArray(4, link=tmp_path / "array", heartbeat_s=0.1)
    sim.plug()
    events: list[ReaderEvent] = []
    bridge = ArrayBridge(sim.port, events.append, health, silent_after_s=0.5, backoff=Backoff(0.05, 0.2))
    bridge.start()
    try:
        wait_until(lambda: health.status("array")["status"] == "ok", what="the bridge to open the port")
        sim.unplug()
        wait_until(lambda: health.status("array")["status"] == "reconnecting", what="reconnecting")
        health.send = lambda: sim.arrive(2, UID_B)
        sim.plug()
        wait_until(lambda: len(events) >= 1, what=f"the tag sent as the link read ok (have {events})")
        assert [(e.event, e.reader, e.uid) for e in events] == [("arrive", "array:2", UID_B)]
    finally:
        bridge.stop()
        sim.close()


def test_a_port_that_is_not_there_is_retried_without_blocking(tmp_path: Path) -> None:
    health = HealthBoard()
    bridge = ArrayBridge(str(tmp_path / "nothing"), lambda e: None, health, backoff=Backoff(0.05, 0.1), down_after_s=0.3)
    bridge.start()
    try:
        wait_until(lambda: health.status("array")["status"] == "down", what="down after failing for a while")
        assert "cannot open" in health.status("array")["detail"]
    finally:
        bridge.stop()
    assert not bridge.running


def test_a_failing_consumer_does_not_stop_the_bridge(rig: Rig) -> None:
    seen: list[ReaderEvent] = []

    def fragile(event: ReaderEvent) -> None:
        seen.append(event)
        if len(seen) == 1:
            raise RuntimeError("the table fell over")

    rig.bridge._on_event = fragile  # the consumer is the test's; the bridge is the real one
    rig.sim.arrive(0, UID_A)
    rig.sim.arrive(1, UID_B)
    wait_until(lambda: len(seen) == 2, what="both events despite the first failing")


@pytest.mark.parametrize("jump", [3600.0, -3600.0], ids=["forward", "back"])
def test_a_step_of_the_system_clock_is_followed_at_once(tmp_path: Path, jump: float) -> None:
    """Time sync setting the clock of a Pi that started offline (or whose saved clock ran ahead): the
    next event carries the new time, not the old clock plus the array's offset learnt before the step,
    nor (stepped back) the last table time held so that table time never runs backwards."""
    step = [0.0]

    def wall() -> float:
        return time.time() + step[0]

    health = HealthBoard()
    sim = SimulatedArray(2, link=tmp_path / "array", heartbeat_s=0.1)
    sim.plug()
    events: list[ReaderEvent] = []
    bridge = ArrayBridge(sim.port, events.append, health, clock=wall)
    bridge.start()
    try:
        wait_until(lambda: health.status("array:1")["status"] == "ok", what="a heartbeat through the bridge")
        sim.arrive(0, UID_A)
        wait_until(lambda: len(events) == 1, what="the first arrival")
        assert abs(events[0].table_time - time.time()) < 1.0
        step[0] = jump  # timesyncd steps the clock
        time.sleep(0.3)  # heartbeats meanwhile
        sim.arrive(1, UID_B)
        wait_until(lambda: len(events) == 2, what="the arrival after the step")
        assert abs(events[1].table_time - (time.time() + jump)) < 1.0
    finally:
        bridge.stop()
        sim.close()
