"""The public board: what every scoreboard, big screen and player page shows of the game in force."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from companion.contract.game import Game
from companion.core import Header, JsonObject, Unexplained
from companion.log.store import GameLog

log = logging.getLogger(__name__)


def public_board(
    game: Game[Any], header: Header, state: Any, alerts: Mapping[str, Unexplained], health: Mapping[str, JsonObject],
    counters: Mapping[str, int], game_log: GameLog,
) -> JsonObject:
    """The game's scoreboard plus outcome, prompts, alerts, health, counters and the log's chain."""
    outcome = game.outcome(state)
    return {
        "game": game.id,
        "title": game.title,
        "players": list(header.players),
        "seq": game_log.last_seq,
        "scoreboard": game.scoreboard(state),
        "outcome": outcome.to_json() if outcome else None,
        "winners": list(outcome.winners) if outcome else None,  # for standings across tables (issue 16)
        # Once the game is over nothing more is asked of anyone (a game's own prompts may not know).
        "prompts": [] if outcome else [{"who": p.who, "verb": p.verb, "text": p.text} for p in game.prompts(state)],
        "alerts": [{"zone": a.zone, "what": a.what, "fix": a.fix} for a in alerts.values()],
        "health": dict(health),
        "counters": dict(counters),
        "chain": game_log.chain_info(),  # rows, head fingerprint, kind, the broken log this continues
    }
