"""The Pi's audio out: the referee's tones and spoken rulings, played on their own thread (issue 25).

    out, why = find_audio_out("default")      # chosen once, at start: paplay, aplay or sox's play
    voice = Voice("en", volume=80)            # espeak-ng, offline; None for tones only
    announcer = Announcer(out, voice, tones=True, volume=80, health=board).start()
    announcer.say(ruling)                     # never waits
    announcer.take_back(TakeBack(seq, zone))  # stale rulings are dropped, one being said is cut short

The referee hands over a :class:`~companion.core.rulings.Ruling` and moves on; the player thread
plays its tone (made once, ``hardware/tones.py``), then the words, made to a WAV file by espeak-ng
(Debian's ``espeak-ng``) and kept for the next time they are said. At most :data:`MAX_WAITING`
rulings wait: an older one is stale by the time the table has moved on that far, and is dropped.

Health goes to the board under ``audio``: ``said``, ``dropped``, ``taken_back``, ``failed``, and a
status ``down`` when there is no audio device (said once), when espeak-ng has no such voice, or
when the player thread died.
"""

from __future__ import annotations

import hashlib
import logging
import os
import shutil
import subprocess
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from companion.core.rulings import Ruling, TakeBack, Tone
from hardware.health import HealthBoard, Status
from hardware.tones import write_tone

log = logging.getLogger(__name__)

AUDIO_ID = "audio"
MAX_WAITING = 6
"""Rulings that may wait to be said; the oldest is dropped when one more comes."""
SYNTH_TIMEOUT_S = 10.0
SPOKEN_CACHE = 128
"""Spoken rulings kept as WAV files (the same refusal is often said again)."""
ESPEAK = "espeak-ng"


@dataclass(frozen=True)
class AudioOut:
    """How a WAV file is played: the command, chosen once at start."""

    name: str
    argv: tuple[str, ...]

    def command(self, wav: Path) -> list[str]:
        return [*self.argv, str(wav)]


def find_audio_out(device: str = "default", which: Callable[[str], str | None] = shutil.which,
                   cards: Path = Path("/proc/asound/cards")) -> tuple[AudioOut | None, str]:
    """The player for ``device`` ("default", or an ALSA device such as ``plughw:1,0``), or None and why.

    The default device: PulseAudio's ``paplay`` when a sound server runs, else ALSA's ``aplay`` (or
    sox's ``play``) when the kernel lists a sound card. A named device is ALSA's, through ``aplay -D``.
    """
    if device != "default":
        if which("aplay") is None:
            return None, f"aplay is missing (apt-get install alsa-utils) for the ALSA device {device!r}"
        return AudioOut("aplay", ("aplay", "-q", "-D", device)), ""
    runtime = os.environ.get("XDG_RUNTIME_DIR", "")
    pulse = bool(os.environ.get("PULSE_SERVER")) or (bool(runtime) and Path(runtime, "pulse", "native").exists())
    if pulse and which("paplay") is not None:
        return AudioOut("paplay", ("paplay",)), ""
    listed = cards.read_text(encoding="utf-8", errors="replace") if cards.exists() else ""
    if not any(line.strip()[:1].isdigit() for line in listed.splitlines()):
        return None, f"no sound card ({cards} lists none) and no PulseAudio server"
    if which("aplay") is not None:
        return AudioOut("aplay", ("aplay", "-q")), ""
    if which("play") is not None:
        return AudioOut("play", ("play", "-q")), ""
    return None, "neither aplay (alsa-utils) nor play (sox) is installed"


