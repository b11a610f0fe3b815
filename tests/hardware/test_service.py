"""Readers of every kind opened from their addresses by the one factory, and run as one set: array
channels through the real bridge over a pty, a direct reader through the real nfcpy stack."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from companion.app.config import ArrayConfig
from companion.core.errors import ConfigError
from companion.core.readers import ArrayChannel, ReaderEvent
from hardware.array_channel import ArrayChannelReader, array_bridge
from hardware.health import HealthBoard
from hardware.nfc_reader import NfcReader
from hardware.reader import ReaderContext
from hardware.readers import READER_TYPES, open_reader
from hardware.service import ReaderSet
from hardware.sim.array import SimulatedArray
from tests.hardware.helpers import wait_until

RED7, BLUE3 = "0a1b2c3d4e5f60", "c0ffee01"


class Events:
    def __init__(self) -> None:
        self.items: list[ReaderEvent] = []
        self._lock = threading.Lock()

    def __call__(self, event: ReaderEvent) -> None:
        with self._lock:
            self.items.append(event)

    def seen(self) -> list[tuple[str, str, str]]:
        with self._lock:
            return [(e.reader, e.event, e.uid) for e in self.items]


def test_each_address_opens_its_kind_of_reader_and_the_set_runs_them(tmp_path: Path) -> None:
    events = Events()
    reports: list[tuple[str, dict[str, Any]]] = []
    health = HealthBoard(lambda reader, status: reports.append((reader, status)))
    with SimulatedArray(2, link=tmp_path / "array", heartbeat_s=0.1) as sim:
        context = ReaderContext(events, health, arrays={"": ArrayConfig(sim.port)})
        readers = ReaderSet(open_reader(address, context) for address in ("array:0", "array:1", "tty:NOSUCH7:pn532"))
        pile, pad, direct = readers.readers
        assert isinstance(pile, ArrayChannelReader) and isinstance(pad, ArrayChannelReader) and isinstance(direct, NfcReader)
        assert pile.bridge is pad.bridge and list(context.links) == ["array"]  # two channels, one serial link
        with readers:
            wait_until(lambda: pile.health()["status"] == "ok" and pad.health()["status"] == "ok", what="both channels")
            sim.arrive(1, RED7)
            wait_until(lambda: events.seen(), what="the event")
            assert direct.health()["status"] in ("reconnecting", "down")
            assert set(readers.health()) == {"array:0", "array:1", "tty:NOSUCH7:pn532"}
        assert events.seen() == [("array:1", "arrive", RED7)]
        assert events.items[0].source == "array:1"
    assert {reader for reader, _ in reports} >= {"array", "array:0", "array:1", "tty:NOSUCH7:pn532"}
    assert not any(reader.running for reader in readers.readers) and not pile.bridge.running


def test_the_shared_bridge_runs_while_any_channel_on_it_does(tmp_path: Path) -> None:
    events = Events()
    with SimulatedArray(2, link=tmp_path / "array", heartbeat_s=0.1) as sim:
        context = ReaderContext(events, HealthBoard(), arrays={"": ArrayConfig(sim.port)})
        first, second = (open_reader(address, context) for address in ("array:0", "array:1"))
        first.start()
        second.start()
        wait_until(lambda: second.health()["status"] == "ok", what="the link")
        first.stop()
        assert not first.running and second.running
        sim.arrive(1, BLUE3)
        wait_until(lambda: events.seen() == [("array:1", "arrive", BLUE3)], what="the second channel's event")
        second.stop()
        assert not second.running


def test_channels_of_two_arrays_are_told_apart_by_the_arrays_name(tmp_path: Path) -> None:
    events = Events()
    health = HealthBoard()
    with (
        SimulatedArray(2, link=tmp_path / "array", heartbeat_s=0.1) as first,
        SimulatedArray(2, link=tmp_path / "east", heartbeat_s=0.1) as east,
    ):
        context = ReaderContext(events, health, arrays={"": ArrayConfig(first.port), "east": ArrayConfig(east.port)})
        readers = ReaderSet(open_reader(address, context) for address in ("array:1", "array:east:1"))
        assert sorted(context.links) == ["array", "array:east"]
        with readers:
            wait_until(lambda: all(r.health()["status"] == "ok" for r in readers.readers), what="both arrays' channels")
            assert health.status("array:east")["detail"] == f"open on {east.port}"
            assert health.status("array")["detail"] == f"open on {first.port}"
            east.arrive(1, RED7)
            wait_until(lambda: events.seen(), what="the east array's event")
            first.arrive(1, BLUE3)
            wait_until(lambda: len(events.seen()) == 2, what="the first array's event")
        assert events.seen() == [("array:east:1", "arrive", RED7), ("array:1", "arrive", BLUE3)]
        assert events.items[0].source == "array:east:1"
        assert health.status("array:east:1")["events"] == 1 and health.status("array:1")["events"] == 1


def test_another_kind_of_reader_on_an_arrays_channel_reports_under_its_own_address(tmp_path: Path) -> None:
    # How an ISO 15693 pile reader on the array (issue 24) plugs in: its own scheme, the array's channel grammar, the shared bridge.
    events = Events()
    with SimulatedArray(2, link=tmp_path / "array", heartbeat_s=0.1) as sim:
        context = ReaderContext(events, HealthBoard(), arrays={"": ArrayConfig(sim.port)})
        pad = open_reader("array:0", context)
        channel = ArrayChannel.parse("iso15693:1")
        pile = ArrayChannelReader(channel, array_bridge(channel, context), context)
        assert isinstance(pad, ArrayChannelReader) and pile.bridge is pad.bridge and pile.reader_id == "iso15693:1"
        with ReaderSet([pad, pile]):
            wait_until(lambda: pile.health()["status"] == "ok", what="the pile's channel")
            sim.arrive(1, RED7)
            sim.arrive(0, BLUE3)
            wait_until(lambda: len(events.seen()) == 2, what="both events")
        assert events.seen() == [("iso15693:1", "arrive", RED7), ("array:0", "arrive", BLUE3)]
        assert events.items[0].source == "iso15693:1"
        with pytest.raises(ConfigError, match='readers "iso15693:1" and "array:1" are the same channel of one reader array'):
            open_reader("array:1", context)


@pytest.mark.parametrize(
    ("address", "message"),
    [
        ("nfc:usb", 'reader "nfc:usb": no kind of reader is called "nfc"'),
        ("array:x", 'reader "array:x" must be array:N or array:NAME:N'),
        ("array:16", "N a channel from 0 to 15"),
        ("array:01", 'reader "array:01" must be'),
        ("array:East:1", 'reader "array:East:1": "East" cannot name a reader array'),
        ("array:0", r"no serial port is given for it \(no \[array\] port"),
        ("array:west:0", r'reader array "west", but no serial port is given for it \(no \[arrays.west\] port'),
        ("usb 072f", 'reader "usb 072f" is not a reader address'),
        ("", 'reader "" is not a reader address'),
    ],
)
def test_an_address_no_reader_answers_to_is_one_clear_error(address: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        open_reader(address, ReaderContext(lambda event: None, HealthBoard()))


def test_the_readers_nfcpy_opens_are_the_ones_whose_observations_say_nfc() -> None:
    for scheme, opener in READER_TYPES.items():
        source = ReaderEvent(f"{scheme}:1", RED7, "arrive", 0.0).source
        assert source.startswith("nfc:") == (opener == NfcReader.open), scheme
    assert READER_TYPES["array"] == ArrayChannelReader.open
