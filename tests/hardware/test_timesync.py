"""The bounded wait for the clock before the service starts: a sync file that appears (as
systemd-timesyncd touches it), a kernel that says synchronised, and a table with no network that
starts anyway; and the unit and drop-in that use it, read as systemd reads them (configparser)."""

from __future__ import annotations

import configparser
import math
import subprocess
from pathlib import Path

import pytest

from companion.cli import main
from hardware.timesync import kernel_clock_synced, seconds_since_boot, wait_for_clock
from tests.hardware.helpers import ROOT


class BootClock:
    """Seconds since boot that move only when the wait sleeps; ``at`` runs things at given times."""

    def __init__(self, now: float) -> None:
        self.now = now
        self.sleeps: list[float] = []
        self.at: dict[float, list[object]] = {}

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        assert seconds > 0
        self.sleeps.append(seconds)
        self.now += seconds
        for when in sorted(self.at):
            if when <= self.now:
                for action in self.at.pop(when):
                    action()  # type: ignore[operator]


def test_the_wait_ends_when_timesyncd_touches_its_sync_file(tmp_path: Path) -> None:
    sync_file = tmp_path / "timesync" / "synchronized"
    clock = BootClock(12.0)
    clock.at[20.0] = [lambda: (sync_file.parent.mkdir(), sync_file.touch())]
    result = wait_for_clock(90, sync_file=sync_file, kernel_synced=lambda: False, since_boot=clock, sleep=clock.sleep)
    assert result.synced and result.by == "the sync file"
    assert result.waited_s == pytest.approx(8.0) and result.since_boot_s == pytest.approx(20.0)
    assert "synchronised (the sync file) after waiting 8.0 s" in result.sentence()


def test_the_kernel_saying_synchronised_ends_the_wait_at_once(tmp_path: Path) -> None:
    clock = BootClock(5.0)
    result = wait_for_clock(90, sync_file=tmp_path / "none", kernel_synced=lambda: True, since_boot=clock, sleep=clock.sleep)
    assert result.synced and result.by == "the kernel" and clock.sleeps == []


def test_a_table_with_no_network_starts_90_s_after_boot_and_says_so(tmp_path: Path) -> None:
    clock = BootClock(14.0)
    result = wait_for_clock(90, sync_file=tmp_path / "none", kernel_synced=lambda: False, since_boot=clock, sleep=clock.sleep)
    assert not result.synced
    assert result.since_boot_s == pytest.approx(90.0) and result.waited_s == pytest.approx(76.0)
    assert math.isclose(sum(clock.sleeps), 76.0) and max(clock.sleeps) <= 0.5
    assert "not synchronised" in result.sentence() and "starting with the clock as it is" in result.sentence()


def test_a_restart_long_after_boot_does_not_wait_again(tmp_path: Path) -> None:
    clock = BootClock(3600.0)  # the service crashed an hour in, offline: it starts at once
    result = wait_for_clock(90, sync_file=tmp_path / "none", kernel_synced=lambda: None, since_boot=clock, sleep=clock.sleep)
    assert not result.synced and clock.sleeps == [] and result.waited_s == 0.0


def test_the_real_kernel_and_boot_clock_answer() -> None:
    assert kernel_clock_synced() in (True, False, None)  # adjtimex(2) with no modes: asks, sets nothing
    assert seconds_since_boot() > 0


def test_wait_clock_on_the_command_line_says_which_and_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hw", "wait-clock", "--within", "0"]) == 0  # long after boot: no wait, the real clocks asked
    out = capsys.readouterr().out
    assert out.startswith("the system clock is") and "after boot" in out


def unit_file(path: Path) -> configparser.ConfigParser:
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str  # type: ignore[assignment,method-assign]  # systemd keys are case-sensitive
    unit.read(path)
    return unit


def test_the_unit_orders_after_the_clock_without_pulling_in_the_endless_wait() -> None:
    unit = unit_file(ROOT / "hardware" / "table-companion.service")
    after = unit["Unit"]["After"].split()
    wants = unit["Unit"].get("Wants", "").split()
    assert "time-sync.target" in after and "time-set.target" in after
    assert "time-sync.target" not in wants and not any("time-wait-sync" in w for w in wants)
    service = unit["Service"]
    pre = service["ExecStartPre"].split()
    assert pre[0].endswith("/companion") and pre[1:3] == ["hw", "wait-clock"]
    within = float(pre[pre.index("--within") + 1])
    # The unit's own start timeout outlasts the wait, so a table offline at boot is not killed mid-wait.
    assert float(service["TimeoutStartSec"]) > within


def test_the_drop_in_bounds_systemd_time_wait_sync_and_make_pi_installs_it_without_enabling_the_wait() -> None:
    drop_in = unit_file(ROOT / "hardware" / "time-wait-sync-bounded.conf")
    timeout = drop_in["Service"]["TimeoutStartSec"]
    assert timeout.endswith("s") and 0 < float(timeout[:-1]) <= 180
    dry = subprocess.run(["make", "-n", "pi"], cwd=ROOT, capture_output=True, text=True, timeout=30, check=True).stdout
    assert "/etc/systemd/system/systemd-time-wait-sync.service.d/table-companion.conf" in dry
    enables = [line for line in dry.splitlines() if "systemctl enable" in line]
    assert enables and not any("systemd-time-wait-sync" in line for line in enables)
