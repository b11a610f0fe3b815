"""The array protocol's parser, from byte fixtures (lines as the firmware writes them)."""

from __future__ import annotations

import pytest

from companion.core.errors import FrameError
from hardware.protocol import (
    BootFrame,
    HeartbeatFrame,
    SequenceTracker,
    SeqVerdict,
    TagFrame,
    TimingFrame,
    crc16,
    encode_frame,
    parse_frame,
    split_line,
)

GOOD = [
    (b"$0,12,B,tc-array-1.0,4*ACC7", BootFrame(0, 12, "tc-array-1.0", 4)),
    (b"$1,13,H,OOFO*F105", HeartbeatFrame(1, 13, "OOFO")),
    (b"$2,5071,A,3,0A1B2C3D4E5F60*821A", TagFrame(2, 5071, "arrive", 3, "0a1b2c3d4e5f60")),
    (b"$3,5342,D,3,0A1B2C3D4E5F60*41BE", TagFrame(3, 5342, "depart", 3, "0a1b2c3d4e5f60")),
    (b"$65535,4294967296,A,15,C0FFEE01*3A9A", TagFrame(65535, 4294967296, "arrive", 15, "c0ffee01")),
    (b"$7,9000,A,0,11223344556677889900*26A5", TagFrame(7, 9000, "arrive", 0, "11223344556677889900")),
    (b"$2,5071,A,3,0A1B2C3D4E5F60*821a", TagFrame(2, 5071, "arrive", 3, "0a1b2c3d4e5f60")),  # lower-case CRC
    (b"$1,13,H,OOFO*F105\r", HeartbeatFrame(1, 13, "OOFO")),  # CR before the newline
]

BAD = [
    (b"$2,5071,A,3,0A1B2C3D4E5F61*821A", "checksum mismatch"),  # one bit of the uid flipped
    (b"$2,5071,A,3,0A1B2C3D4E5F60*821B", "checksum mismatch"),
    (b"$2,5071,A,3,0A1B2C3D4E5F60", "no checksum"),
    (b"$2,5071,A,3,0A1B2C3D4E5F60*82", "four hex digits"),
    (b"$2,5071,A,3,0A1B2C3D4E5F60*82ZZ", "four hex digits"),
    (b"2,5071,A,3,0A1B2C3D4E5F60*821A", "does not start with '$'"),
    (b"MPY: soft reboot", "does not start with '$'"),
    (b"$8,9001,A,16,C0FFEE01*2E91", "channel 16 is out of range"),
    (b"$9,9001,X,1*5EC1", "unknown frame type"),
    (b"$10,9002,A,1,C0FFEE*EDFF", "is not 4, 7, 8 or 10 bytes"),
    (b"$11,9003,H,OOXO*B063", "one health letter"),
    (b"$12,9004,B,tc array,4*6EC7", "firmware version"),
    (b"$65536,1,H,O*EE1C", "sequence number 65536 is out of range"),
    (b"$13,9005,A,1*8CCC", "carries channel and uid"),
    (b"$14,9006,B,v1,0*6963", "no channels"),
    (b"$" + b"1" * 120 + b"*0000", "longer than"),
    (b"", "does not start"),
]


@pytest.mark.parametrize(("line", "frame"), GOOD, ids=[g[0].decode()[:24] for g in GOOD])
def test_good_frames_parse(line: bytes, frame: object) -> None:
    assert parse_frame(line) == frame


@pytest.mark.parametrize(("line", "problem"), BAD, ids=[b[1] for b in BAD])
def test_bad_frames_are_refused_with_the_reason(line: bytes, problem: str) -> None:
    with pytest.raises(FrameError, match=problem.replace("(", r"\(").replace("$", r"\$")):
        parse_frame(line)


def test_the_error_shows_the_line() -> None:
    with pytest.raises(FrameError) as caught:
        parse_frame(b"$9,9001,X,1*5EC1")
    assert "$9,9001,X,1*5EC1" in str(caught.value)


@pytest.mark.parametrize(("line", "frame"), GOOD[:6])
def test_encode_is_the_inverse_of_parse(line: bytes, frame: object) -> None:
    assert encode_frame(frame) == line + b"\n"  # type: ignore[arg-type]


def test_crc_check_value() -> None:
    assert crc16(b"123456789") == 0x29B1


def test_a_cut_line_run_into_the_next_frame_yields_both_pieces() -> None:
    cut = b"$2,5071,A,3,0A1B2"
    whole = b"$3,5342,D,3,0A1B2C3D4E5F60*41BE"
    parts = split_line(cut + whole)
    assert parts == [cut, whole]
    with pytest.raises(FrameError):
        parse_frame(parts[0])
    assert parse_frame(parts[1]).seq == 3


