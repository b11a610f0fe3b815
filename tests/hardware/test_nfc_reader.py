"""Direct readers, with the real nfcpy stack on both sides: a separate process emulates tags over
nfcpy's ``udp:`` device (hardware.sim.tag_emulator) and the reader service reads them."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.core import Observation, Unexplained, Zone
from companion.core.readers import ReaderEvent
from companion.core.zones import PILE
from companion.table.model import TableModel
from companion.table.registry import TagRegistry
from hardware.health import Backoff, HealthBoard
from hardware.nfc_reader import NfcReader, open_frontend
from hardware.service import ReaderSet
from tests.hardware.helpers import EmulatorProcess, free_udp_port, wait_until

RED7, BLUE3, STRANGER = "0a1b2c3d4e5f60", "c0ffee01", "11223344556677"  # none starts 0x04 (see the emulator)
NFC_WAIT = 10.0  # an idle udp sense waits 1 s for an answer; allow several rounds on a busy machine


@pytest.fixture
def emulator() -> Iterator[EmulatorProcess]:
    emu = EmulatorProcess(free_udp_port())
    yield emu
    emu.close()


class Events:
    def __init__(self) -> None:
        self.items: list[ReaderEvent] = []
        self._lock = threading.Lock()

    def __call__(self, event: ReaderEvent) -> None:
        with self._lock:
            self.items.append(event)

    def wait(self, n: int) -> list[tuple[str, str]]:
        wait_until(lambda: len(self.items) >= n, NFC_WAIT, f"{n} reader events (have {self.items})")
        return [(e.event, e.uid) for e in self.items]


def test_arrive_depart_and_arrive_again(emulator: EmulatorProcess) -> None:
    events = Events()
    health = HealthBoard()
    reader = NfcReader(emulator.path, events, health)
    reader.start()
    try:
        wait_until(lambda: health.status(emulator.path)["status"] == "ok", what="the reader to open")
        emulator.present(RED7)
        assert events.wait(1) == [("arrive", RED7)]
        emulator.remove()
        assert events.wait(2)[-1] == ("depart", RED7)
        emulator.present(RED7)
        assert events.wait(3)[-1] == ("arrive", RED7)
    finally:
        reader.stop()
    assert not reader.running
    assert [e.reader for e in events.items] == [emulator.path] * 3
    times = [e.table_time for e in events.items]
    assert times == sorted(times)
    assert health.status(emulator.path)["events"] == 3


def test_two_tags_in_a_row(emulator: EmulatorProcess) -> None:
    events = Events()
    reader = NfcReader(emulator.path, events, HealthBoard())
    reader.start()
    try:
        emulator.present(RED7)
        events.wait(1)
        emulator.present(BLUE3)  # one card taken away and another put down
        assert events.wait(3) == [("arrive", RED7), ("depart", RED7), ("arrive", BLUE3)]
    finally:
        reader.stop()


def test_an_unknown_tag_reaches_the_game_with_no_card_and_raises_an_alert(emulator: EmulatorProcess, tmp_path: Path) -> None:
    registry = TagRegistry(tmp_path / "tags.json", "escape-master")
    registry.enrol(RED7, "red-7")
    observations: list[Observation] = []
    alerts: list[Unexplained] = []
    health = HealthBoard()
    zone = Zone("pile-1", PILE, index=1, reader=emulator.path)
    table = TableModel([zone], registry, observations.append, on_alert=alerts.append, health=health, debounce_s=0.1)
    reader = NfcReader(emulator.path, table.reader_event, health)
    reader.start()
    try:
        emulator.present(STRANGER)
        wait_until(lambda: observations, NFC_WAIT, "the unknown tag's observation")
        emulator.present(RED7)
        wait_until(lambda: len(observations) >= 3, NFC_WAIT, "the known tag after it")
    finally:
        reader.stop()
        table.stop()
    first = observations[0]
    assert first.source == f"nfc:{emulator.path}"
    assert dict(first.payload) == {
        "zone": "pile-1", "zone_kind": "pile", "player": None, "index": 1, "event": "arrive", "uid": STRANGER, "card": None,
    }
    assert [(o.payload["event"], o.payload["card"]) for o in observations[1:3]] == [("depart", None), ("arrive", "red-7")]
    assert [a.zone for a in alerts] == ["pile-1"]
    assert health.status(emulator.path)["unknown_tags"] == 1


def test_a_reader_that_vanishes_is_reported_and_reopened(emulator: EmulatorProcess) -> None:
    events = Events()
    statuses: list[str] = []
    health = HealthBoard(lambda reader, status: statuses.append(status["status"]))
    opened: list[Any] = []

    def opener(path: str) -> Any:
        clf = open_frontend(path)
        opened.append(clf)
        return clf

    reader = NfcReader(emulator.path, events, health, opener=opener, backoff=Backoff(0.05, 0.2))
    reader.start()
    try:
        emulator.present(RED7)
        events.wait(1)
        opened[0].close()  # what nfcpy sees when the USB reader is pulled out: IOError(ENODEV)
        wait_until(lambda: len(opened) == 2, NFC_WAIT, "the reader to be reopened")
        wait_until(lambda: health.status(emulator.path)["status"] == "ok", what="ok again")
        emulator.remove()
        assert events.wait(2)[-1] == ("depart", RED7)
        emulator.present(BLUE3)
        assert events.wait(3)[-1] == ("arrive", BLUE3)
    finally:
        reader.stop()
    assert [e for e, _ in events.wait(3)] == ["arrive", "depart", "arrive"]  # no invented departure or arrival
    assert "reconnecting" in statuses and statuses[-1] == "down"  # stopped at the end
    assert health.status(emulator.path)["reconnects"] == 1


def test_a_missing_reader_never_blocks_the_others(emulator: EmulatorProcess) -> None:
    events = Events()
    health = HealthBoard()
    missing = "tty:NOSUCH9:pn532"
    service = ReaderSet(NfcReader(path, events, health, backoff=Backoff(0.05, 0.2), down_after_s=0.5) for path in (missing, emulator.path))
    service.start()
    try:
        emulator.present(RED7)
        assert events.wait(1) == [("arrive", RED7)]
        wait_until(lambda: health.status(missing)["status"] == "down", what="the missing reader to be down")
        assert "cannot open" in health.status(missing)["detail"]
    finally:
        service.stop()
    assert not any(reader.running for reader in service.readers)
