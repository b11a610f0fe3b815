"""The Pi install as `make pi` would run it (printed by make -n, since it installs system files),
and the unit and constraints it installs."""

from __future__ import annotations

import subprocess

from tests.hardware.helpers import ROOT


def test_make_pi_builds_a_venv_for_apt_picamera2_without_test_extras_and_installs_the_unit() -> None:
    dry = subprocess.run(["make", "-n", "pi"], cwd=ROOT, capture_output=True, text=True, timeout=30, check=True).stdout
    lines = dry.splitlines()
    assert any("-m venv --system-site-packages" in line for line in lines)
    (install,) = [line for line in lines if "pip install" in line and "-e ." in line]
    assert "[test]" not in install and "-c hardware/pi-constraints.txt" in install
    assert "python3-picamera2" in dry
    assert "/etc/udev/rules.d/99-table-companion.rules" in dry and "/etc/systemd/system/table-companion.service" in dry
    assert "systemd-time-wait-sync.service" in dry


def test_the_constraints_keep_numpy_1_for_apt_picamera2_and_the_unit_waits_for_time_sync() -> None:
    constraints = [l for l in (ROOT / "hardware/pi-constraints.txt").read_text().splitlines() if l and not l.startswith("#")]
    assert "numpy<2" in constraints
    unit = (ROOT / "hardware/table-companion.service").read_text()
    after = [l for l in unit.splitlines() if l.startswith("After=")]
    assert after and "time-sync.target" in after[0]
