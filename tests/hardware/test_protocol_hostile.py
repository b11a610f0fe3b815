"""The serial frame parser under generated hostile input (hypothesis): every line is a frame or one
FrameError naming the problem; a valid frame survives any single corrupted byte only by luck of the CRC."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.core.errors import FrameError
from hardware.protocol import TagFrame, encode_frame, parse_frame, split_line

uids = st.sampled_from([4, 7, 8, 10]).flatmap(lambda n: st.binary(min_size=n, max_size=n)).map(bytes.hex)
tag_frames = st.builds(
    TagFrame,
    seq=st.integers(0, 65535),
    ms=st.integers(0, 2**40),
    event=st.sampled_from(["arrive", "depart"]),
    channel=st.integers(0, 15),
    uid=uids,
)


@settings(max_examples=500, deadline=None)
@given(line=st.binary(max_size=120))
def test_any_bytes_parse_or_fail_with_a_frame_error(line: bytes) -> None:
    try:
        parse_frame(line)
    except FrameError as exc:
        assert str(exc)


@settings(max_examples=300, deadline=None)
@given(frame=tag_frames)
def test_encoded_frames_round_trip(frame: TagFrame) -> None:
    assert parse_frame(encode_frame(frame).rstrip(b"\r\n")) == frame


@settings(max_examples=300, deadline=None)
@given(frame=tag_frames, at=st.integers(0, 200), flip=st.integers(1, 255))
def test_a_corrupted_byte_is_caught(frame: TagFrame, at: int, flip: int) -> None:
    raw = bytearray(encode_frame(frame).rstrip(b"\r\n"))
    i = at % len(raw)
    raw[i] ^= flip
    try:
        parsed = parse_frame(bytes(raw))
    except FrameError:
        return
    # CRC-16 catches every single-byte error in the body; the checksum's own hex digits may change case
    # (either case is accepted), which leaves the same frame. Anything else passing is a miss.
    if parsed == frame:
        return
    raise AssertionError(f"a corrupted frame passed its checksum: {bytes(raw)!r}")


@settings(max_examples=200, deadline=None)
@given(chunks=st.lists(st.binary(max_size=40), max_size=8))
def test_split_line_never_raises(chunks: list[bytes]) -> None:
    for chunk in chunks:
        parts = split_line(chunk)
        assert isinstance(parts, list)
