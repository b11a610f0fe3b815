"""The referee heard at the table: from the session to the Pi's audio out (issue 25).

    audio = TableAudio.from_config(config.feedback, on_health=service.report_health)
    audio.attach(session)         # again for each new game's session
    ...
    audio.stop()

The session calls :meth:`TableAudio.changed` with each batch of rows it wrote and the board after
them (its listener, in its worker thread). Each row is read in its PUBLIC form (the session's
``public_row``: a hidden card is "a hidden card" there) plus the zone it was read at; the table's
voice (:mod:`companion.table.voice`) says what is heard, and the announcer (:mod:`hardware.audio`)
queues it and returns at once: the referee never waits on a sound. A failure here is logged with
its trace and put on the health board once, never raised into the session.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

from companion.app.feedback_config import FeedbackConfig
from companion.core import JsonObject
from companion.core.rulings import Ruling
from companion.games import get_spec
from companion.log.store import LogRow
from companion.referee.session import Session
from companion.table.speech import load_speech
from companion.table.voice import Heard, TableVoice
from hardware.audio import AUDIO_ID, Announcer, Voice, find_audio_out
from hardware.health import HealthBoard, HealthCallback, Status

log = logging.getLogger(__name__)

VOICE_ID = "voice"
"""The voice's key on the health board (a failure deciding what to say; the player's is ``audio``)."""


class TableAudio:
    def __init__(self, announcer: Announcer, health: HealthBoard, language: str = "en") -> None:
        self.announcer = announcer
        self._health = health
        self.language = language
        """The ``[feedback] language``: the espeak-ng voice, and the catalogue its words come from."""
        self.voice = TableVoice()
        self.failures = 0
        self._session: Session | None = None
        self._unsubscribe: Callable[[], None] | None = None

    @classmethod
    def from_config(cls, feedback: FeedbackConfig, on_health: HealthCallback | None = None) -> "TableAudio":
        """The audio out ``feedback`` asks for. No device, or no espeak-ng voice, is said once (the
        log and the health board) and the service carries on without it."""
        health = HealthBoard(on_health)
        out, why = find_audio_out(feedback.audio_device)
        if out is None:
            log.warning("audio: no audio device: %s; the referee's tones and words are not played", why)
            health.set_status(AUDIO_ID, Status.DOWN, f"no audio device: {why}")
        voice: Voice | None = None
        if feedback.speech and out is not None:
            voice = Voice(feedback.language, feedback.volume)
            missing = voice.missing()
            if missing:
                log.warning("audio: %s; rulings are not spoken%s", missing, ", only their tones" if feedback.tones else "")
                health.set_status(VOICE_ID, Status.DOWN, missing)
                voice = None
        announcer = Announcer(out, voice, tones=feedback.tones, volume=feedback.volume, health=health, quiet=feedback.quiet)
        if out is not None:
            log.info("audio: %s through %s%s", ", ".join(k for k, on in (("tones", feedback.tones), ("speech", voice is not None)) if on) or "nothing",
                     out.name, " (quiet)" if feedback.quiet else "")
        return cls(announcer.start(), health, feedback.language)

    def attach(self, session: Session) -> None:
        """Follow ``session`` (a new game: nothing of the last game is still said), in the words of
        the table's language for its game."""
        self.detach()
        self.announcer.take_back_all()
        self.voice = TableVoice(load_speech(self.language, get_spec(session.game.id).root))
        self._session = session
        self._unsubscribe = session.subscribe(self.changed)
        self.changed([], session.board())

    def detach(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    def stop(self) -> None:
        self.detach()
        self.announcer.stop()

    def changed(self, rows: Sequence[LogRow], board: JsonObject) -> None:
        """The session's listener: rows written and the board after them -> rulings queued."""
        try:
            session = self._session
            assert session is not None
            heard = [Heard(session.public_row(row), _zone(row.payload)) for row in rows]
            for said in self.voice.update(heard, board):
                if isinstance(said, Ruling):
                    self.announcer.say(said)
                else:
                    self.announcer.take_back(said)
        except Exception as exc:  # the referee must not stop for a sound; the failure is seen on the board
            self.failures += 1
            log.exception("the table's voice failed on %d row(s)", len(rows))
            if self.failures == 1:
                self._health.set_status(VOICE_ID, Status.DOWN, f"the voice failed: {type(exc).__name__}: {exc}")
            else:
                self._health.count(VOICE_ID, "errors")


def _zone(payload: Any) -> str | None:
    zone = payload.get("zone") if hasattr(payload, "get") else None
    return zone if isinstance(zone, str) else None
