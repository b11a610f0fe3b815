"""Piles, crosstalk and a noisy field: the firmware's own code against the simulated field.

The field (hardware/sim/field.py) makes the things that broke the one-tag firmware real: tags that
collide, time-outs beyond a few answering at once, halted tags that stay silent while their field is
on, detuning under a deep stack, neighbours' tags heard while powered (and, with ``idle_reach``,
powered by a neighbour's field alone), bit errors.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from hardware.protocol import Frame, HeartbeatFrame, KnownFrame, StatsFrame, TagFrame, parse_frame
from hardware.sim.field import FieldSettings
from hardware.sim.firmware import FirmwareRig, firmware_module

mfrc522 = firmware_module("mfrc522")


def uids(n: int, seed: int = 5) -> list[bytes]:
    """NXP-like 7-byte UIDs: manufacturer byte 04, many sharing their first cascade level."""
    rng = random.Random(seed)
    out: list[bytes] = []
    while len(out) < n:
        uid = bytes([0x04, rng.choice((0x11, 0x22)), rng.choice((0x30, 0x31))]) + bytes(rng.randrange(256) for _ in range(4))
        if uid not in out:
            out.append(uid)
    return out


class Table(FirmwareRig):
    def __init__(self, channels: int = 3, **options: Any) -> None:
        super().__init__(channels, **options)
        self.firmware.boot()
        self.all: list[Frame] = []
        self.take_frames()

    def take_frames(self) -> list[Frame]:
        out = [parse_frame(line.rstrip("\n").encode()) for line in self.lines]
        self.lines.clear()
        self.all.extend(out)
        return out

    def rounds(self, n: int) -> list[tuple[str, int, str]]:
        for _ in range(n):
            self.firmware.step()
        return [(f.event, f.channel, f.uid) for f in self.take_frames() if isinstance(f, TagFrame)]


def test_twenty_cards_placed_one_by_one_on_a_pile_each_arrive_and_none_departs() -> None:
    table = Table(kinds=["pile", "pad", "pad"], settings=FieldSettings(max_answers=2, detune_depth=20))
    cards = uids(21)
    for n, uid in enumerate(cards[:20]):
        table.chips[0].place(uid)
        assert table.rounds(3) == [("arrive", 0, uid.hex())], f"card {n + 1} on the pile"
    assert table.rounds(200) == []  # every card is checked many times over: no false departure
    assert table.known(0) == cards[:20]
    # The 21st card is beyond what the detuned stack powers: it is not seen, and nothing departs.
    table.chips[0].place(cards[20])
    assert table.rounds(100) == []


def test_the_simulated_field_collides_then_times_out_as_more_tags_answer() -> None:
    table = Table(1, kinds=["pad"], settings=FieldSettings(max_answers=2))
    chip, reader = table.chips[0], table.readers[0]
    reader.antenna(True)
    for uid in (b"\x01\x02\x03\x04", b"\x01\x02\x03\x05", b"\x81\x02\x03\x04"):
        chip.place(uid)
    assert reader._request(mfrc522.REQA)  # the same ATQA from all three: heard as one
    answer = reader._transceive(bytes((mfrc522.SELECT[0], 0x20)), 0)
    assert answer is None  # three different UIDs at once: nothing decodable, a time-out
    assert reader.read_new() is None
    chip.take()
    reader.antenna(False)
    reader.antenna(True)
    assert reader._request(mfrc522.REQA)
    answer = reader._transceive(bytes((mfrc522.SELECT[0], 0x20)), 0)
    assert isinstance(answer, tuple) and answer[0] == mfrc522.COLLIDED and answer[2] == 25  # bit 0 of byte 3


def test_cards_landing_together_are_told_apart_by_anticollision() -> None:
    table = Table(kinds=["pile", "pad", "pad"], settings=FieldSettings(max_answers=3))
    a, b, c = uids(3, seed=9)
    table.chips[0].place(a)
    table.chips[0].place(b)
    table.chips[1].place(c)
    table.chips[1].place(a[:3] + bytes(4))  # same first cascade level as a: select and SAK agree
    events = table.rounds(2)
    assert sorted(events) == sorted(
        [("arrive", 0, a.hex()), ("arrive", 0, b.hex()), ("arrive", 1, c.hex()), ("arrive", 1, (a[:3] + bytes(4)).hex())]
    )
    assert sum(f.collisions for f in table.all if isinstance(f, StatsFrame)) == 0  # not reported yet: no heartbeat
    table.firmware.heartbeat()
    table.take_frames()
    assert sum(f.collisions for f in table.all if isinstance(f, StatsFrame)) >= 2  # it took collisions to tell them apart


def test_the_top_card_taken_back_departs_and_the_rest_stay() -> None:
    table = Table(kinds=["pile", "pad", "pad"])
    cards = uids(8)
    for uid in cards:
        table.chips[0].place(uid)
        table.rounds(1)
    table.take_frames()
    table.chips[0].take()  # an illegal play goes back into the hand
    events = table.rounds(20)
    assert events == [("depart", 0, cards[-1].hex())]
    table.chips[0].stack.clear()  # the round ends: the pile is swept off
    events = table.rounds(40)
    assert sorted(events) == sorted(("depart", 0, uid.hex()) for uid in cards[:-1])
    assert table.known(0) == []


def test_a_pile_with_bit_errors_reports_every_card_once_and_never_a_false_departure() -> None:
    table = Table(kinds=["pile", "pad", "pad"], settings=FieldSettings(max_answers=2, bit_error_rate=0.03, seed=11))
    cards = uids(20, seed=12)
    for uid in cards:
        table.chips[0].place(uid)
        table.rounds(5)
    table.rounds(300)
    tags = [(f.event, f.uid) for f in table.all if isinstance(f, TagFrame)]
    assert tags == [("arrive", uid.hex()) for uid in cards]
    errors = sum(f.errors for f in table.all if isinstance(f, StatsFrame))
    assert errors > 20 and table.chips[0].exchanges > 1000  # the noise was there, and reported


def test_a_field_cycle_wakes_the_halted_pile_and_it_is_read_again_silently() -> None:
    table = Table(kinds=["pile", "pad", "pad"])
    cards = uids(6)
    for uid in cards:
        table.chips[0].place(uid)
        table.rounds(1)
    assert table.known(0) == cards
    table.take_frames()
    table.chips[0].alive = False  # a loose wire: the chip resets, its field drops
    table.rounds(2)
    table.chips[0].alive = True
    table.clock.now += table.firmware.retry_ms
    assert table.rounds(10) == []  # the same six cards: nothing to say
    assert table.chips[0].field_cycles >= 1 and all(t.state == "HALT" for t in table.chips[0].stack)


def test_switched_antennas_keep_neighbouring_pads_from_reading_each_others_cards() -> None:
    card = uids(1)[0]
    always_on = Table(2, kinds=["pad", "pad"], neighbours=[(0, 1)], switch_antennas=False)
    always_on.chips[0].place(card)
    assert ("arrive", 1, card.hex()) in always_on.rounds(3)  # the failure switching prevents
    switched = Table(2, kinds=["pad", "pad"], neighbours=[(0, 1)])
    switched.chips[0].place(card)
    assert switched.rounds(5) == [("arrive", 0, card.hex())]
    assert not switched.chips[0].antenna_on and not switched.chips[1].antenna_on  # off between polls


def slap_between(table: Table, after: int, channel: int, uid: bytes) -> None:
    """One polling round, with ``uid`` landing on ``channel`` just after reader ``after`` was polled."""
    firmware = table.firmware
    for index in firmware.order:
        firmware._poll(index, firmware.channels[index])
        if index == after:
            table.chips[channel].place(uid)


def test_a_card_slapped_on_a_pile_before_a_neighbouring_pads_poll_is_lost_to_the_pile() -> None:
    # The race of issue 24: a pile and a pad 5 cm apart, the layout not declaring them neighbours
    # (the firmware would refuse it). The card lands after the pile's poll and before the pad's.
    table = Table(2, kinds=["pile", "pad"])
    pile, pad = table.chips
    pile.neighbours.append(pad)
    pad.neighbours.append(pile)
    card = uids(1)[0]
    slap_between(table, 0, 0, card)
    events = table.rounds(20)
    # The pad read and halted it; the pile's always-on field keeps it halted: the pile never sees it.
    assert events == [("arrive", 1, card.hex()), ("depart", 1, card.hex())]
    assert table.known(0) == [] and pile.stack[0].state == "HALT"


def test_a_pile_next_to_a_pad_is_refused_naming_both_and_why() -> None:
    for kinds, pair in ((["pile", "pad"], (0, 1)), (["pad", "pile"], (0, 1)), (["pad", "pile"], (1, 0))):
        pile = kinds.index("pile")
        with pytest.raises(ValueError) as refused:
            Table(2, kinds=kinds, neighbours=[pair])
        message = str(refused.value)
        assert f"array:{pile} (a pile) and array:{1 - pile} (a pad) are neighbours" in message
        assert "never reports it" in message


def test_with_idle_reach_a_piles_field_reads_a_neighbouring_pads_card() -> None:
    # Why checking a pad's reads against the pile would not do: once the pile's field alone powers a
    # card on the pad, the pile reads and halts it itself (and the pad's next polls miss it).
    table = Table(2, kinds=["pile", "pad"], settings=FieldSettings(idle_reach=True))
    pile, pad = table.chips
    pile.neighbours.append(pad)
    pad.neighbours.append(pile)
    card = uids(1)[0]
    pad.place(card)
    events = table.rounds(10)
    assert events[0] == ("arrive", 0, card.hex())
    assert ("arrive", 1, card.hex()) not in events


def test_with_idle_reach_a_pads_field_powers_its_neighbours_card_and_only_while_on() -> None:
    table = Table(2, kinds=["pad", "pad"], settings=FieldSettings(idle_reach=True))
    a, b = table.chips
    a.neighbours.append(b)
    b.neighbours.append(a)
    tag = b.place(uids(1)[0])
    table.readers[0].antenna(True)
    assert b.powered() == [tag] and tag in a.in_reach()
    table.readers[0].antenna(False)
    assert b.powered() == [] and not b.fed
    plain = Table(2, kinds=["pad", "pad"], neighbours=[(0, 1)])
    plain.chips[1].place(uids(1)[0])
    plain.readers[0].antenna(True)
    assert plain.chips[1].powered() == []  # the default: a field powers only its own reader's tags


def test_neighbouring_piles_are_refused() -> None:
    with pytest.raises(ValueError, match="neighbouring piles"):
        Table(2, kinds=["pile", "pile"], neighbours=[(0, 1)])


def test_every_heartbeat_lists_the_tags_each_reader_knows_within_the_line_limit() -> None:
    table = Table(kinds=["pile", "pad", "pile"])
    cards = uids(22)
    for uid in cards[:20]:
        table.chips[0].place(uid)
        table.rounds(1)
    table.chips[1].place(cards[20])
    table.chips[2].place(cards[21])
    table.rounds(2)
    table.take_frames()
    table.firmware.heartbeat()
    lines = list(table.lines)
    frames = table.take_frames()
    beat = frames[0]
    assert isinstance(beat, HeartbeatFrame) and beat.listing is not None
    known = [f for f in frames[1 : 1 + beat.listing]]
    assert all(isinstance(f, KnownFrame) for f in known)
    listed: dict[int, list[str]] = {}
    for f in known:
        assert isinstance(f, KnownFrame)
        listed.setdefault(f.channel, []).extend(f.uids)
    assert listed == {0: [u.hex() for u in cards[:20]], 1: [cards[20].hex()], 2: [cards[21].hex()]}
    assert max(len(line) for line in lines) <= 100


def test_a_pad_with_bit_errors_keeps_its_cards_without_flicker() -> None:
    table = Table(2, kinds=["pad", "pad"], settings=FieldSettings(max_answers=2, bit_error_rate=0.03, seed=21))
    hand = uids(2, seed=22)
    for uid in hand:
        table.chips[0].place(uid)
    table.rounds(500)
    tags = [(f.event, f.uid) for f in table.all if isinstance(f, TagFrame)]
    assert sorted(tags) == sorted(("arrive", uid.hex()) for uid in hand)
    assert sum(f.errors for f in table.all if isinstance(f, StatsFrame)) > 10


def test_a_second_collision_round_on_ntag_uids_sharing_their_first_bytes_reads_every_tag() -> None:
    # NXP UIDs share 04 and often their second byte: at cascade level 1 (88 04 11 uid2) the first
    # collision comes in uid2, and the next round already knows more than 8 bits. CollPos then counts
    # the FIFO's bits only (NXP's reading), not the bits known before: read as absolute, it falls at or
    # before the known bits and the tags were never told apart.
    a, b, c = (bytes([0x04, 0x11, uid2, 0xA0, 0xB0, 0xC0, n]) for n, uid2 in enumerate((0x30, 0x31, 0x33)))
    table = Table(1, kinds=["pad"], settings=FieldSettings(max_answers=3))
    chip, reader = table.chips[0], table.readers[0]
    for uid in (a, b, c):
        chip.place(uid)
    reader.antenna(True)
    assert reader._request(mfrc522.REQA)
    first = reader._transceive(bytes((mfrc522.SELECT[0], 0x20)), 0)
    assert isinstance(first, tuple) and first[2] == 25  # bit 0 of uid2: 0 for a, 1 for b and c
    # The next round sends the 25 known bits (3 bytes and 1 bit): b and c answer, differing at bit 1 of
    # uid2, the first bit they send, which lies at bit 1 of the FIFO's first byte (RxAlign 1).
    known = bytes((0x88, 0x04, 0x11, 0x01))
    second = reader._transceive(bytes((mfrc522.SELECT[0], 0x20 + 0x31)) + known, 1, 1)
    assert isinstance(second, tuple) and second[2] == 2
    assert chip.regs[0x0E] & 0x80 == 0  # the driver cleared ValuesAfterColl at init
    reader.antenna(False)
    events = table.rounds(3)
    assert sorted(events) == sorted(("arrive", 0, uid.hex()) for uid in (a, b, c))


def test_four_ntag_uids_landing_together_on_a_pile_are_all_read() -> None:
    cards = [bytes([0x04, 0x22, 0x30 + n, 0x5A, 0x01, 0x02, n]) for n in range(4)]
    table = Table(kinds=["pile", "pad", "pad"], settings=FieldSettings(max_answers=4))
    for uid in cards:
        table.chips[0].place(uid)
    events = table.rounds(3)
    assert sorted(events) == sorted(("arrive", 0, uid.hex()) for uid in cards)
