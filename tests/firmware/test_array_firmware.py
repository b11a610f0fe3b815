"""The array firmware's logic, run on the host: MFRC522 driver against simulated chips and tags,
polling and framing checked by the bridge's own parser."""

from __future__ import annotations

import random
from typing import Any

import pytest

from hardware.protocol import BootFrame, Frame, HeartbeatFrame, KnownFrame, StatsFrame, TagFrame, crc16, parse_frame
from hardware.sim.firmware import FirmwareRig
from tests.firmware.sim_mfrc522 import SimBus, SimChip

import mfrc522  # noqa: E402  (on sys.path through sim_mfrc522)
import tcarray  # noqa: E402
import tcproto  # noqa: E402

UID7 = bytes.fromhex("0A1B2C3D4E5F60")
UID4 = bytes.fromhex("C0FFEE01")
UID10 = bytes.fromhex("11223344556677889900")


class Array(FirmwareRig):
    """The firmware's own code polling simulated chips; frames parsed by the host's parser."""

    def __init__(self, channels: int = 4, **options: Any) -> None:
        super().__init__(channels, **options)
        self.fw = self.firmware

    def frames(self) -> list[Frame]:
        out = [parse_frame(line.rstrip("\n").encode()) for line in self.lines]
        self.lines.clear()
        return out

    def tags(self) -> list[tuple[str, int, str]]:
        return [(f.event, f.channel, f.uid) for f in self.frames() if isinstance(f, TagFrame)]

    def rounds(self, n: int) -> None:
        for _ in range(n):
            self.fw.step()


@pytest.fixture
def array() -> Array:
    a = Array()
    a.fw.boot()
    a.lines.clear()
    return a


def test_boot_says_version_channels_and_health() -> None:
    a = Array(3)
    a.chips[2].alive = False
    a.fw.boot()
    boot, beat, *stats = a.frames()
    assert isinstance(boot, BootFrame) and boot.seq == 0 and boot.channels == 3 and boot.firmware == tcarray.VERSION
    assert isinstance(beat, HeartbeatFrame) and beat.seq == 1 and beat.health == "OOF" and beat.listing == 0
    assert [s.channel for s in stats if isinstance(s, StatsFrame)] == [0, 1, 2]


def test_a_tag_placed_arrives_with_its_full_uid(array: Array) -> None:
    array.chips[1].place(UID7)
    array.rounds(1)
    assert array.tags() == [("arrive", 1, UID7.hex())]
    array.rounds(5)  # still there: nothing more to say
    assert array.tags() == []


@pytest.mark.parametrize("uid", [UID4, UID7, UID10], ids=["4-byte", "7-byte", "10-byte"])
def test_every_cascade_level_is_read(array: Array, uid: bytes) -> None:
    array.chips[0].place(uid)
    array.rounds(1)
    assert array.tags() == [("arrive", 0, uid.hex())]


def test_a_tag_taken_away_departs_after_the_miss_limit(array: Array) -> None:
    array.chips[2].place(UID4)
    array.rounds(1)
    array.frames()
    array.chips[2].take()
    array.rounds(array.fw.miss_limit - 1)
    assert array.tags() == []
    array.rounds(1)
    assert array.tags() == [("depart", 2, UID4.hex())]


def test_the_departure_is_stamped_when_the_tag_was_first_missed(array: Array) -> None:
    array.chips[0].place(UID4)
    array.rounds(1)
    array.frames()
    array.chips[0].take()
    first_miss = array.clock.now
    array.rounds(array.fw.miss_limit)
    (depart,) = [f for f in array.frames() if isinstance(f, TagFrame)]
    assert first_miss < depart.ms < first_miss + 10  # within the first missed round, not the last


def test_a_flicker_shorter_than_the_miss_limit_says_nothing(array: Array) -> None:
    array.chips[0].place(UID7)
    array.rounds(1)
    array.frames()
    array.chips[0].take()
    array.rounds(array.fw.miss_limit - 1)
    array.chips[0].place(UID7)
    array.rounds(3)
    assert array.tags() == []


def test_a_tag_swapped_for_another_arrives_at_once_and_the_old_one_departs(array: Array) -> None:
    # A pad reads every tag on it (several cards may lie there), so a swap is two events of their own.
    array.chips[3].place(UID4)
    array.rounds(1)
    array.frames()
    array.chips[3].take()
    array.chips[3].place(UID7)
    array.rounds(array.fw.miss_limit)
    assert array.tags() == [("arrive", 3, UID7.hex()), ("depart", 3, UID4.hex())]


