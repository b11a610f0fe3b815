"""`companion hw check` against the real firmware on a simulated field, through its command line."""

from __future__ import annotations

import re
import sys
import threading
import time
from pathlib import Path

import pytest

from companion.cli import main
from hardware.sim.field import FieldSettings
from hardware.sim.firmware_array import FirmwareArray

CARDS = [f"04{n:02x}2230a1b2{n:02x}" for n in range(1, 6)]


def test_hw_check_reports_each_reader(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    array = FirmwareArray(
        3,
        kinds=["pile", "pad", "pad"],
        link=tmp_path / "array",
        heartbeat_ms=200,
        settings=FieldSettings(bit_error_rate=0.05, seed=3),
    )
    array.plug()
    try:
        for uid in CARDS[:3]:
            array.place(0, uid)
        array.place(1, CARDS[3])
        with array._field_lock:
            array.rig.chips[2].alive = False  # a reader with a broken wire
        placed_later = threading.Timer(0.6, lambda: array.place(1, CARDS[4], wait=False))
        placed_later.start()
        code = main(["hw", "check", "--port", array.port, "--seconds", "3"])  # room for the timer under load
        placed_later.join()
    finally:
        array.close()
    out = capsys.readouterr().out
    assert code == 1  # a reader down and read errors: the person at the bench is told
    rows = {m.group(1): m.group(0) for m in re.finditer(r"^(array:\d+) .*$", out, re.M)}
    pile = rows["array:0"].split()
    assert pile[1] == "ok" and pile[2] == "3" and float(pile[3]) > 0 and float(pile[4]) > 0
    assert int(pile[6]) + int(rows["array:1"].split()[6]) > 0  # the noisy field's errors are counted
    assert all(uid in rows["array:0"] for uid in CARDS[:3])
    pad = rows["array:1"].split()
    assert pad[1] == "ok" and pad[2] == "2" and int(pad[7]) >= 1  # a card arrived while it listened
    assert rows["array:2"].split()[1] == "FAILED"
    assert "PROBLEMS" in out


def test_hw_check_says_clearly_when_the_port_cannot_be_opened(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["hw", "check", "--port", str(tmp_path / "nothing"), "--seconds", "0.2"])
    assert code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot open the array" in err


def test_hw_check_timing_prints_what_the_array_measured_and_the_model_with_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    array = FirmwareArray(
        2,
        kinds=["pile", "pad"],
        link=tmp_path / "array",
        heartbeat_ms=200,
        ticks_us=lambda: time.perf_counter_ns() // 1000,  # the host's own clock: CPython on a simulated bus
        ticks_diff=lambda a, b: a - b,
        board=[("on", sys.platform), ("spi_khz", "1000")],
    )
    array.plug()
    try:
        array.place(0, CARDS[0])
        code = main(["hw", "check", "--port", array.port, "--seconds", "1.0", "--timing"])
    finally:
        array.close()
    out = capsys.readouterr().out
    assert code == 0, out
    read = re.search(r"register read \(one chip-select SPI transaction, 2 bytes\)\s+([0-9.]+) us", out)
    assert read is not None and float(read.group(1)) > 0
    rounds = re.search(r"polling round, as the readers lie now\s+mean ([0-9.]+) ms, max ([0-9.]+) ms over (\d+) rounds", out)
    assert rounds is not None and int(rounds.group(3)) > 0 and float(rounds.group(1)) <= float(rounds.group(2))
    model = re.findall(r"^  8 readers: 4 piles of 20, 4 pads empty\s+([0-9.]+) ms measured  \(([0-9.]+) ms cited\)$", out, re.M)
    assert len(model) == 1


def test_hw_check_timing_says_when_the_firmware_sends_none(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    array = FirmwareArray(1, link=tmp_path / "array", heartbeat_ms=200)
    array.plug()
    try:
        code = main(["hw", "check", "--port", array.port, "--seconds", "0.6", "--timing"])
    finally:
        array.close()
    assert code == 1 and "no timing from the array" in capsys.readouterr().out


def test_hw_check_lights_each_led_in_turn(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    array = FirmwareArray(3, link=tmp_path / "array", heartbeat_ms=200, leds=True)
    array.plug()
    try:
        code = main(["hw", "check", "--port", array.port, "--seconds", "2.5"])
        # The last frames written are read by the firmware a polling round later.
        lit = array.wait_lit(lambda writes: any(w.colours[2] != (0, 0, 0) for w in writes) and writes[-1].colours == ((0, 0, 0),) * 3)
    finally:
        array.close()
    out = capsys.readouterr().out
    assert code == 0, out
    assert "LEDs: 3 fitted; lit white in turn, 0.3 s each: channels 0 1 2 (all done)" in out
    # Read back from the simulated array: each LED alone, in channel order, then all dark.
    alone = []
    for write in lit:
        on = [c for c, colour in enumerate(write.colours) if colour != (0, 0, 0)]
        if len(on) == 1 and (not alone or alone[-1] != on[0]):
            alone.append(on[0])
        assert len(on) <= 1, f"two LEDs lit at once: {write.colours}"
    assert alone == [0, 1, 2] and lit[-1].colours == ((0, 0, 0),) * 3


def test_hw_check_says_when_the_array_has_no_leds(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    array = FirmwareArray(1, link=tmp_path / "array", heartbeat_ms=200)
    array.plug()
    try:
        main(["hw", "check", "--port", array.port, "--seconds", "0.8"])
    finally:
        array.close()
    assert "LEDs: the array did not say it drives any" in capsys.readouterr().out
