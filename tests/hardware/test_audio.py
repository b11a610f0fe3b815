"""The Pi's audio out (hardware/audio.py): the real announcer thread, espeak-ng and the tones, played
by a simulated speaker (hardware/sim/speaker.py: real time, cut short by a signal, notes what it
played) where this machine has no sound card."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.cli import main
from companion.core.rulings import Ruling, TakeBack, Tone
from hardware.audio import AUDIO_ID, MAX_WAITING, Announcer, AudioOut, Voice, find_audio_out
from hardware.health import HealthBoard
from hardware.tones import NOTES, duration_s, write_tone
from tests.hardware.helpers import wait_until

needs_sox = pytest.mark.skipif(shutil.which("sox") is None, reason="sox is missing: make audio installs Debian's (apt-get install sox)")
needs_espeak = pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is missing: make audio installs Debian's")

LONG = "Pile 1: a 5 cannot go on a 7; play 6 or 8, or a Wisdom, and take the robot 5 back into your hand."


def speaker(notes: Path) -> AudioOut:
    return AudioOut("speaker", (sys.executable, "-m", "hardware.sim.speaker", str(notes)))


def played(notes: Path) -> list[str]:
    return notes.read_text(encoding="utf-8").splitlines() if notes.exists() else []


@pytest.fixture
def board() -> HealthBoard:
    return HealthBoard()


@pytest.fixture
def announcer(tmp_path: Path, board: HealthBoard) -> Iterator[Announcer]:
    voice = Voice("en", volume=80) if shutil.which("espeak-ng") else None
    out = Announcer(speaker(tmp_path / "notes.txt"), voice, tones=True, volume=80, health=board).start()
    try:
        yield out
    finally:
        out.stop()


@needs_sox
def test_each_kind_of_verdict_has_its_own_tone_that_sox_hears(tmp_path: Path) -> None:
    shapes = {tone: NOTES[tone] for tone in Tone}
    assert len(set(shapes.values())) == len(Tone)
    for tone in Tone:
        wav = write_tone(tone, tmp_path / f"{tone.value}.wav", 0.8)
        stat = subprocess.run(["sox", str(wav), "-n", "stat"], capture_output=True, text=True, check=True).stderr
        seconds = float(re.search(r"Length \(seconds\):\s+([\d.]+)", stat).group(1))  # type: ignore[union-attr]
        rms = float(re.search(r"RMS\s+amplitude:\s+([\d.]+)", stat).group(1))  # type: ignore[union-attr]
        assert abs(seconds - duration_s(tone)) < 0.01 and 0.1 <= seconds <= 0.5
        assert rms > 0.05, f"{tone} is silent"
    quiet = write_tone(Tone.LEGAL, tmp_path / "soft.wav", 0.1).read_bytes()
    assert quiet != (tmp_path / "legal.wav").read_bytes()  # the volume reaches the tones


@needs_espeak
def test_a_ruling_is_its_tone_then_its_words_in_order(tmp_path: Path, announcer: Announcer, board: HealthBoard) -> None:
    announcer.say(Ruling(Tone.ILLEGAL, "Pile 1: a 5 cannot go on a 7.", 3, "pile-1"))
    announcer.say(Ruling(Tone.LEGAL, "", 4, "pile-2"))
    notes = tmp_path / "notes.txt"
    wait_until(lambda: played(notes).count("done legal.wav") == 1, timeout=15, what="both rulings said")
    started = [line for line in played(notes) if line.startswith("start")]
    assert started[0] == "start illegal.wav" and started[1].startswith("start said-") and started[2] == "start legal.wav"
    assert [(s.ruling.seq, s.what) for s in announcer.started] == [(3, "tone"), (3, "speech"), (4, "tone")]
    wait_until(lambda: board.status(AUDIO_ID).get("said") == 2, what="two rulings counted as said")


@needs_espeak
def test_a_take_back_drops_stale_speech_and_cuts_short_the_ruling_being_said(tmp_path: Path, announcer: Announcer, board: HealthBoard) -> None:
    first = Ruling(Tone.ILLEGAL, LONG, 5, "pile-1")
    announcer.say(first)
    announcer.say(Ruling(Tone.ILLEGAL, "Pile 1: a 2 cannot go on a 7.", 6, "pile-1"))
    announcer.say(Ruling(Tone.ALERT, "Pile 2: an unknown tag.", 7, "pile-2"))
    notes = tmp_path / "notes.txt"
    wait_until(lambda: any(line.startswith("start said-") for line in played(notes)), timeout=10, what="the first ruling's words playing")
    announcer.take_back(TakeBack(8, "pile-1"))  # the card was picked up at pile 1: both rulings there are stale
    wait_until(lambda: "done alert.wav" in played(notes) and played(notes)[-1].startswith("done said-"), timeout=15,
               what="the alert at pile 2 said whole")
    assert 6 not in [s.ruling.seq for s in announcer.started]  # dropped before it was said
    words = announcer.spoken_file(LONG)
    assert words is not None and f"start {words.name}" in played(notes)
    assert f"done {words.name}" not in played(notes)  # cut short
    assert board.status(AUDIO_ID).get("taken_back") == 2


def test_quiet_mode_plays_nothing_until_turned_off(tmp_path: Path, announcer: Announcer) -> None:
    announcer.quiet = True
    announcer.say(Ruling(Tone.LEGAL, "", 1))
    assert announcer.waiting() == []
    announcer.quiet = False
    announcer.say(Ruling(Tone.WAITING, "", 2))
    wait_until(lambda: "done waiting.wav" in played(tmp_path / "notes.txt"), timeout=10, what="the waiting tone")
    assert [s.ruling.seq for s in announcer.started] == [2]


def test_the_queue_never_blocks_and_drops_the_oldest_when_full(tmp_path: Path, announcer: Announcer, board: HealthBoard) -> None:
    for seq in range(1, 4 * MAX_WAITING):
        announcer.say(Ruling(Tone.ILLEGAL, "", seq))
    assert len(announcer.waiting()) <= MAX_WAITING
    assert announcer.waiting()[-1].seq == 4 * MAX_WAITING - 1  # the newest is kept
    assert board.status(AUDIO_ID).get("dropped", 0) >= 4 * MAX_WAITING - 1 - MAX_WAITING - 1


def test_a_dying_player_thread_is_seen_on_the_health_board(tmp_path: Path, board: HealthBoard) -> None:
    gone = Announcer(AudioOut("aplay", (str(tmp_path / "no-such-player"),)), None, health=board).start()
    try:
        gone.say(Ruling(Tone.ILLEGAL, "", 1))
        wait_until(lambda: not gone.alive, timeout=5, what="the player thread to die")
        status = board.status(AUDIO_ID)
        assert status["status"] == "down" and "the audio player stopped" in status["detail"]
    finally:
        gone.stop()


def test_no_audio_device_is_one_reason_and_a_card_or_a_device_picks_a_player(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PULSE_SERVER", raising=False)
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    cards = tmp_path / "cards"
    cards.write_text("--- no soundcards ---\n", encoding="utf-8")
    out, why = find_audio_out("default", cards=cards)
    assert out is None and "lists none" in why
    cards.write_text(" 0 [Headphones     ]: bcm2835_headpho - bcm2835 Headphones\n", encoding="utf-8")
    installed = {"aplay": "/usr/bin/aplay", "play": "/usr/bin/play"}
    out, _ = find_audio_out("default", which=installed.get, cards=cards)
    assert out is not None and out.command(Path("x.wav")) == ["aplay", "-q", "x.wav"]
    out, _ = find_audio_out("default", which={"play": "/usr/bin/play"}.get, cards=cards)
    assert out is not None and out.name == "play"
    out, _ = find_audio_out("plughw:1,0", which=installed.get, cards=cards)
    assert out is not None and out.command(Path("x.wav")) == ["aplay", "-q", "-D", "plughw:1,0", "x.wav"]


@needs_espeak
def test_espeak_ng_speaks_offline_and_an_unknown_language_is_named() -> None:
    assert Voice("en").missing() == ""
    assert "no voice for the language 'xq'" in Voice("xq").missing()


@needs_espeak
@pytest.mark.skipif(shutil.which("aplay") is None, reason="aplay is missing: make audio installs Debian's alsa-utils")
def test_hw_sound_plays_each_tone_and_a_ruling_naming_each_first(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hw", "sound", "--device", "null", "--volume", "60"]) == 0
    said = capsys.readouterr().out.splitlines()
    assert said[0] == "playing through aplay -q -D null at volume 60:"
    assert [line.strip().split(" ")[0] for line in said[1:6]] == ["legal", "illegal", "alert", "waiting", "illegal"]
    assert 'then "Table Companion sound check.' in said[5]
    with pytest.raises(SystemExit, match="companion hw sound: feedback.volume: must be a whole number from 0 to 100, not 300"):
        main(["hw", "sound", "--volume", "300"])
    assert main(["hw", "sound", "--device", "null", "--language", "de"]) == 0  # a German table hears German
    assert 'then "Table Companion Tonprobe. Stapel 2' in capsys.readouterr().out
    with pytest.raises(SystemExit, match=r"companion hw sound: feedback.language: the referee has no spoken texts in 'fr' \(there are: de, en\)"):
        main(["hw", "sound", "--language", "fr"])


def test_hw_sound_without_an_audio_device_says_why_and_fails(capsys: pytest.CaptureFixture[str]) -> None:
    if find_audio_out("default")[0] is not None:
        pytest.skip("this machine has an audio device")
    assert main(["hw", "sound"]) == 1
    assert capsys.readouterr().out.startswith("no audio device: ")
