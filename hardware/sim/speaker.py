"""A simulated speaker: plays a WAV file in real time to nobody, and notes what it played.

    python -m hardware.sim.speaker NOTES.txt FILE.wav

It stands where ``aplay`` does (``AudioOut("speaker", (python, "-m", "hardware.sim.speaker", notes))``)
on a machine with no sound card: it takes as long as the sound lasts, so a sound can be cut short
(``SIGTERM``, as the announcer cuts a stale ruling), and appends ``start FILE`` then ``done FILE`` to
NOTES (a cut sound has no ``done``). tests/hardware/test_audio.py reads the notes.
"""

from __future__ import annotations

import sys
import time
import wave
from pathlib import Path


def seconds(wav: Path) -> float:
    with wave.open(str(wav), "rb") as sound:
        return sound.getnframes() / sound.getframerate()


def note(notes: Path, line: str) -> None:
    with notes.open("a", encoding="utf-8") as out:
        out.write(line + "\n")


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python -m hardware.sim.speaker NOTES.txt FILE.wav", file=sys.stderr)
        return 2
    notes, wav = Path(argv[0]), Path(argv[1])
    length = seconds(wav)  # an unreadable file fails here, as aplay would
    note(notes, f"start {wav.name}")
    time.sleep(length)
    note(notes, f"done {wav.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
