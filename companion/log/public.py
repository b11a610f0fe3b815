"""What anyone at the table may see of a log row: the move without its hidden fields, and a refused
move's sentences with the hidden card names blanked. The public page, the stream and exports use it."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

from companion.core import JsonObject, Move, ObservationKind
from companion.core.errors import NotationError
from companion.contract.copies import in_words
from companion.contract.game import Game
from companion.log.store import LogRow


def hidden_values(move: Move) -> set[str]:
    """The card names a move's hidden fields carry (a drawn card, a face-down play)."""
    return {text for name in move.hidden_fields for text in strings(getattr(move, name, None))}


def strings(value: Any) -> Iterator[str]:
    """Every string in ``value``, a move field or JSON (lists, tuples and a mapping's values, at any depth)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, (tuple, list)):
        for item in value:
            yield from strings(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings(item)


def redact(verdict: JsonObject, hidden: set[str]) -> JsonObject:
    """A verdict's sentences with hidden card names blanked, for the public page and log."""
    if not hidden:
        return verdict
    names = "|".join(re.escape(h) for h in sorted(hidden, key=len, reverse=True))
    # A card's display name before its id ("Footsteps (cobweb-2)") names it as well (issue 15).
    pattern = re.compile(rf"(?:[A-Z][\w'-]*(?: [A-Z][\w'-]*)* \((?:{names})\))|{names}")
    out = dict(verdict)
    for key in ("why", "fix"):
        if isinstance(out.get(key), str):
            out[key] = pattern.sub("a hidden card", out[key])
    return out


def spoken(verdict: JsonObject, name: Callable[[str], str]) -> JsonObject:
    """A verdict's sentences with each card named as a person names it (:meth:`Game.card_name`): the
    engine's own name for one copy of a card (``start-3``) never reaches a person (issue 22)."""
    out = dict(verdict)
    for key in ("why", "fix"):
        if isinstance(out.get(key), str):
            out[key] = in_words(out[key], name)
    return out


def card_names(game: Game[Any], state: Any, value: Any) -> dict[str, str]:
    """How a person names each card a public value names (a move, a scoreboard), where the engine's
    name differs: a copy (``start-3``) is "7 START" (:meth:`Game.card_name`). A page spells the value
    with these, so the engine's identity of copies never reaches a person (issue 22); the value itself
    stays the engine's."""
    names: dict[str, str] = {}
    if state is not None:
        for text in strings(value):
            said = game.card_name(state, text)
            if said != text:
                names[text] = said
    return names


def public_move(game: Game[Any], row: LogRow, state: Any = None) -> tuple[JsonObject | None, JsonObject | None]:
    """The row's move and verdict as anyone may see them; with the game's ``state``, a refusal names
    cards as people do (a copy as the card)."""
    if row.move is None:
        return None, row.verdict
    try:
        parsed = game.codec.from_json(row.move)
    except NotationError:
        return None, row.verdict
    verdict = row.verdict
    if verdict is not None and not verdict.get("ok"):
        verdict = redact(verdict, hidden_values(parsed))
        if state is not None:
            verdict = spoken(verdict, lambda card: game.card_name(state, card))
    return game.public_move(parsed), verdict


def public_row(game: Game[Any], row: LogRow, state: Any = None) -> JsonObject:
    """A log row as anyone may see it: the move without hidden fields, no raw sensor payload (with
    ``state``, a refusal's cards named as people name them, and ``names``: the move's cards as people
    name them, :func:`card_names`)."""
    move, verdict = public_move(game, row, state)
    out: JsonObject = {
        "seq": row.seq,
        "kind": row.kind,
        "source": row.source,
        "table_time": row.table_time,
        "wall_time": row.wall_time,
        "move": move,
        "names": card_names(game, state, move),
        "verdict": verdict,
        "alert": row.alert,
        "error": row.error,
    }
    if row.kind == ObservationKind.NOTE.value and "health" in row.payload:
        out["note"] = {k: v for k, v in row.payload.items()}
    return out
