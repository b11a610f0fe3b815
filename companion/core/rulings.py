"""What the referee says out loud at the table: a tone per kind of verdict, and the words (issue 25).

The plain nouns the table's voice (``companion/table/voice.py``, which decides what to say from the
public form of each verdict) and the Pi's audio out (``hardware/audio.py``, which plays it) share.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Tone(str, enum.Enum):
    """The kind of verdict a tone stands for; each sounds different (``hardware/audio.py``)."""

    LEGAL = "legal"
    ILLEGAL = "illegal"
    ALERT = "alert"
    WAITING = "waiting"
    """The game waits for someone ("your turn", "roll your die")."""


@dataclass(frozen=True)
class Ruling:
    """One thing the table hears: a tone, then the words (none for a tone alone)."""

    tone: Tone
    text: str
    """What is spoken, made only from what anyone at the table may see; "" for a tone alone."""
    seq: int = 0
    """The log row it answers (0: the board, not a row); a take-back drops what answers earlier rows."""
    zone: str | None = None
    """The zone it is about, if one: a card picked up there drops what was still to be said of it."""


@dataclass(frozen=True)
class TakeBack:
    """Rulings gone stale before they were said: those about ``zone`` (every zone if None) that
    answer rows before ``before_seq`` (an undo, a correction, or the card taken back there)."""

    before_seq: int
    zone: str | None = None

    def covers(self, ruling: Ruling) -> bool:
        if ruling.seq == 0 or ruling.seq >= self.before_seq:
            return False
        return self.zone is None or ruling.zone == self.zone