class Voice:
    """espeak-ng speaking ``language`` at ``volume`` (0-100), offline, to WAV files."""

    def __init__(self, language: str = "en", volume: int = 80, program: str = ESPEAK) -> None:
        self.language = language
        self.volume = volume
        self.program = program

    def missing(self) -> str:
        """Why this voice cannot speak ("" if it can): espeak-ng absent, or no voice for the language."""
        if shutil.which(self.program) is None:
            return f"{self.program} is missing (apt-get install espeak-ng)"
        listed = subprocess.run([self.program, f"--voices={self.language}"], capture_output=True, text=True,
                                timeout=SYNTH_TIMEOUT_S, check=False)
        if len(listed.stdout.strip().splitlines()) < 2:  # the header line alone: no such voice
            return f"espeak-ng has no voice for the language {self.language!r} (espeak-ng --voices lists them)"
        return ""

    def to_wav(self, text: str, path: Path) -> Path:
        """Speak ``text`` into ``path``; a failure is a ``subprocess.CalledProcessError`` naming it."""
        # espeak-ng's amplitude runs 0-200 with 100 its default: the table's 100 is its default.
        subprocess.run([self.program, "-v", self.language, "-a", str(self.volume), "-w", str(path), "--stdin"],
                       input=text, text=True, capture_output=True, timeout=SYNTH_TIMEOUT_S, check=True)
        return path


@dataclass(frozen=True)
class Started:
    """A sound that began to play: the ruling, what was played, and ``time.monotonic()`` at its start."""

    ruling: Ruling
    what: str  # "tone" or "speech"
    at: float


