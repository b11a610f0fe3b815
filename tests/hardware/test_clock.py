"""Mapping the array's millisecond clock to table time."""

from __future__ import annotations

import pytest

from hardware.clock import DeviceClock

T0 = 1_800_000_000.0


def test_events_keep_their_device_spacing_whatever_the_arrival() -> None:
    clock = DeviceClock()
    a = clock.to_table(10_000, T0 + 10.002)
    b = clock.to_table(10_003, T0 + 10.020)  # came 18 ms later, happened 3 ms later
    assert b - a == pytest.approx(0.003, abs=1e-6)  # float seconds near 1.8e9 resolve ~0.2 us


def test_the_smallest_delay_sets_the_offset() -> None:
    clock = DeviceClock()
    clock.to_table(1_000, T0 + 1.050)
    clock.to_table(2_000, T0 + 2.004)
    assert clock.offset == pytest.approx(T0 + 0.004)
    assert clock.to_table(3_000, T0 + 3.100) == pytest.approx(T0 + 3.004)


def test_a_table_time_is_never_after_the_line_arrived() -> None:
    clock = DeviceClock()
    for ms, arrived in [(0, T0 + 0.01), (500, T0 + 0.2), (900, T0 + 0.95)]:
        assert clock.to_table(ms, arrived) <= arrived


def test_table_time_never_runs_backwards_when_the_estimate_improves() -> None:
    clock = DeviceClock()
    first = clock.to_table(1_000, T0 + 1.100)  # a slow first line
    second = clock.to_table(1_001, T0 + 1.002)  # a fast one: the offset drops by ~0.1 s
    assert second >= first


def test_drift_is_followed_through_the_window() -> None:
    clock = DeviceClock(window_s=10.0)
    # The array's crystal runs 100 ppm slow: after 100 s it is 10 ms behind.
    for second in range(0, 101):
        ms = int(second * 1000 * (1 - 100e-6))
        t = clock.to_table(ms, T0 + second + 0.002)
    assert t == pytest.approx(T0 + 100 + 0.002, abs=0.002)


def test_a_device_restart_resets_the_offset() -> None:
    clock = DeviceClock()
    clock.to_table(500_000, T0 + 500.001)
    t = clock.to_table(20, T0 + 600.001)  # the array rebooted: its clock starts again
    assert t == pytest.approx(T0 + 600.001)
