"""Which pip constraints keep the Pi's venv on the ABI of the numpy apt installed (``make pi``).

The venv is built with ``--system-site-packages`` so that it sees apt's ``python3-picamera2``,
whose compiled parts are built against apt's ``python3-numpy``. A numpy of another major version
in the venv would shadow apt's and break them, so pip is held to apt's numpy, and to an OpenCV
wheel built for it, by a constraints file per Raspberry Pi OS release. The release is told by the
numpy apt installed (its major version *is* the ABI), so a derivative with the same numpy works too.

``make pi`` runs this file with the system python (``python3 hardware/pi_constraints.py``): it
prints the constraints file to use, or says why there is none and exits 2. It imports nothing of
the project. ``tests/hardware/test_pi_install.py`` has pip resolve each release's pinned set for
aarch64 and that release's Python.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class PiRelease:
    """A Raspberry Pi OS release as pip sees it."""

    name: str
    python: str
    """The system python's version (major.minor): the venv's, since the venv is made from it."""
    glibc: tuple[int, int]
    """The C library's version: the newest manylinux wheel tag that runs there."""
    numpy_major: int
    """apt's python3-numpy major version: the ABI apt's picamera2 is built against."""
    constraints: Path


RELEASES = (
    PiRelease("bookworm", "3.11", (2, 36), 1, HERE / "pi-constraints-bookworm.txt"),
    PiRelease("trixie", "3.13", (2, 41), 2, HERE / "pi-constraints-trixie.txt"),
)


class NoRelease(LookupError):
    """No constraints file for this numpy."""


def release_for_numpy(version: str) -> PiRelease:
    """The release whose apt numpy has ``version``'s major version; :class:`NoRelease` naming it if none."""
    major = version.split(".", 1)[0]
    for release in RELEASES:
        if major == str(release.numpy_major):
            return release
    known = ", ".join(f"numpy {r.numpy_major} ({r.name})" for r in RELEASES)
    raise NoRelease(f"apt's numpy is {version}: no pip constraints for it (known: {known}); add a file to hardware/pi_constraints.py")


def main() -> int:
    try:
        import numpy
    except ImportError:
        print("the system python has no numpy: apt-get install python3-picamera2 (it brings python3-numpy)", file=sys.stderr)
        return 2
    try:
        release = release_for_numpy(numpy.__version__)
    except NoRelease as exc:
        print(exc, file=sys.stderr)
        return 2
    running = f"{sys.version_info.major}.{sys.version_info.minor}"
    if running != release.python:
        print(f"note: numpy {numpy.__version__} is {release.name}'s, whose python is {release.python}; this one is {running}", file=sys.stderr)
    print(release.constraints)
    return 0


if __name__ == "__main__":
    sys.exit(main())
