"""The referee's tones, one per kind of verdict, written as WAV files (issue 25).

Each is short and told apart from the others by pitch and rhythm, not by loudness alone:

- legal: two quick rising notes (E6, A6), 0.16 s;
- illegal: a low double buzz (a square wave at 196 Hz), 0.45 s;
- alert: three even beeps at 988 Hz, 0.42 s;
- waiting: one soft falling chime (C6 to G5), 0.3 s.

Made here with the standard library (no sample files to ship), at 22,050 Hz, 16-bit mono.
"""

from __future__ import annotations

import math
import struct
import wave
from collections.abc import Iterable
from pathlib import Path

from companion.core.rulings import Tone

RATE = 22050
FADE_S = 0.006
"""Each note fades in and out this long: a hard edge clicks."""

Note = tuple[float, float, str]
"""(frequency in Hz, or 0 for a rest; seconds; "sine" or "square")."""

NOTES: dict[Tone, tuple[Note, ...]] = {
    Tone.LEGAL: ((1318.5, 0.07, "sine"), (0, 0.02, "sine"), (1760.0, 0.07, "sine")),
    Tone.ILLEGAL: ((196.0, 0.18, "square"), (0, 0.09, "sine"), (196.0, 0.18, "square")),
    Tone.ALERT: ((987.8, 0.1, "sine"), (0, 0.06, "sine"), (987.8, 0.1, "sine"), (0, 0.06, "sine"), (987.8, 0.1, "sine")),
    Tone.WAITING: ((1046.5, 0.12, "sine"), (784.0, 0.18, "sine")),
}


def samples(notes: Iterable[Note], volume: float) -> list[int]:
    """16-bit samples of ``notes`` at ``volume`` (0-1 of full scale)."""
    out: list[int] = []
    peak = 0.6 * max(0.0, min(volume, 1.0)) * 32767
    fade = int(FADE_S * RATE)
    for frequency, seconds, shape in notes:
        n = int(seconds * RATE)
        for i in range(n):
            if frequency == 0:
                out.append(0)
                continue
            phase = math.sin(2 * math.pi * frequency * i / RATE)
            value = (1.0 if phase >= 0 else -1.0) * 0.5 if shape == "square" else phase
            edge = min(1.0, i / fade, (n - 1 - i) / fade) if fade else 1.0
            out.append(int(peak * value * edge))
    return out


def write_tone(tone: Tone, path: Path, volume: float) -> Path:
    """Write ``tone`` at ``volume`` (0-1) to ``path`` as a WAV file; returns ``path``."""
    data = samples(NOTES[tone], volume)
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(struct.pack(f"<{len(data)}h", *data))
    return path


def duration_s(tone: Tone) -> float:
    return sum(seconds for _, seconds, _ in NOTES[tone])
