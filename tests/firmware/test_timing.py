"""The array measures its own timing (firmware 2.1): the boot self-test of a register access and a
Pin.value(), and every polling round, reported in T frames after each heartbeat. The microseconds
come from the simulated bus here: a clock that advances only with the transactions and bytes the
firmware puts on it, so what the firmware reports can be checked exactly."""

from __future__ import annotations

from typing import Any

from hardware.polltime import measured_cost
from hardware.protocol import MAX_LINE, HeartbeatFrame, StatsFrame, TimingFrame, parse_frame
from hardware.sim.spi import SimBus
from hardware.sim.firmware import FirmwareRig

TRANSACTION_US = 40
BYTE_US = 8  # 1 MHz SPI


class BusClock:
    """Microseconds spent on the simulated bus so far, plus one for every reading (so loops cost something)."""

    def __init__(self) -> None:
        self.bus: SimBus | None = None
        self.readings = 0

    def __call__(self) -> int:
        assert self.bus is not None
        self.readings += 1
        return self.bus.transactions * TRANSACTION_US + self.bus.bytes * BYTE_US + self.readings


def rig(**options: Any) -> tuple[FirmwareRig, BusClock]:
    clock = BusClock()
    array = FirmwareRig(2, ticks_us=clock, ticks_diff=lambda a, b: a - b, board=[("on", "sim"), ("spi_khz", "1000")], **options)
    clock.bus = array.field.bus
    return array, clock


def timing(lines: list[str]) -> dict[str, str]:
    figures: dict[str, str] = {}
    for line in lines:
        assert len(line.encode()) <= MAX_LINE
        frame = parse_frame(line.rstrip("\n").encode())
        if isinstance(frame, TimingFrame):
            figures.update(frame.figures)
    return figures


def test_the_boot_self_test_reports_what_one_access_costs_on_its_bus() -> None:
    array, _ = rig(self_test_count=50)
    array.firmware.boot()
    figures = timing(array.lines)
    assert figures["on"] == "sim" and figures["n"] == "50"
    # A register read or write is one transaction of two bytes; the empty loop's cost is taken off.
    assert float(figures["rd_us"]) == float(figures["wr_us"]) == TRANSACTION_US + 2 * BYTE_US
    assert float(figures["pin_us"]) == 0.0  # chip-select already high: no transaction, nothing on the bus
    assert "round_ms" not in figures  # no round polled yet at boot
    cost = measured_cost(figures)
    assert cost is not None and cost.measured and round(cost.transaction_s * 1e6, 6) == TRANSACTION_US


def test_each_heartbeat_reports_the_rounds_since_the_last_one() -> None:
    array, clock = rig()
    array.firmware.boot()
    array.lines.clear()
    bus = array.field.bus
    spent = []
    for _ in range(5):
        before = bus.transactions * TRANSACTION_US + bus.bytes * BYTE_US
        array.firmware.step()
        spent.append(bus.transactions * TRANSACTION_US + bus.bytes * BYTE_US - before)
    array.clock.now += array.firmware.heartbeat_ms
    array.firmware.step()
    frames = [parse_frame(line.rstrip("\n").encode()) for line in array.lines]
    kinds = [type(f) for f in frames]
    assert kinds.index(TimingFrame) > kinds.index(HeartbeatFrame) and kinds[-1] is TimingFrame
    assert all(k is TimingFrame for k in kinds[kinds.index(TimingFrame):])  # T frames close the heartbeat, after its S frames
    assert StatsFrame in kinds
    figures = timing(array.lines)
    assert figures["rounds"] == "6"
    assert 0 < float(figures["round_ms"]) <= float(figures["max_ms"])
    assert float(figures["max_ms"]) * 1000 >= max(spent)
    array.lines.clear()
    array.clock.now += array.firmware.heartbeat_ms
    array.firmware.step()
    assert timing(array.lines)["rounds"] == "1"  # counted afresh after each heartbeat


def test_without_a_microsecond_clock_no_timing_is_sent() -> None:
    array = FirmwareRig(2)
    array.firmware.boot()
    assert not any(",T," in line for line in array.lines)
