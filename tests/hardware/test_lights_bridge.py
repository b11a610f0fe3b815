"""The bridge's half of the lights (firmware 2.3): L frames encoded and parsed both ways, lights
queued without waiting (the latest per channel), sent once the array says it has LEDs, sent again
after it reboots, refused frames counted, and an array with no LEDs said once."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from companion.core.errors import FrameError
from companion.core.lights import Light, Pattern
from hardware.bridge import ArrayBridge
from hardware.health import HealthBoard
from hardware.leds import LightQueue
from hardware.protocol import LedFrame, RefusalFrame, encode_frame, parse_frame
from hardware.sim.array import SimulatedArray
from hardware.sim.firmware_array import FirmwareArray
from tests.hardware.helpers import wait_until

RED = Light((255, 0, 0), Pattern.STEADY)
GREEN = Light((0, 255, 0), Pattern.BLINK)


def test_led_and_refusal_frames_round_trip_and_bad_ones_are_named() -> None:
    frame = LedFrame(12, 3400, 5, Light((255, 110, 0), Pattern.PULSE))
    line = encode_frame(frame)
    assert line.startswith(b"$12,3400,L,5,FF6E00,P*") and parse_frame(line.rstrip(b"\n")) == frame
    assert parse_frame(encode_frame(RefusalFrame(3, 9, "checksum")).rstrip(b"\n")) == RefusalFrame(3, 9, "checksum")
    body = b"1,2,L,1,FF00ZZ,S"
    with pytest.raises(FrameError, match="colour"):
        parse_frame(b"$" + body + b"*" + b"%04X" % __import__("binascii").crc_hqx(body, 0xFFFF))
    with pytest.raises(FrameError, match="refusal"):
        parse_frame(b"$1,2,R,Bad Word*" + b"%04X" % __import__("binascii").crc_hqx(b"1,2,R,Bad Word", 0xFFFF))


def test_the_queue_keeps_the_latest_light_per_channel() -> None:
    queue = LightQueue()
    queue.put(1, RED)
    queue.put(2, GREEN)
    queue.put(1, GREEN)
    assert queue.take(0) == [(2, GREEN), (1, GREEN)] and queue.superseded == 1
    assert queue.take(0) == []


def test_lights_reach_the_firmware_and_come_back_after_a_reboot(tmp_path: Path) -> None:
    health = HealthBoard()
    with FirmwareArray(3, link=tmp_path / "array", heartbeat_ms=100, leds=True) as array:
        bridge = ArrayBridge(array.port, lambda e: None, health)
        bridge.show(1, RED)  # before the array has said anything: kept until it says it has LEDs
        with bridge:
            array.wait_colour(1, lambda c: c == (255, 0, 0))
            bridge.show(2, GREEN)
            wait_until(lambda: any(lit.colours[2] == (0, 255, 0) for lit in array.lit()), what="the blink")
            array.stop_firmware()  # power cycle: the firmware boots again, its LEDs dark at boot
            writes = len(array.lit())
            array.start_firmware()
            wait_until(lambda: any(lit.colours[1] == (0, 0, 0) for lit in array.lit()[writes:]), what="the LEDs dark at boot")
            array.wait_colour(1, lambda c: c == (255, 0, 0))  # the lasting light is sent again
            assert array.colour(2) == (0, 0, 0)  # the blink is not: it was news once
    assert health.status("lights:array").get("sent", 0) >= 3


def test_a_refused_frame_is_counted(tmp_path: Path) -> None:
    health = HealthBoard()
    with FirmwareArray(2, link=tmp_path / "array", heartbeat_ms=100, leds=True) as array:
        with ArrayBridge(array.port, lambda e: None, health) as bridge:
            wait_until(lambda: bridge.lights.leds == 2, what="the LED count")
            bridge.show(5, RED)  # no LED there: the bridge drops it itself
            wait_until(lambda: bridge.lights.link is not None, what="the open port")
            bridge.lights.link.write(b"$1,1,L,1,FF0000,S*0000\n")  # a garbled frame on the wire
            wait_until(lambda: health.status("array").get("led_refused") == 1, what="the refusal")
    assert bridge.lights.sent == 0


def test_an_array_without_leds_is_said_once_and_the_lights_dropped(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="hardware.bridge")
    health = HealthBoard()
    with SimulatedArray(2, link=tmp_path / "array", heartbeat_s=0.05) as array:
        with ArrayBridge(array.port, lambda e: None, health) as bridge:
            bridge.show(0, RED)
            wait_until(lambda: bridge.lights.leds == 0, what="three heartbeats with no LED figure")
            wait_until(lambda: health.status("lights:array").get("dropped") == 1, what="the light dropped")
            bridge.show(1, RED)
            wait_until(lambda: health.status("lights:array").get("dropped") == 2, what="the next one dropped")
    said = [r for r in caplog.records if "drives no LEDs" in r.getMessage()]
    assert len(said) == 1 and health.status("lights:array")["status"] == "down"
    assert bridge.lights.sent == 0
