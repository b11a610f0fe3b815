"""Exports of a game log: the notation (JSON Lines) and a readable transcript citing the rules."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from datetime import datetime, timezone
from typing import Any

from companion.core import ObservationKind
from companion.core.errors import CompanionError
from companion.core.sources import entered_by
from companion.contract.copies import in_words
from companion.contract.game import Game
from companion.games import get_game
from companion.log.store import HEADER_KIND, GameLog, LogRow


def notation_lines(log_: GameLog) -> Iterator[str]:
    """The game as notation: the header, then every judged move as it stands after undo and corrections.

    Illegal attempts stay in (``companion replay`` reports them again); an undone move is gone and a
    corrected one is replaced, so replaying the export rebuilds the state the table ended with.
    """
    header = log_.header()
    if header is None:
        return
    yield json.dumps(header.to_json(), sort_keys=True)
    moves: list[tuple[dict[str, Any], bool]] = []
    for row in log_.rows(after=1):
        if row.kind == ObservationKind.UNDO.value and row.error is None:
            _drop_last_legal(moves)
        elif row.move is not None and row.verdict is not None:
            ok = bool(row.verdict.get("ok"))
            if row.kind == ObservationKind.CORRECTION.value and ok:
                _drop_last_legal(moves)
            moves.append((row.move, ok))
    for move, _ok in moves:
        yield json.dumps(move, sort_keys=True)


def _drop_last_legal(moves: list[tuple[dict[str, Any], bool]]) -> None:
    for i in range(len(moves) - 1, -1, -1):
        if moves[i][1]:
            del moves[i]
            return


def _clock(wall: float) -> str:
    return datetime.fromtimestamp(wall, tz=timezone.utc).strftime("%H:%M:%S.%f")[:-3]


def _named(value: Any, name: Callable[[str], str]) -> Any:
    """A move's value with each card named as a person names it (a copy as the card: issue 22)."""
    if isinstance(value, str):
        return name(value)
    if isinstance(value, list):
        return [_named(v, name) for v in value]
    if isinstance(value, dict):
        return {k: _named(v, name) for k, v in value.items()}
    return value


def _describe(game: Game[Any], row: LogRow, name: Callable[[str], str] = str) -> str:
    """``who verb field=value ...``: who is the move's player as the game reads it (a move by nobody,
    such as Escape House's clear whose ``by`` names cards, is the table's), else the row's source.
    Cards are named by ``name`` (:meth:`Game.card_name`)."""
    move = row.move or {}
    try:
        player = game.codec.from_json(move).by
    except CompanionError:  # a move the game cannot read (an attempt kept for the record)
        player = move.get("by") if isinstance(move.get("by"), str) else None
    who = player or ("table" if "by" in move else row.source)
    shown = ("do", "t", "by") if player is not None else ("do", "t")
    body = " ".join(f"{k}={json.dumps(_named(v, name), ensure_ascii=False)}" for k, v in move.items() if k not in shown)
    return f"{who} {move.get('do', '')} {body}".rstrip()


def transcript_lines(log_: GameLog) -> Iterator[str]:
    """A readable transcript: one line a row; every illegal move cites its rule and the rulebook's words."""
    header = log_.header()
    if header is None:
        return
    game = get_game(header.game)
    deck = game.new_state(header)  # which cards are copies of one another: the game's deck, set at the start

    def name(card: str) -> str:
        return game.card_name(deck, card)

    yield f"{game.title} — {', '.join(header.players)}"
    if header.options:
        yield f"options: {json.dumps(header.options, sort_keys=True)}"
    for row in log_.rows():
        if row.kind == HEADER_KIND:
            continue
        when = _clock(row.table_time if row.table_time is not None else row.wall_time)
        prefix = f"#{row.seq:<5} {when}"
        if row.error is not None:
            yield f"{prefix} {row.source}: not accepted — {row.error}"
        elif row.alert is not None:
            yield f"{prefix} UNEXPLAINED at {row.alert['zone']}: {row.alert['what']} — fix: {row.alert['fix']}"
        elif row.kind == ObservationKind.UNDO.value:
            yield f"{prefix} taken back {entered_by(row.source)}: {_describe(game, row, name)}"
        elif row.kind == ObservationKind.NOTE.value:
            yield f"{prefix} note from {row.source}: {json.dumps(row.payload, sort_keys=True)}"
        elif row.move is not None and row.verdict is not None:
            tag = "correction: " if row.kind == ObservationKind.CORRECTION.value else ""
            if row.verdict.get("ok"):
                yield f"{prefix} {tag}{_describe(game, row, name)} — legal"
            else:
                yield f"{prefix} {tag}{_describe(game, row, name)} — ILLEGAL: {in_words(str(row.verdict.get('why', '')), name)}"
                for rule_id in row.verdict.get("rules", []):
                    try:
                        rule = game.rule(rule_id)
                    except KeyError:
                        yield f"        rule {rule_id} (not in this version's rulebook)"
                        continue
                    yield f"        rule {rule.id}, {rule.title} ({rule.source}): “{rule.passage}”"
                if row.verdict.get("fix"):
                    yield f"        fix: {in_words(str(row.verdict['fix']), name)}"
    yield f"-- {log_.last_seq} rows"
