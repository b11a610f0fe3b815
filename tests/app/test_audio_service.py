"""The referee heard at the table, through the table service (issue 25): ``[feedback] tones`` and
``speech`` on, the real Session, espeak-ng, and ALSA's aplay playing to its ``null`` device (this
machine has no sound card); with no audio device at all, the service says so once and carries on."""

from __future__ import annotations

import logging
import shutil
import time
from pathlib import Path

import pytest

from companion.app.config import load_config
from companion.app.table_service import TableService
from companion.core import Observation, ObservationKind
from companion.core.rulings import Tone
from hardware.audio import AUDIO_ID, find_audio_out
from tests.hardware.helpers import wait_until
from tests.web.client import Browser

pytestmark = pytest.mark.skipif(
    shutil.which("espeak-ng") is None or shutil.which("aplay") is None,
    reason="espeak-ng or aplay is missing: make audio installs Debian's (apt-get install espeak-ng sox alsa-utils)",
)

CONFIG = """
[game]
id = "escape-master"
players = ["anna", "ben"]
[game.setup]
dealer = "anna"
hands = {{ anna = ["start-1", "teen-8", "teen-9", "robot-10", "joe-J", "teen-3", "teen-4", "trap-up-1", "escape-1", "wisdom-1"], ben = ["start-2", "robot-6", "robot-5", "mouse-8", "robot-8", "doom-K", "joe-2", "escape-discard-1", "dead-end", "ninja-Q"] }}
[log]
path = "game.sqlite"
[web]
host = "127.0.0.1"
port = 0
[tags]
registry = "tags.json"
[feedback]
tones = true
speech = true
{device}
"""


def serve(tmp_path: Path, device: str) -> TableService:
    path = tmp_path / "table.toml"
    path.write_text(CONFIG.format(device=device), encoding="utf-8")
    return TableService(load_config(path), pin="12345678").start()


def move(payload: dict[str, object], at: float) -> Observation:
    return Observation("web:referee", at, ObservationKind.MOVE, payload)


def test_a_refusal_is_heard_as_its_tone_then_its_public_words(tmp_path: Path) -> None:
    service = serve(tmp_path, 'audio_device = "null"')
    try:
        announcer = service.audio.announcer
        assert announcer.out.command(Path("x.wav")) == ["aplay", "-q", "-D", "null", "x.wav"]
        # The dealer is asked to call Start!: the waiting tone and the prompt's words.
        wait_until(lambda: any(s.ruling.tone is Tone.WAITING and s.what == "speech" for s in announcer.started), timeout=15,
                   what="the dealer's prompt said")
        service.session.process(move({"by": "anna", "do": "start"}, time.time()))
        service.session.process(move({"by": "anna", "do": "play", "card": "start-1", "pile": "new"}, time.time()))
        row = service.session.process(move({"by": "ben", "do": "play", "card": "robot-5", "pile": 1}, time.time()))
        assert row.verdict is not None and row.verdict["ok"] is False
        wait_until(lambda: any(s.ruling.seq == row.seq and s.what == "speech" for s in announcer.started), timeout=15,
                   what="the refusal said")
        heard = [s for s in announcer.started if s.ruling.seq == row.seq]
        assert [s.what for s in heard] == ["tone", "speech"] and heard[0].ruling.tone is Tone.ILLEGAL
        assert heard[0].ruling.text.startswith("Pile 1: a 5 cannot go on a 7")
        wait_until(lambda: service.session.board()["health"].get(AUDIO_ID, {}).get("said", 0) >= 3, timeout=15,
                   what="the board's count of rulings said")
        assert service.session.board()["health"][AUDIO_ID]["status"] == "ok"
    finally:
        service.stop()


def test_a_german_table_hears_the_refusal_and_the_prompt_in_german(tmp_path: Path) -> None:
    service = serve(tmp_path, 'audio_device = "null"\nlanguage = "de"')
    try:
        announcer = service.audio.announcer
        assert announcer.voice is not None and announcer.voice.language == "de"
        wait_until(lambda: any(s.ruling.tone is Tone.WAITING and s.what == "speech" for s in announcer.started), timeout=15,
                   what="the dealer's prompt said")
        prompt = next(s.ruling for s in announcer.started if s.ruling.tone is Tone.WAITING and s.what == "speech")
        assert prompt.text == "Anna: ruf Start!, wenn alle bereit sind."
        service.session.process(move({"by": "anna", "do": "start"}, time.time()))
        service.session.process(move({"by": "anna", "do": "play", "card": "start-1", "pile": "new"}, time.time()))
        row = service.session.process(move({"by": "ben", "do": "play", "card": "robot-5", "pile": 1}, time.time()))
        wait_until(lambda: any(s.ruling.seq == row.seq and s.what == "speech" for s in announcer.started), timeout=15,
                   what="the refusal said")
        said = next(s.ruling.text for s in announcer.started if s.ruling.seq == row.seq and s.what == "speech")
        assert said.startswith("Stapel 1: nur eins höher oder eins tiefer") and "5" not in said.split(":", 1)[1]
    finally:
        service.stop()


def test_no_audio_device_is_said_once_and_the_table_plays_on(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    if find_audio_out("default")[0] is not None:
        pytest.skip("this machine has an audio device")
    caplog.set_level(logging.INFO)
    service = serve(tmp_path, "")
    try:
        row = service.session.process(move({"by": "anna", "do": "start"}, time.time()))
        assert row.verdict == {"ok": True}
        health = service.session.board()["health"][AUDIO_ID]
        assert health["status"] == "down" and health["detail"].startswith("no audio device")
    finally:
        service.stop()
    said = [r for r in caplog.records if "no audio device" in r.getMessage() and r.name == "companion.app.voice"]
    assert len(said) == 1


def test_the_referee_turns_quiet_mode_on_and_off_from_the_console(tmp_path: Path) -> None:
    service = serve(tmp_path, 'audio_device = "null"')
    try:
        assert service.web is not None
        b = Browser(int(service.web.server.effective_port))
        assert b.post_json("/api/referee/quiet", {"quiet": True}).status in (401, 403)  # not the referee
        assert b.login("12345678").status == 303
        csrf = b.csrf()
        assert b.post_json("/api/referee/quiet", {"quiet": "yes"}, csrf).status == 400
        assert b.post_json("/api/referee/quiet", {"quiet": True}, csrf).json() == {"quiet": True}
        announcer = service.audio.announcer
        assert announcer.quiet
        wait_until(lambda: not announcer.waiting(), what="nothing left waiting")
        before = len(announcer.started)
        row = service.session.process(move({"by": "ben", "do": "start"}, time.time()))  # refused: only the dealer calls Start!
        assert row.verdict is not None and row.verdict["ok"] is False
        time.sleep(0.5)
        assert len(announcer.started) == before and not announcer.waiting()  # quiet: nothing played
        assert b.post_json("/api/referee/quiet", {"quiet": False}, csrf).json() == {"quiet": False}
        row = service.session.process(move({"by": "ben", "do": "start"}, time.time()))
        wait_until(lambda: any(s.ruling.seq == row.seq for s in announcer.started), timeout=15, what="the refusal heard again")
    finally:
        service.stop()
