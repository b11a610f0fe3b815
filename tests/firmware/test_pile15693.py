"""The ISO 15693 pile (firmware 2.4): the firmware's own PN5180 driver and census against a simulated
PN5180 under a pile of SLIX2-like tags (hardware/sim/pn5180.py, vicinity.py), in simulated time.

Issue 24's figures run here in a short form; PILE15693_RUNS and PILE15693_SECONDS set the long one
(bench/pile15693.py prints the full figures: 50 runs, 2 hours).
"""

from __future__ import annotations

import os
import random

import pytest

from hardware.check import ArrayCheck
from hardware.protocol import HeartbeatFrame, TagFrame, TimingFrame
from hardware.sim.firmware import firmware_module
from hardware.sim.pile_rig import PileRig
from hardware.sim.pile_scenarios import hands_run, slap_run, slix_uids
from hardware.sim.vicinity import PileTable

tcarray = firmware_module("tcarray")

RUNS = int(os.environ.get("PILE15693_RUNS", "1"))
SECONDS = float(os.environ.get("PILE15693_SECONDS", "40"))
SURE = PileTable(measured=False, source="every tag always answers (a test's table)", answer=(1.0,) * 40)


def booted(kinds: list[str], **options: object) -> PileRig:
    rig = PileRig(kinds, **options)  # type: ignore[arg-type]
    rig.boot()
    rig.run(300)
    return rig


def departures(rig: PileRig, since: int = 0) -> list[TagFrame]:
    return [f for f in rig.tag_frames(since) if f.event == "depart"]


def test_the_array_says_which_channel_is_an_iso15693_pile_and_times_the_pn5180() -> None:
    rig = booted(["vpile", "pad"])
    figures = dict(pair for f in rig.frames if isinstance(f, TimingFrame) for pair in f.figures)
    assert figures["kinds"] == "vd"
    # The RC522 is timed when there is one (the host's poll-round model reads rd_us as its transaction).
    assert float(figures["rd_us"]) < 100
    assert [f.health for f in rig.frames if isinstance(f, HeartbeatFrame)][-1] == "OO"
    alone = booted(["vpile"])
    figures = dict(pair for f in alone.frames if isinstance(f, TimingFrame) for pair in f.figures)
    # A PN5180 read: two SPI frames of 50 us and the BUSY reads of 20 us: the simulated chip's costs.
    assert float(figures["rd_us"]) == pytest.approx(2 * 50 + 5 * 20, abs=25)
    assert tcarray.VERSION == "tc-array-2.4"


def test_a_card_laid_on_the_pile_arrives_with_its_8_byte_uid() -> None:
    rig = booted(["vpile"], table=SURE)
    uid = bytes.fromhex("E004010812345678")
    took = rig.place_until_reported(0, uid)
    assert took is not None and took < 100
    assert [(f.event, f.channel, f.uid.upper()) for f in rig.tag_frames()] == [("arrive", 0, "E004010812345678")]


def test_cards_sharing_their_low_byte_are_told_apart_by_longer_masks() -> None:
    rig = booted(["vpile"], table=SURE)
    rng = random.Random(4)
    cards = [bytes((0xE0, 0x04, 0x01)) + bytes(rng.randrange(256) for _ in range(4)) + b"\x5A" for _ in range(6)]
    for uid in cards:  # laid together, between two polls
        rig.piles[0].place(uid)
    rig.run(600)
    assert sorted(rig.known(0)) == sorted(cards)
    assert departures(rig) == []


def test_a_card_pulled_from_the_middle_departs_after_missing_censuses_in_a_row_and_no_other_does() -> None:
    rig = booted(["vpile"], table=SURE)
    cards = slix_uids(random.Random(2), 10)
    for uid in cards:
        rig.place_until_reported(0, uid)
    rig.run(2000)
    since, pulled_at = len(rig.frames), rig.ms
    rig.piles[0].take(cards[4])
    rig.run(3000)
    gone = departures(rig, since)
    assert [f.uid.upper() for f in gone] == [cards[4].hex().upper()]
    assert pulled_at <= gone[0].ms < pulled_at + 1000  # stamped with the first check that missed it
    assert rig.known(0) == cards[:4] + cards[5:]


@pytest.mark.parametrize("run", range(RUNS))
def test_25_cards_slapped_a_second_apart_are_each_reported_within_300_ms_and_a_lifted_pile_clears_within_2_s(run: int) -> None:
    result = slap_run(run + 1)
    assert None not in result.latencies_ms
    assert max(ms for ms in result.latencies_ms if ms is not None) <= 300, result.latencies_ms
    assert result.false_departures == 0
    assert result.lift_ms is not None and result.lift_ms <= 2000


def test_hands_resting_on_a_full_pile_beside_polling_pads_cause_no_departure() -> None:
    result = hands_run(3, SECONDS, rest_s=(1.0, 8.0))
    assert result.hand_changes >= 5 and result.censuses >= 10
    assert result.false_departures == []


def test_quiet_cards_kept_powered_by_a_neighbouring_field_are_not_lost() -> None:
    # Pile 0's field reaches pile 1's tags (powering them, never reading them): pile 1's census asks
    # each quiet card by an addressed request, which needs neither a field going off nor the card awake.
    rig = booted(["vpile", "vpile"], table=SURE, reach=[(0, 1, 0.0)])
    cards = slix_uids(random.Random(8), 5)
    for uid in cards:
        rig.place_until_reported(1, uid)
    since = len(rig.frames)
    rig.run(5000)
    assert departures(rig, since) == []
    assert rig.known(1) == cards
    assert rig.known(0) == []