class Announcer:
    """The queue of rulings and the player thread that says them, one after another."""

    def __init__(self, out: AudioOut | None, voice: Voice | None, *, tones: bool = True, volume: int = 80,
                 health: HealthBoard | None = None, quiet: bool = False) -> None:
        self.out = out
        self.voice = voice
        self.tones = tones
        self.volume = volume
        self._health = health or HealthBoard()
        self._quiet = threading.Event()
        if quiet:
            self._quiet.set()
        self._ready = threading.Condition()
        self._waiting: deque[Ruling] = deque()
        self._current: Ruling | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self._cut: Ruling | None = None  # the ruling whose sound was cut short by a take-back
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._folder = Path(tempfile.mkdtemp(prefix="tc-audio-"))
        self._spoken: dict[str, Path] = {}
        self._tone_files: dict[Tone, Path] = {}
        self.started: deque[Started] = deque(maxlen=1024)
        """The latest sounds begun, oldest first (the benchmark and the tests read it)."""

    # -- the referee's side: never waits ------------------------------------------------------

    @property
    def quiet(self) -> bool:
        return self._quiet.is_set()

    @quiet.setter
    def quiet(self, on: bool) -> None:
        """Quiet mode: nothing is played (what waits is dropped) until it is turned off."""
        if on:
            self._quiet.set()
            self.take_back_all()
        else:
            self._quiet.clear()
        log.info("audio: quiet mode %s", "on" if on else "off")

    @property
    def alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def say(self, ruling: Ruling) -> None:
        if self.out is None or self.quiet or not (self.tones or (ruling.text and self.voice is not None)):
            return
        with self._ready:
            if len(self._waiting) >= MAX_WAITING:
                self._waiting.popleft()  # stale: the table has moved on
                self._health.count(AUDIO_ID, "dropped")
            self._waiting.append(ruling)
            self._ready.notify()

    def take_back(self, back: TakeBack) -> None:
        """Drop the rulings ``back`` covers; one being said now is cut short."""
        with self._ready:
            kept = deque(r for r in self._waiting if not back.covers(r))
            dropped = len(self._waiting) - len(kept)
            self._waiting = kept
        if dropped:
            self._health.count(AUDIO_ID, "taken_back", dropped)
        self._cut_current(back.covers)

    def take_back_all(self) -> None:
        """Drop everything still to be said, and cut short what is being said (a new game)."""
        with self._ready:
            dropped = len(self._waiting)
            self._waiting.clear()
        if dropped:
            self._health.count(AUDIO_ID, "taken_back", dropped)
        self._cut_current(lambda ruling: True)

    def waiting(self) -> list[Ruling]:
        with self._ready:
            return list(self._waiting)

    def _cut_current(self, covers: Callable[[Ruling], bool]) -> None:
        with self._ready:
            current, process = self._current, self._process
            if current is None or not covers(current):
                return
            self._cut = current
        if process is not None and process.poll() is None:
            process.terminate()
            self._health.count(AUDIO_ID, "taken_back")

    # -- the player thread -------------------------------------------------------------------

    def start(self) -> "Announcer":
        if self.out is None:
            return self
        for tone in Tone:
            self._tone_files[tone] = write_tone(tone, self._folder / f"{tone.value}.wav", self.volume / 100)
        self._thread = threading.Thread(target=self.run, name="audio", daemon=True)
        self._thread.start()
        self._health.set_status(AUDIO_ID, Status.OK, f"{self.out.name}{', quiet' if self.quiet else ''}")
        return self

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        with self._ready:
            self._waiting.clear()
            self._ready.notify_all()
        self._cut_current(lambda ruling: True)
        if self._thread is not None:
            self._thread.join(timeout)
        shutil.rmtree(self._folder, ignore_errors=True)

    def run(self) -> None:
        """Say each ruling as it comes, until stopped. A death here is seen on the health board."""
        try:
            while not self._stop.is_set():
                with self._ready:
                    if not self._waiting:
                        self._ready.wait(0.2)
                    if not self._waiting:
                        self._health.flush()  # counts held back by the board's rate limit, once idle
                        continue
                    ruling = self._current = self._waiting.popleft()
                    self._cut = None
                try:
                    self._say(ruling)
                finally:
                    with self._ready:
                        self._current = None
        except Exception as exc:  # a dead player must be seen: the health board says so, the log has the trace
            log.exception("audio: the player thread stopped")
            self._health.set_status(AUDIO_ID, Status.DOWN, f"the audio player stopped: {type(exc).__name__}: {exc}")

    def _say(self, ruling: Ruling) -> None:
        if self.tones:
            self._play(ruling, "tone", self._tone_files[ruling.tone])
        if ruling.text and self.voice is not None and self._cut is not ruling and not self.quiet:
            wav = self._spoken_wav(ruling.text)
            if wav is not None and self._cut is not ruling and not self.quiet:
                self._play(ruling, "speech", wav)
        if self._cut is not ruling:
            self._health.count(AUDIO_ID, "said")

    def spoken_file(self, text: str) -> Path | None:
        """The WAV file espeak-ng made of ``text`` (None if not made, or no longer kept)."""
        return self._spoken.get(text)

    def _spoken_wav(self, text: str) -> Path | None:
        wav = self._spoken.get(text)
        if wav is not None:
            return wav
        assert self.voice is not None
        wav = self._folder / f"said-{hashlib.sha1(text.encode()).hexdigest()[:16]}.wav"
        try:
            self.voice.to_wav(text, wav)
        except (subprocess.SubprocessError, OSError) as exc:  # this ruling is not said; the next may be
            self._health.count(AUDIO_ID, "failed")
            log.warning("audio: espeak-ng could not say %r: %s", text, exc)
            return None
        if len(self._spoken) >= SPOKEN_CACHE:
            oldest = next(iter(self._spoken))
            self._spoken.pop(oldest).unlink(missing_ok=True)
        self._spoken[text] = wav
        return wav

    def _play(self, ruling: Ruling, what: str, wav: Path) -> None:
        assert self.out is not None
        with self._ready:
            if self._cut is ruling or self._stop.is_set():
                return
            self._process = process = subprocess.Popen(self.out.command(wav), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        self.started.append(Started(ruling, what, time.monotonic()))
        _, err = process.communicate()
        with self._ready:
            self._process = None
            cut = self._cut is ruling
        if process.returncode != 0 and not cut:
            self._health.count(AUDIO_ID, "failed")
            log.warning("audio: %s failed (%d): %s", self.out.name, process.returncode, err.decode(errors="replace").strip())
