"""Standings across a venue's finished games: who won what, and wins per player across tables.

Only what the tables published: a game is finished when its board carries an outcome, and its
winners are the ones its own table named (``board["winners"]``). The venue never scores a game, but
it counts a finished game only once it holds every event up to the board's seq: a board with no
events behind it (made up, or still catching up) is not a standing.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.core import JsonObject


@dataclass
class PlayerRecord:
    """One player's games across the venue's tables."""

    player: str
    played: int = 0
    won: int = 0
    tables: set[str] = field(default_factory=set)

    def to_json(self) -> JsonObject:
        return {"player": self.player, "played": self.played, "won": self.won, "tables": sorted(self.tables)}


def standings(games: list[JsonObject], shown: int | None = None) -> JsonObject:
    """``games`` as :meth:`VenueStore.games` gives them; returns the finished games and the players' records,
    most wins first (then fewest games, then name): with ``shown``, the last ``shown`` games and the
    first ``shown`` players, and how many there are in all (``games_total``, ``players_total``)."""
    finished: list[JsonObject] = []
    records: dict[str, PlayerRecord] = {}
    for game in games:
        board = game["board"]
        if not isinstance(board, dict) or not board.get("outcome"):
            continue
        seq = board.get("seq")
        if not isinstance(seq, int) or isinstance(seq, bool) or int(game.get("stored", 0)) < seq:
            continue  # the venue does not hold the game's events up to its board
        players = [str(p) for p in board.get("players") or []]
        winners = [str(w) for w in board.get("winners") or []]
        finished.append(
            {
                "table": game["table"],
                "instance": game["instance"],
                "game": board.get("game"),
                "title": board.get("title"),
                "players": players,
                "winners": winners,
                "outcome": board.get("outcome"),
                "seq": board.get("seq"),
            }
        )
        for player in players:
            record = records.setdefault(player, PlayerRecord(player))
            record.played += 1
            record.won += player in winners
            record.tables.add(str(game["table"]))
    ranked = sorted(records.values(), key=lambda r: (-r.won, r.played, r.player))
    games_shown = finished if shown is None else finished[-shown:] if shown > 0 else []
    return {
        "games": games_shown,
        "players": [r.to_json() for r in ranked[:shown]],
        "games_total": len(finished),
        "players_total": len(ranked),
    }
