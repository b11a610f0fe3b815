"""The finished game's "Save to BG Stats" link (companion.log.bgstats), worked out once per log row.

The page asks for it when the board shows an outcome; the play is read from the log's rows, so it is
kept for the log as it stands (the table's game instance and its last row) and worked out again only
when a row is added (a take-back can reopen a game).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from flask import Flask

from companion.core import JsonObject
from companion.log.bgstats import create_play_link, play_record, play_times
from companion.referee.session import Session


@dataclass
class PlayLinks:
    """The last answer, for the log as it stood: ``(instance, last_seq) -> answer`` (None: not over)."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    key: tuple[str, int] | None = None
    answer: JsonObject | None = None

    def for_session(self, session: Session) -> JsonObject | None:
        key = (session.instance, session.log.last_seq)
        with self.lock:
            if key != self.key:
                state = session.state
                # Not over: no play, and no reading of the whole log for one (a page may ask every row).
                over = session.game.outcome(state) is not None
                times = play_times(session.log.rows()) if over else None
                play = None if times is None else play_record(session.game, session.header, state, times)
                self.key, self.answer = key, None if play is None else {"play": play, "link": create_play_link(play)}
            return self.answer


def play_links(app: Flask) -> PlayLinks:
    found = app.extensions.get("bgstats")
    if not isinstance(found, PlayLinks):
        found = app.extensions["bgstats"] = PlayLinks()
    return found
