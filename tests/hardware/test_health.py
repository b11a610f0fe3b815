"""Health reports: statuses, counters, the rate limit on bursts of trouble, backoff; the Pi files."""

from __future__ import annotations

import configparser
import time
from pathlib import Path
from typing import Any

import pytest

from hardware.health import COUNTER_REPORT_S, Backoff, HealthBoard, Status

ROOT = Path(__file__).resolve().parents[2]


def board() -> tuple[HealthBoard, list[tuple[str, dict[str, Any]]]]:
    reports: list[tuple[str, dict[str, Any]]] = []
    return HealthBoard(lambda reader, status: reports.append((reader, status))), reports


def test_a_change_of_status_is_reported_with_every_counter() -> None:
    health, reports = board()
    health.set_status("array", Status.OK, "open")
    reader, status = reports[-1]
    assert reader == "array" and status["status"] == "ok" and status["detail"] == "open"
    assert {"events", "bad_frames", "gaps", "duplicates", "unknown_tags", "reconnects"} <= set(status)


def test_the_same_status_again_is_not_reported() -> None:
    health, reports = board()
    health.set_status("array", Status.OK, "open")
    health.set_status("array", Status.OK, "open")
    assert len(reports) == 1
    health.set_status("array", Status.SILENT, "quiet")
    assert [s["status"] for _, s in reports] == ["ok", "silent"]


def test_tag_events_are_counted_without_a_report_each() -> None:
    health, reports = board()
    for _ in range(100):
        health.count("array:0", "events")
    assert reports == [] and health.status("array:0")["events"] == 100


def test_a_burst_of_bad_frames_is_reported_at_once_then_at_most_twice_a_second() -> None:
    health, reports = board()
    for _ in range(50):
        health.count("array", "bad_frames")
    assert len(reports) == 1 and reports[0][1]["bad_frames"] == 1
    health.flush()  # too soon: held back
    assert len(reports) == 1
    time.sleep(COUNTER_REPORT_S + 0.05)
    health.flush()
    assert len(reports) == 2 and reports[-1][1]["bad_frames"] == 50
    health.flush()  # nothing new
    assert len(reports) == 2


def test_a_status_change_carries_held_back_counts() -> None:
    health, reports = board()
    health.count("array", "gaps", 3)
    health.count("array", "gaps", 2)
    health.set_status("array", Status.RECONNECTING, "lost")
    assert reports[-1][1]["gaps"] == 5


def test_asking_about_an_unknown_reader_changes_nothing() -> None:
    health, reports = board()
    assert health.status("usb:1")["detail"] == "never reported"
    assert health.snapshot() == {} and reports == []


def test_a_broken_callback_does_not_break_the_reporter() -> None:
    def broken(reader: str, status: dict[str, Any]) -> None:
        raise RuntimeError("scoreboard down")

    health = HealthBoard(broken)
    health.set_status("array", Status.OK)
    assert health.status("array")["status"] == "ok"


def test_backoff_doubles_to_its_maximum_and_resets() -> None:
    backoff = Backoff(0.2, 1.0)
    assert [backoff.failed(10.0 + i) for i in range(5)] == [0.2, 0.4, 0.8, 1.0, 1.0]
    assert backoff.failing_for(20.0) == pytest.approx(10.0)
    backoff.succeeded()
    assert backoff.failed(30.0) == 0.2 and backoff.failing_for(30.0) == 0.0


def test_the_systemd_unit_restarts_on_failure_and_serves_the_config() -> None:
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.read(ROOT / "hardware" / "table-companion.service")
    service = unit["Service"]
    assert service["Restart"] == "on-failure"
    assert service["ExecStart"].endswith("companion serve --config /etc/table-companion/table.toml")
    assert unit["Install"]["WantedBy"] == "multi-user.target"


def test_the_udev_rule_covers_every_reader() -> None:
    rules = (ROOT / "hardware" / "99-table-companion.rules").read_text()
    for vendor, product in [("072f", "2200"), ("04cc", "2533"), ("2e8a", "0005")]:
        assert f'ATTRS{{idVendor}}=="{vendor}", ATTRS{{idProduct}}=="{product}"' in rules
    assert 'SYMLINK+="table-array"' in rules
