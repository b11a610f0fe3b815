"""A finished game as a BG Stats play: the app's documented ``createPlay`` link and its JSON (issue 22).

BG Stats takes one play a link: ``https://app.bgstatsapp.com/createPlay.html?data=<JSON, URL-encoded>``;
the phone that opens it hands the play to the app, which asks before saving. Nothing leaves the Pi:
the page shows the link, and ``companion log export --format bgstats`` writes the same JSON.

What goes in: the game's name and our id for it (``sourceGameId``; a BoardGameGeek id where the game's
spec names one), whether the highest points win, each player with their points (where the game keeps
points: :meth:`Game.points`), winner, rank and whether they started (the player of the first legal
move), the date the game started (UTC) and how long it took (from its header row to its last legal
move). ``sourcePlayId`` is the log's instance (its header row's hash): the same game sent twice is one
play to BG Stats.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any
from urllib.parse import quote

from companion.contract.game import Game
from companion.core import Header, JsonObject
from companion.games import get_spec
from companion.log.fold import Folded, replay
from companion.log.store import GameLog, LogRow

log = logging.getLogger(__name__)

SOURCE_NAME = "Table Companion"
"""Who sends the play: BG Stats remembers its matches of games and players per source, so this stays."""
CREATE_PLAY = "https://app.bgstatsapp.com/createPlay.html"


@dataclass(frozen=True)
class PlayTimes:
    """What the log says of a game's course: when it began and ended, who made the first legal move,
    and the log's instance (its header row's hash)."""

    started: float
    ended: float
    start_player: str | None
    instance: str


def play_times(rows: Iterable[LogRow]) -> PlayTimes | None:
    """Read from a log's rows, header first; None for a log with no header row."""
    started = ended = None
    instance = ""
    start_player: str | None = None
    for row in rows:
        if started is None:
            started, ended, instance = row.wall_time, row.wall_time, row.hash
            continue
        if row.move is not None and row.verdict is not None and row.verdict.get("ok"):
            ended = row.wall_time
            by = row.move.get("by")
            if start_player is None and isinstance(by, str):
                start_player = by
    if started is None or ended is None:
        return None
    return PlayTimes(started, ended, start_player, instance)


def play_record(game: Game[Any], header: Header, state: Any, times: PlayTimes) -> JsonObject | None:
    """The BG Stats play of a finished game; None while it goes on."""
    outcome = game.outcome(state)
    if outcome is None:
        return None
    points = game.points(state)
    scored = points.by_player if points is not None else {}
    highest = points.highest_wins if points is not None else True
    winners = set(outcome.winners)

    def standing(player: str) -> tuple[int, int]:  # smaller is better; the winners share rank 1 (a team)
        if player in winners:
            return (0, 0)
        score = scored.get(player, 0)
        return (1, -score if highest else score)

    players: list[JsonObject] = []
    for player in header.players:
        entry: JsonObject = {
            "name": player,
            "sourcePlayerId": player,
            "winner": player in winners,
            "rank": 1 + sum(1 for other in header.players if standing(other) < standing(player)),
            "startPlayer": player == times.start_player,
        }
        if player in scored:
            entry["score"] = scored[player]
        players.append(entry)
    about: JsonObject = {"name": game.title, "sourceGameId": game.id, "highestWins": highest, "noPoints": points is None}
    bgg = get_spec(game.id).bgg_id
    if bgg is not None:
        about["bggId"] = bgg
    return {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": times.instance,
        "playDate": datetime.fromtimestamp(times.started, tz=timezone.utc).strftime("%Y-%m-%d %H:%M:%S"),
        "durationMin": max(1, round((times.ended - times.started) / 60)),
        "game": about,
        "players": players,
    }


def create_play_link(play: JsonObject) -> str:
    """The link that hands ``play`` to BG Stats."""
    return f"{CREATE_PLAY}?data={quote(json.dumps(play, separators=(',', ':'), ensure_ascii=False), safe='')}"


def from_log(game_log: GameLog) -> JsonObject | None:
    """The BG Stats play of the game in a log file (the game replayed from its rows); None if the log
    has no game or the game is not over."""
    header = game_log.header()
    times = play_times(game_log.rows())
    if header is None or times is None:
        return None
    game = get_spec(header.game).game
    folded = replay(game, Folded.start(game, header), game_log.rows(after=1))
    return play_record(game, header, folded.state, times)
