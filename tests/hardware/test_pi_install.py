"""The Pi install as `make pi` would run it (printed by make -n, since it installs system files), the
constraints it chooses per Raspberry Pi OS release, and pip resolving each release's pinned set
for aarch64 and that release's Python from the package index (skipped only when it is unreachable)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from hardware.pi_constraints import RELEASES, NoRelease, PiRelease, release_for_numpy
from tests.hardware.helpers import ROOT

UNREACHABLE = ("NewConnectionError", "Max retries exceeded", "Temporary failure in name resolution", "Network is unreachable",
               "ConnectTimeout", "ProxyError", "Name or service not known", "ConnectionError")
"""pip's words for an index it could not reach (as opposed to a set it could not resolve)."""


def test_make_pi_builds_a_venv_for_apt_picamera2_without_test_extras_and_installs_the_unit() -> None:
    dry = subprocess.run(["make", "-n", "pi"], cwd=ROOT, capture_output=True, text=True, timeout=30, check=True).stdout
    lines = dry.splitlines()
    assert any("-m venv --system-site-packages" in line for line in lines)
    (install,) = [line for line in lines if "pip install" in line and "-e ." in line]
    assert "[test]" not in install and "hardware/pi_constraints.py" in install and "-c $constraints" in install
    assert "python3-picamera2" in dry
    assert "/etc/udev/rules.d/99-table-companion.rules" in dry and "/etc/systemd/system/table-companion.service" in dry


def test_each_release_keeps_its_own_numpy_major() -> None:
    assert release_for_numpy("1.24.2").name == "bookworm"  # Debian 12's python3-numpy
    assert release_for_numpy("2.2.4").name == "trixie"  # Debian 13's
    with pytest.raises(NoRelease, match="apt's numpy is 3.0.0"):
        release_for_numpy("3.0.0")
    for release in RELEASES:
        pins = [line for line in release.constraints.read_text().splitlines() if line and not line.startswith("#")]
        numpy_pin = next(line for line in pins if line.startswith("numpy"))
        assert f"<{release.numpy_major + 1}" in numpy_pin or f"<{release.numpy_major}." in numpy_pin, numpy_pin
        assert any(line.startswith("opencv-python-headless") for line in pins)
    bookworm = RELEASES[0].constraints.read_text()
    assert "numpy>=1.24,<2" in bookworm and "opencv-python-headless<4.12" in bookworm


def test_the_script_make_pi_runs_names_the_file_for_this_pythons_numpy() -> None:
    done = subprocess.run([sys.executable, "hardware/pi_constraints.py"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    import numpy

    if numpy.__version__.split(".")[0] not in {str(r.numpy_major) for r in RELEASES}:
        assert done.returncode == 2 and "no pip constraints" in done.stderr
    else:
        assert done.returncode == 0
        assert Path(done.stdout.strip()) == release_for_numpy(numpy.__version__).constraints


def project_requirements() -> list[str]:
    """pyproject's dependencies, less nfcpy, whose own dependency pydes is published only as a
    source archive: pure Python, which pip builds on the Pi without a compiler (nfcpy itself is a
    py3-none-any wheel, resolved below without its dependencies)."""
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    return [d for d in deps if not d.startswith("nfcpy")] + ["libusb1", "ndeflib"]


def pip_resolve(release: PiRelease, requirements: list[str], tmp_path: Path, constraints: Path, *, deps: bool = True) -> dict[str, str]:
    """What pip would install for ``release`` (name -> wheel file), binary wheels only; pytest.skip if the index is unreachable."""
    platforms = ["manylinux2014_aarch64"] + [f"manylinux_2_{minor}_aarch64" for minor in range(17, release.glibc[1] + 1)]
    report = tmp_path / f"{release.name}.json"
    command = [sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed", "--only-binary=:all:",
               "--python-version", release.python, "--implementation", "cp", "--report", str(report), "--quiet",
               "--timeout", "20", "--retries", "1", "-c", str(constraints)]
    command += [arg for platform in platforms for arg in ("--platform", platform)]
    command += [] if deps else ["--no-deps"]
    # This machine's own pip settings (local wheel folders, a machine-wide constraints file) stay out of it.
    env = {k: v for k, v in os.environ.items() if k not in ("PIP_FIND_LINKS", "PIP_EXTRA_INDEX_URL", "PIP_CONSTRAINT", "PIP_NO_INDEX")}
    env["PIP_CONFIG_FILE"] = os.devnull
    done = subprocess.run(command + requirements, capture_output=True, text=True, timeout=300, env=env)
    if done.returncode != 0:
        if any(marker in done.stderr for marker in UNREACHABLE):
            pytest.skip("the package index cannot be reached: the Pi's pinned set was not resolved")
        raise AssertionError(f"pip could not resolve for {release.name} (Python {release.python}, aarch64):\n{done.stderr[-2000:]}")
    return {item["metadata"]["name"]: item["download_info"]["url"].rsplit("/", 1)[-1] for item in json.loads(report.read_text())["install"]}


@pytest.mark.parametrize("release", RELEASES, ids=[r.name for r in RELEASES])
def test_pip_resolves_the_pinned_set_for_the_pi_as_binary_wheels(release: PiRelease, tmp_path: Path) -> None:
    wheels = pip_resolve(release, project_requirements(), tmp_path, release.constraints)
    tag = "cp" + release.python.replace(".", "")
    assert wheels["numpy"].startswith(f"numpy-{release.numpy_major}.") and f"-{tag}-{tag}-" in wheels["numpy"], wheels["numpy"]
    assert "aarch64" in wheels["numpy"] and "aarch64" in wheels["opencv-python-headless"]
    (nfcpy,) = pip_resolve(release, ["nfcpy>=1.0.4"], tmp_path, release.constraints, deps=False).values()
    assert nfcpy.endswith("-none-any.whl")


def test_the_bookworm_pins_on_trixies_python_are_what_broke_make_pi(tmp_path: Path) -> None:
    bookworm, trixie = RELEASES
    with pytest.raises(AssertionError, match="could not resolve for trixie"):
        pip_resolve(trixie, ["numpy>=1.26"], tmp_path, bookworm.constraints)  # numpy<2: no cp313 aarch64 wheel