def test_noise_before_a_frame_is_its_own_candidate() -> None:
    assert split_line(b"\x00\xffjunk$1,13,H,OOFO*F105\r") == [b"\x00\xffjunk", b"$1,13,H,OOFO*F105"]
    assert split_line(b"  \r") == []


class TestSequence:
    def test_in_order_is_ok(self) -> None:
        tracker = SequenceTracker()
        assert [tracker.check(s) for s in (5, 6, 7)] == [(SeqVerdict.OK, 0)] * 3

    def test_a_gap_counts_the_missing_frames(self) -> None:
        tracker = SequenceTracker()
        tracker.check(5)
        assert tracker.check(9) == (SeqVerdict.GAP, 3)
        assert tracker.check(10) == (SeqVerdict.OK, 0)

    def test_a_repeat_is_a_duplicate_even_a_few_frames_later(self) -> None:
        tracker = SequenceTracker()
        for seq in (1, 2, 3, 4):
            tracker.check(seq)
        assert tracker.check(4) == (SeqVerdict.DUPLICATE, 0)
        assert tracker.check(2) == (SeqVerdict.DUPLICATE, 0)
        assert tracker.check(5) == (SeqVerdict.OK, 0)

    def test_wrapping_past_65535_is_in_order(self) -> None:
        tracker = SequenceTracker()
        tracker.check(65534)
        assert tracker.check(65535) == (SeqVerdict.OK, 0)
        assert tracker.check(0) == (SeqVerdict.OK, 0)
        assert tracker.check(2) == (SeqVerdict.GAP, 1)

    def test_a_restart_without_a_boot_frame_resynchronises(self) -> None:
        tracker = SequenceTracker()
        for seq in range(5000, 5100):
            tracker.check(seq)
        assert tracker.check(3) == (SeqVerdict.RESYNC, 0)
        assert tracker.check(4) == (SeqVerdict.OK, 0)


def test_every_example_in_the_protocol_spec_parses_and_round_trips() -> None:
    from hardware.protocol import encode_frame
    from tests.hardware.helpers import ROOT

    spec = (ROOT / "firmware/PROTOCOL.md").read_text()
    examples = [line.strip() for line in spec.splitlines() if line.strip().startswith("$") and "*" in line and "<" not in line]
    assert len(examples) >= 7
    kinds = set()
    for line in examples:
        frame = parse_frame(line.encode())
        kinds.add(type(frame).__name__)
        assert encode_frame(frame).rstrip(b"\n") == line.encode()
    assert {"BootFrame", "HeartbeatFrame", "KnownFrame", "StatsFrame", "TagFrame"} <= kinds


def test_the_line_assembler_skips_a_torn_first_line_joins_chunks_and_drops_endless_noise() -> None:
    from hardware.protocol import LineAssembler, decode_line

    lines = LineAssembler()
    assert lines.feed(b"1B*77AA") == ([], None)  # the tail of a line sent before we opened the port
    assert lines.feed(b"\n$1,2,") == ([], None)
    whole = encode_frame(HeartbeatFrame(seq=1, ms=2, health="OO"))
    done, noise = lines.feed(whole[len(b"$1,2,"):] + b"$2,")
    assert noise is None and done == [whole.rstrip(b"\n")]
    assert decode_line(done[0]) == [HeartbeatFrame(seq=1, ms=2, health="OO")]
    done, noise = lines.feed(b"x" * 200)
    assert done == [] and noise is not None and "without a newline" in str(noise)
    assert lines.feed(whole) == ([whole.rstrip(b"\n")], None)  # and it goes on after the noise
    bad = decode_line(b"$1,2,H*0000")
    assert len(bad) == 1 and isinstance(bad[0], FrameError)


def test_a_timing_frame_carries_name_value_figures_and_keeps_unknown_names() -> None:
    frame = TimingFrame(7, 1013, (("on", "rp2"), ("rd_us", "48.2"), ("later_figure", "x1")))
    line = encode_frame(frame)
    assert line.startswith(b"$7,1013,T,on=rp2,rd_us=48.2,later_figure=x1*")
    parsed = parse_frame(line.rstrip(b"\n"))
    assert parsed == frame
    assert isinstance(parsed, TimingFrame) and parsed.number("rd_us") == 48.2 and parsed.number("on") is None
    assert parsed.number("absent") is None


@pytest.mark.parametrize("tail", [b"T", b"T,rd_us", b"T,RD=1", b"T,rd_us=4 8"], ids=["none", "no-value", "upper-name", "space"])
def test_a_malformed_timing_frame_is_a_frame_error(tail: bytes) -> None:
    body = b"9,9001," + tail
    with pytest.raises(FrameError, match="timing"):
        parse_frame(b"$" + body + b"*" + f"{crc16(body):04X}".encode())
