"""Call buttons wired to the array (firmware 2.2): the firmware's own code reads simulated input pins
and reports each press once with a P frame, checked by the host's own parser."""

from __future__ import annotations

import pytest

from hardware.protocol import PressFrame, TagFrame, encode_frame, parse_frame
from hardware.sim.firmware import FirmwareRig, firmware_module

tcarray = firmware_module("tcarray")


class Array(FirmwareRig):
    def frames(self) -> list[object]:
        out = [parse_frame(line.rstrip("\n").encode()) for line in self.lines]
        self.lines.clear()
        return out

    def presses(self) -> list[tuple[int, int]]:
        return [(f.button, f.ms) for f in self.frames() if isinstance(f, PressFrame)]

    def rounds(self, n: int) -> None:
        for _ in range(n):
            self.firmware.step()


@pytest.fixture
def array() -> Array:
    a = Array(2, buttons=3)
    a.firmware.boot()
    a.lines.clear()
    return a


def test_a_press_is_reported_once_stamped_when_the_button_went_down(array: Array) -> None:
    array.rounds(2)
    array.buttons[1].held = True
    array.rounds(1)
    went_down = array.clock.now
    array.rounds(4)  # held on: still one press
    presses = array.presses()
    assert [b for b, _ in presses] == [1]
    assert went_down - 20 < presses[0][1] <= went_down  # the round that first read it down
    array.buttons[1].held = False
    array.rounds(3)
    array.buttons[1].held = True
    array.rounds(3)
    assert [b for b, _ in array.presses()] == [1]  # let go and pressed again: a second press


def test_a_bounce_shorter_than_the_press_rounds_says_nothing(array: Array) -> None:
    array.buttons[0].held = True
    array.rounds(1)
    array.buttons[0].held = False
    array.rounds(3)
    assert array.presses() == []
    assert tcarray.VERSION == "tc-array-2.4"


def test_buttons_and_tags_share_the_frame_sequence(array: Array) -> None:
    array.chips[0].place(bytes.fromhex("0A1B2C3D4E5F60"))
    array.buttons[2].held = True
    array.rounds(3)
    frames = [f for f in array.frames() if isinstance(f, (TagFrame, PressFrame))]
    assert [type(f).__name__ for f in frames] == ["TagFrame", "PressFrame"]
    assert frames[1].seq == frames[0].seq + 1  # type: ignore[union-attr]


def test_the_host_encodes_press_frames_as_the_firmware_does() -> None:
    frame = PressFrame(7, 5071, 3)
    line = encode_frame(frame)
    assert line == tcarray.frame(7, 5071, "P", ["3"]).encode()
    assert parse_frame(line.rstrip(b"\n")) == frame


def test_more_than_sixteen_buttons_are_refused() -> None:
    with pytest.raises(ValueError, match="16 at most"):
        Array(1, buttons=17)
