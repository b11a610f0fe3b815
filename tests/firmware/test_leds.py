"""The LED on each channel (firmware 2.3): the firmware's own code reads the host's L frames between
polling rounds and drives a recording LED chain; a line that is not a good L frame gets one R frame
saying why, and is counted (T frame ``led_bad``). Frames made by the host's own encoder."""

from __future__ import annotations

import pytest

from companion.core.lights import Light, Pattern
from hardware.protocol import LedFrame, RefusalFrame, TimingFrame, encode_frame, parse_frame
from hardware.sim.firmware import FirmwareRig, firmware_module

tcleds = firmware_module("tcleds")


class Array(FirmwareRig):
    def __init__(self) -> None:
        self.host: list[bytes] = []
        super().__init__(3, leds=True, host_input=lambda: self.host.pop(0) if self.host else b"")

    def send(self, data: bytes) -> None:
        self.host.append(data)

    def frames(self) -> list[object]:
        out = [parse_frame(line.rstrip("\n").encode()) for line in self.lines]
        self.lines.clear()
        return out

    def colour(self, channel: int) -> tuple[int, int, int]:
        assert self.pixels is not None
        return self.pixels.colour(channel)


def led(seq: int, channel: int, colour: tuple[int, int, int], pattern: Pattern) -> bytes:
    return encode_frame(LedFrame(seq, 10, channel, Light(colour, pattern)))


@pytest.fixture
def array() -> Array:
    a = Array()
    a.firmware.boot()
    a.lines.clear()
    return a


def test_a_frame_is_lit_in_the_round_it_arrives(array: Array) -> None:
    array.send(led(0, 1, (255, 0, 0), Pattern.STEADY))
    array.firmware.step()
    assert array.colour(1) == (255, 0, 0) and array.colour(0) == (0, 0, 0)
    array.clock.now += 60_000
    array.firmware.step()
    assert array.colour(1) == (255, 0, 0)  # steady stays
    assert not [f for f in array.frames() if isinstance(f, RefusalFrame)]


def test_a_blink_goes_dark_and_a_pulse_breathes(array: Array) -> None:
    array.send(led(0, 0, (0, 255, 0), Pattern.BLINK) + led(1, 2, (0, 90, 255), Pattern.PULSE))
    array.firmware.step()
    assert array.colour(0) == (0, 255, 0)
    seen = set()
    for _ in range(40):
        array.clock.now += tcleds.PULSE_MS // 20
        array.firmware.step()
        seen.add(array.colour(2)[2])
    assert array.colour(0) == (0, 0, 0)  # the blink was once
    assert min(seen) >= int(255 * tcleds.PULSE_FLOOR) - 1 and max(seen) > 200 and len(seen) > 5  # never dark, never still


def test_a_frame_split_across_reads_is_taken_whole_and_a_repeat_is_skipped(array: Array) -> None:
    line = led(7, 2, (255, 110, 0), Pattern.STEADY)
    array.send(line[:9])
    array.firmware.step()
    assert array.colour(2) == (0, 0, 0)
    array.send(line[9:])
    array.send(led(7, 2, (0, 0, 0), Pattern.OFF))  # the same seq again: sent twice, not news
    array.firmware.step()
    assert array.colour(2) == (255, 110, 0)
    assert array.leds.taken == 1


@pytest.mark.parametrize(
    "line, reason",
    [
        (b"$1,5,L,1,FF0000,S*0000\n", "checksum"),
        (b"garbage\n", "format"),
        (b"$1,5,L,1,FF0000*\n", "format"),  # no checksum digits
        (encode_frame(LedFrame(1, 5, 9, Light((1, 2, 3), Pattern.STEADY))), "channel"),  # 3 LEDs fitted
        (None, "colour"),
        (None, "pattern"),
        (b"$1,5,Q,1*" + b"%04X" % 0 + b"\n", "checksum"),
        (b"$" + b"9" * 120 + b"\n", "format"),  # longer than a line
    ],
)
def test_a_bad_line_gets_one_refusal_naming_why_and_is_counted(array: Array, line: bytes | None, reason: str) -> None:
    if line is None:  # a well-checksummed frame with a bad colour or pattern: made with the firmware's own CRC
        body = "1,5,L,1,%s" % ("GG0000,S" if reason == "colour" else "FF0000,X")
        line = ("$%s*%04X\n" % (body, firmware_module("tcproto").crc16(body.encode()))).encode()
    array.send(line)
    array.firmware.step()
    refusals = [f for f in array.frames() if isinstance(f, RefusalFrame)]
    assert [r.reason for r in refusals] == [reason]
    assert array.leds.refused == 1 and array.colour(1) == (0, 0, 0)
    array.send(led(2, 1, (0, 255, 0), Pattern.STEADY))  # and the next good frame is taken
    array.firmware.step()
    assert array.colour(1) == (0, 255, 0)


def test_the_heartbeat_says_how_many_leds_and_how_many_lines_were_refused(array: Array) -> None:
    array.send(b"noise\n")
    array.firmware.step()
    array.frames()
    array.firmware.heartbeat()
    figures = dict(f for frame in array.frames() if isinstance(frame, TimingFrame) for f in frame.figures)
    assert figures["leds"] == "3" and figures["led_bad"] == "1"


def test_an_array_without_leds_refuses_an_led_frame() -> None:
    host = [led(0, 0, (0, 255, 0), Pattern.STEADY)]
    rig = FirmwareRig(2, host_input=lambda: host.pop(0) if host else b"")
    rig.firmware.boot()
    rig.lines.clear()
    rig.firmware.step()
    frames = [parse_frame(line.rstrip("\n").encode()) for line in rig.lines]
    assert [f.reason for f in frames if isinstance(f, RefusalFrame)] == ["type"]


def test_brightness_scales_every_colour() -> None:
    pixels: dict[int, tuple[int, int, int]] = {}

    class Chain:
        def __setitem__(self, i: int, c: tuple[int, int, int]) -> None:
            pixels[i] = c

        def write(self) -> None:
            pass

    leds = tcleds.Leds(Chain(), 2, 0.25)
    leds.take(0, 1, (255, 255, 255), tcleds.STEADY, 0)
    leds.render(0)
    assert pixels[1] == (63, 63, 63)
    with pytest.raises(ValueError):
        tcleds.Leds(Chain(), 2, 0)
