"""The table model: reader events in, TAG observations out."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from companion.core import Observation, ObservationKind, Unexplained, Zone
from companion.core import zones as kinds
from companion.core.readers import ReaderEvent
from companion.games.everest.table import GRID
from companion.games.horrible_mountain_2.table import TABLE_SLOT
from companion.table.depth import DEFAULT_ARRAY_DEPTH, Depth, StackAtDepth
from companion.table.model import TableModel
from companion.table.registry import TagRegistry
from hardware.health import HealthBoard
from tests.hardware.helpers import wait_until

PILE = Zone("pile-1", kinds.PILE, index=1, reader="array:0")
HAND = Zone("hand-anna", kinds.HAND_PAD, player="anna", reader="usb:072f:2200")
CAMERA_ONLY = Zone("grid", GRID)
RED7, BLUE3, STRANGER = "0a1b2c3d4e5f60", "c0ffee01", "11223344556677"


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def registry(tmp_path: Path) -> TagRegistry:
    r = TagRegistry(tmp_path / "tags.json", "escape-master")
    r.enrol(RED7, "red-7")
    r.enrol(BLUE3, "blue-3")
    return r


def ev(event: str, uid: str, reader: str = "array:0", t: float = 5.0) -> ReaderEvent:
    return ReaderEvent(reader, uid, event, t)  # type: ignore[arg-type]


def test_an_arrival_becomes_a_tag_observation_with_the_zone_and_card(registry: TagRegistry) -> None:
    out: list[Observation] = []
    with TableModel([PILE, HAND, CAMERA_ONLY], registry, out.append, debounce_s=0) as table:
        table.reader_event(ev("arrive", RED7, t=12.5))
        table.reader_event(ev("arrive", BLUE3, reader="usb:072f:2200", t=12.6))
    assert out[0] == Observation(
        "array:0",
        12.5,
        ObservationKind.TAG,
        {"zone": "pile-1", "zone_kind": "pile", "player": None, "index": 1, "event": "arrive", "uid": RED7, "card": "red-7"},
    )
    assert out[1].source == "nfc:usb:072f:2200"
    assert out[1].payload["player"] == "anna" and out[1].payload["card"] == "blue-3"


def test_a_tag_no_one_enrolled_alerts_naming_the_zone_and_still_reaches_the_sink(registry: TagRegistry) -> None:
    out: list[Observation] = []
    alerts: list[Unexplained] = []
    health = HealthBoard()
    with TableModel([PILE], registry, out.append, on_alert=alerts.append, health=health, debounce_s=0) as table:
        table.reader_event(ev("arrive", STRANGER))
        table.reader_event(ev("depart", STRANGER))
    assert [o.payload["card"] for o in out] == [None, None]
    assert len(alerts) == 1 and alerts[0].zone == "pile-1"
    # The table model says what to do in the table's words; the command line is the app's business.
    assert alerts[0].fix == "take the card off pile-1, or enrol its tag at pile-1" and "companion" not in alerts[0].fix
    assert health.status("array:0")["unknown_tags"] == 1
    assert table.unknown_tags == 1


def test_a_flicker_makes_no_observation(registry: TagRegistry) -> None:
    out: list[Observation] = []
    clock = Clock()
    with TableModel([PILE], registry, out.append, debounce_s=0.3, clock=clock) as table:
        table.reader_event(ev("arrive", RED7))
        clock.now += 1
        table.reader_event(ev("depart", RED7))
        clock.now += 0.1
        table.reader_event(ev("arrive", RED7))
        assert table.suppressed_flickers == 1
    assert [o.payload["event"] for o in out] == ["arrive"]


def test_a_real_departure_comes_after_the_window_with_its_own_time(registry: TagRegistry) -> None:
    out: list[Observation] = []
    table = TableModel([PILE], registry, out.append, debounce_s=0.05)
    try:
        table.reader_event(ev("arrive", RED7, t=1.0))
        table.reader_event(ev("depart", RED7, t=2.0))
        wait_until(lambda: len(out) == 2, what="the departure after the debounce window")
    finally:
        table.stop()
    assert out[1].payload["event"] == "depart" and out[1].table_time == 2.0


def test_stop_releases_held_departures(registry: TagRegistry) -> None:
    out: list[Observation] = []
    table = TableModel([PILE], registry, out.append, debounce_s=60)
    table.reader_event(ev("depart", RED7))
    assert out == []
    table.stop()
    assert [o.payload["event"] for o in out] == ["depart"]


def test_a_repeated_arrival_is_not_a_second_play(registry: TagRegistry) -> None:
    out: list[Observation] = []
    with TableModel([PILE], registry, out.append, debounce_s=0) as table:
        table.reader_event(ev("arrive", RED7))
        table.reader_event(ev("arrive", RED7))  # the array re-reported it after a reconnect
        assert table.present("pile-1") == (RED7,)
    assert len(out) == 1


def test_a_reader_that_watches_no_zone_is_counted_not_delivered(registry: TagRegistry) -> None:
    out: list[Observation] = []
    health = HealthBoard()
    with TableModel([PILE], registry, out.append, health=health, debounce_s=0) as table:
        table.reader_event(ev("arrive", RED7, reader="array:7"))
    assert out == [] and health.status("array:7")["unzoned"] == 1


def test_snapshot_shows_what_is_where(registry: TagRegistry) -> None:
    with TableModel([PILE, HAND], registry, lambda o: None, debounce_s=0) as table:
        table.reader_event(ev("arrive", RED7))
        table.reader_event(ev("arrive", STRANGER, reader="usb:072f:2200"))
        assert table.snapshot() == {
            "pile-1": [{"uid": RED7, "card": "red-7"}],
            "hand-anna": [{"uid": STRANGER, "card": None}],
        }


def test_two_zones_on_one_reader_are_refused(registry: TagRegistry) -> None:
    with pytest.raises(ValueError, match="watches both"):
        TableModel([PILE, Zone("pile-2", kinds.PILE, index=2, reader="array:0")], registry, lambda o: None)


def test_a_failing_sink_does_not_stop_the_table(registry: TagRegistry) -> None:
    calls: list[Observation] = []

    def sink(observation: Observation) -> None:
        calls.append(observation)
        raise RuntimeError("the log is full")

    health = HealthBoard()
    with TableModel([PILE], registry, sink, health=health, debounce_s=0) as table:
        table.reader_event(ev("arrive", RED7))
        table.reader_event(ev("depart", RED7))
    assert len(calls) == 2 and health.status("array:0")["sink_errors"] == 2


def test_readers_on_many_threads_lose_nothing(registry: TagRegistry) -> None:
    out: list[Observation] = []
    zones = [Zone(f"slot-{i}", TABLE_SLOT, index=i, reader=f"array:{i}") for i in range(4)]

    def reader(i: int) -> None:
        for n in range(250):
            uid = f"{i:02x}{n:06x}"
            table.reader_event(ev("arrive", uid, reader=f"array:{i}"))
            table.reader_event(ev("depart", uid, reader=f"array:{i}"))

    with TableModel(zones, registry, out.append, debounce_s=0) as table:
        threads = [threading.Thread(target=reader, args=(i,)) for i in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(10)
    assert len(out) == 4 * 500
    for i in range(4):  # each reader's own order is kept
        mine = [(o.payload["event"], o.payload["uid"]) for o in out if o.source == f"array:{i}"]
        assert mine == [(e, f"{i:02x}{n:06x}") for n in range(250) for e in ("arrive", "depart")]


def test_a_pile_reaching_its_readers_measured_depth_raises_one_alert_until_it_drops(tmp_path: Path) -> None:
    registry = TagRegistry(tmp_path / "tags.json", "escape-master")
    cards = [f"0a1b2c3d4e5f{n:02x}" for n in range(5)]
    for n, uid in enumerate(cards):
        registry.enrol(uid, f"red-{n + 1}")
    pile = Zone("pile-1", kinds.PILE, index=1, reader="array:0", depth=3)
    alerts: list[Unexplained] = []
    health = HealthBoard()
    with TableModel([pile], registry, lambda o: None, on_alert=alerts.append, health=health, debounce_s=0) as table:
        assert table.depth("pile-1") == Depth(3, True)
        for uid in cards[:2]:
            table.reader_event(ev("arrive", uid))
        assert alerts == []
        table.reader_event(ev("arrive", cards[2]))
        assert len(alerts) == 1 and isinstance(alerts[0], StackAtDepth) and alerts[0].zone == "pile-1"
        assert alerts[0].what == "pile-1 holds 3 cards, as many as its reader is measured to read, so a card laid on top will not be seen"
        table.reader_event(ev("arrive", cards[3]))  # a reader that does see a fourth: no second alert for one stack
        assert len(alerts) == 1 and health.status("array:0")["at_depth"] == 1
        table.reader_event(ev("depart", cards[3]))
        table.reader_event(ev("depart", cards[2]))
        table.reader_event(ev("arrive", cards[4]))  # back to three after dropping below: alerted again
        assert len(alerts) == 2 and health.status("array:0")["at_depth"] == 2


def test_an_array_reader_with_no_measured_depth_gets_the_default_guess_and_says_so(registry: TagRegistry) -> None:
    alerts: list[Unexplained] = []
    stranger = [f"1122334455{n:04x}" for n in range(DEFAULT_ARRAY_DEPTH)]
    with TableModel([PILE, HAND, CAMERA_ONLY], registry, lambda o: None, on_alert=alerts.append, debounce_s=0) as table:
        assert table.depth("pile-1") == Depth(DEFAULT_ARRAY_DEPTH, False)
        assert table.depth("hand-anna") is None and table.depth("grid") is None  # an nfcpy reader, a camera zone
        table.resync("array:0", stranger, 5.0, judge=False)  # a restart finds the pile that deep already
    (alert,) = [a for a in alerts if isinstance(a, StackAtDepth)]
    assert alert.what == (
        f"pile-1 holds {DEFAULT_ARRAY_DEPTH} cards, as many as its reader is assumed to read (a guess: no depth is "
        "configured for pile-1), so a card laid on top will not be seen"
    )