def test_two_readers_report_in_polling_order_with_distinct_times(array: Array) -> None:
    array.chips[2].place(UID4)
    array.chips[0].place(UID7)
    array.rounds(1)
    frames = [f for f in array.frames() if isinstance(f, TagFrame)]
    assert [(f.channel, f.uid) for f in frames] == [(0, UID7.hex()), (2, UID4.hex())]
    assert frames[0].ms < frames[1].ms
    assert frames[1].seq == frames[0].seq + 1


def test_a_reader_that_stops_answering_is_reported_and_retried(array: Array) -> None:
    array.chips[1].alive = False
    array.rounds(1)
    beats = [f for f in array.frames() if isinstance(f, HeartbeatFrame)]
    assert beats and beats[-1].health == "OFOO"  # at once, not at the next periodic heartbeat
    array.chips[1].alive = True
    array.clock.now += array.fw.retry_ms
    array.chips[1].place(UID4)
    array.rounds(1)
    frames = array.frames()
    assert [f.health for f in frames if isinstance(f, HeartbeatFrame)][-1] == "OOOO"
    assert [(f.event, f.channel) for f in frames if isinstance(f, TagFrame)] == [("arrive", 1)]


def test_a_reader_that_fails_with_a_tag_on_it_says_nothing_about_the_tag(array: Array) -> None:
    array.chips[0].place(UID4)
    array.rounds(1)
    array.frames()
    array.chips[0].alive = False
    array.rounds(2)
    array.chips[0].alive = True
    array.clock.now += array.fw.retry_ms
    array.rounds(2)
    assert array.tags() == []  # still there: no departure and no second arrival


def test_heartbeat_is_periodic(array: Array) -> None:
    array.clock.now += array.fw.heartbeat_ms
    array.rounds(1)
    assert any(isinstance(f, HeartbeatFrame) for f in array.frames())
    array.rounds(1)
    assert not any(isinstance(f, HeartbeatFrame) for f in array.frames())


def test_sequence_numbers_count_every_frame_and_wrap(array: Array) -> None:
    array.fw.seq = 65535
    array.chips[0].place(UID4)
    array.rounds(1)
    array.chips[0].take()
    array.rounds(array.fw.miss_limit)
    seqs = [f.seq for f in array.frames()]
    assert seqs[:2] == [65535, 0]


def test_the_driver_halts_the_tag_after_reading_it() -> None:
    a = Array(1, kinds=["pile"])
    a.fw.boot()
    tag = a.chips[0].place(UID7)
    a.rounds(1)
    assert tag.state == "HALT"
    assert b"\x50\x00" in [f[:2] for f in a.chips[0].frames]


def test_no_answer_from_an_unplugged_chip_is_an_oserror() -> None:
    bus = SimBus()
    chip = SimChip()
    chip.alive = False
    reader = mfrc522.MFRC522(bus, bus.pin(chip))
    with pytest.raises(OSError):
        reader.init()
    with pytest.raises(OSError):
        reader.read_new()
    with pytest.raises(OSError):
        reader.check(UID4)


def test_firmware_crc_matches_the_host() -> None:
    rng = random.Random(3)
    for _ in range(200):
        data = bytes(rng.randrange(256) for _ in range(rng.randrange(60)))
        assert tcproto.crc16(data) == crc16(data)
    assert tcproto.crc16(b"123456789") == 0x29B1


def test_crc_a_matches_the_standard_vector() -> None:
    assert mfrc522.crc_a(b"\x50\x00") == b"\x57\xcd"  # HLTA as every ISO 14443-3 trace shows it


def test_ms_clock_survives_ticks_wrapping() -> None:
    period = 1 << 30
    ticks = [period - 5]

    def ticks_ms() -> int:
        return ticks[0] % period

    def ticks_diff(a: int, b: int) -> int:
        return ((a - b + period // 2) % period) - period // 2

    clock = tcarray.MsClock(ticks_ms, ticks_diff)
    ticks[0] += 3
    assert clock.ms() == 3
    ticks[0] += 10  # across the wrap
    assert clock.ms() == 13