def test_a_pile_whose_requests_reach_a_neighbouring_pile_takes_its_cards() -> None:
    # Why the firmware refuses neighbouring piles: with reach, pile 0 (polled first) reads the card laid
    # on pile 1 and tells it to keep quiet, so the card is reported on the wrong pile and never on its own.
    rig = booted(["vpile", "vpile"], table=SURE, reach=[(0, 1, 1.0)])
    uid = slix_uids(random.Random(9), 1)[0]
    rig.piles[1].place(uid)
    rig.run(500)
    assert rig.known(0) == [uid] and rig.known(1) == []
    with pytest.raises(ValueError, match="neighbouring piles"):
        PileRig(["vpile", "vpile"], neighbours=[(0, 1)])
    with pytest.raises(ValueError, match="neighbouring piles"):
        PileRig(["vpile", "pile"], neighbours=[(0, 1)])


def test_an_unplugged_pn5180_is_reported_failed_and_its_cards_are_not_departed() -> None:
    rig = booted(["vpile", "pad"], table=SURE)
    cards = slix_uids(random.Random(5), 3)
    for uid in cards:
        rig.place_until_reported(0, uid)
    since = len(rig.frames)
    rig.chips[0].alive = False
    rig.run(3000)
    assert [f.health for f in rig.frames[since:] if isinstance(f, HeartbeatFrame)][-1] == "FO"
    rig.chips[0].alive = True
    rig.piles[0].take(cards[0])
    rig.run(4000)
    assert [f.health for f in rig.frames if isinstance(f, HeartbeatFrame)][-1] == "OO"
    assert [f.uid.upper() for f in departures(rig, since)] == [cards[0].hex().upper()]


def test_hw_check_names_each_readers_kind_and_the_census_time_from_the_firmwares_own_frames() -> None:
    rig = booted(["vpile", "pad"], table=SURE)
    for uid in slix_uids(random.Random(6), 4):
        rig.place_until_reported(0, uid)
    rig.run(3000)
    check = ArrayCheck()
    for line in rig.lines:
        check.line(line.rstrip("\n").encode())
    assert "readers: array:0 ISO 15693 pile (PN5180), array:1 pad (RC522)" in check.report()
    census = [line for line in check.timing_report() if "ISO 15693 pile census" in line]
    assert len(census) == 1 and "mean" in census[0]
    assert check.readers[0].tags and len(check.readers[0].tags[0]) == 16  # 8-byte UIDs listed


def test_the_newest_cards_answer_rate_in_the_census_figures_is_the_one_its_physics_give() -> None:
    table = PileTable(measured=False, source="a test's table: the second card answers 60 % of requests", answer=(1.0, 0.6))
    rig = booted(["vpile"], table=table)
    for uid in slix_uids(random.Random(10), 2):
        rig.place_until_reported(0, uid)
    since = len(rig.frames)
    rig.run(120_000)
    figures = [dict(f.figures) for f in rig.frames[since:] if isinstance(f, TimingFrame)]
    answered = sum(int(f.get("topa0", 0)) for f in figures)
    missed = sum(int(f.get("topm0", 0)) for f in figures)
    assert answered + missed > 100
    assert 0.5 < answered / (answered + missed) < 0.7


def test_the_census_asks_a_quiet_card_without_waking_it_and_a_new_card_answers_alone() -> None:
    rig = booted(["vpile"], table=SURE)
    cards = slix_uids(random.Random(11), 6)
    for uid in cards:
        rig.place_until_reported(0, uid)
    rig.run(2000)
    tags = list(rig.piles[0].stack)
    state = rig.firmware.channels[0].vicinity
    since, shakes = len(rig.frames), state.shakes
    rig.run(2000)
    censuses = sum(int(dict(f.figures).get("censuses", 0)) for f in rig.frames[since:] if isinstance(f, TimingFrame))
    assert censuses >= 2 and all(tag.quiet for tag in tags)  # checked, and still quiet
    # A card slid in without moving the others (no shake): the poll's 1-slot inventory hears it alone.
    uid = slix_uids(random.Random(12), 1)[0]
    tag = rig.piles[0].place(uid)
    for other in tags:
        other.quiet = True
    rig.run(100)
    assert rig.known(0) == cards + [uid] and tag.quiet
    assert state.shakes == shakes


def test_a_pile_lifted_whole_is_cleared_by_one_census_and_a_silent_field_but_a_card_left_keeps_its_place() -> None:
    rig = booted(["vpile"], table=SURE)
    cards = slix_uids(random.Random(13), 8)
    for uid in cards:
        rig.place_until_reported(0, uid)
    rig.run(1000)
    since = len(rig.frames)
    took = rig.lift_until_cleared(0)
    assert took is not None and took < 1000  # one census of 8 cards and the silence test, not four censuses
    assert sorted(f.uid.upper() for f in departures(rig, since)) == sorted(uid.hex().upper() for uid in cards)
    for uid in cards:
        rig.place_until_reported(0, uid)
    rig.run(1000)
    since = len(rig.frames)
    for uid in cards[1:]:  # all but the bottom card lifted: the census hears it, so each departs on its own count
        rig.piles[0].take(uid)
    rig.run(3000)
    assert sorted(f.uid.upper() for f in departures(rig, since)) == sorted(uid.hex().upper() for uid in cards[1:])
    assert rig.known(0) == cards[:1]
