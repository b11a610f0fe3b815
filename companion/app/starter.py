"""``companion init --game G --no-hardware``: a config for a table with no readers and no camera.

It starts as it is (``companion serve --config FILE``): no ``[[zones]]`` with readers, no
``[camera]``, and moves are entered by tapping on the web pages. No face-down card is ever in the
file: each player taps the cards dealt to them on their own page (``dealt``). Escape Master needs
the first dealer and Everest nothing; the others need what lies face up, chosen by a fresh shuffle
and said so: Horrible Mountain 2 (the Evil Master, the Table Cards, the colours), The Mountain (the
pyramid and the health pile), Escape House (the card set and the face-up main puzzle). The referee
console's "New game" sets any of them up by taps instead.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Mapping
from typing import Any

from companion.core import Header
from companion.contract.game import option_fields
from companion.games import get_game

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")

PLAYERS: Mapping[str, tuple[str, ...]] = {
    "escape-master": ("anna", "ben", "cleo"),
    "everest": ("anna", "ben", "cleo"),
    "horrible-mountain-2": ("anna", "ben"),
    "the-mountain": ("anna",),
    "escape-house": ("anna", "ben", "cleo", "dan", "eve", "finn"),
}
"""Sensible players per game: a typical count within each rulebook's range."""

_DEALT_NOTE = (
    "# The face-up cards below were chosen by the game's own deal helper with a random shuffle when\n"
    "# this file was written. Lay the real cards the same way, or run\n"
    "# `companion init --game {game} --no-hardware --force` again for a new shuffle, or start the game\n"
    "# from the referee console's New game (by taps).{hidden}\n"
)


def toml_value(value: Any) -> str:
    """A JSON-like value as TOML (inline tables and arrays); None has no TOML form."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float, str)):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{_key(k)} = {toml_value(v)}" for k, v in value.items()) + "}"
    raise ValueError(f"no TOML form for {value!r}")


def _key(key: str) -> str:
    return key if _BARE_KEY.fullmatch(key) else json.dumps(key)


def starting_header(game_id: str, rng: random.Random) -> tuple[Header, bool]:
    """The header a no-hardware table starts with, and whether it carries a generated deal."""
    players = PLAYERS[game_id]
    if game_id == "escape-master":
        return Header(game_id, players, {}, {"dealer": players[0]}), False
    if game_id == "everest":
        return Header(game_id, players, {}, {}), False
    if game_id == "horrible-mountain-2":  # a live table: the hands are tapped in (dealt)
        from companion.games.horrible_mountain_2.playout import random_header

        dealt = random_header(rng)
        return Header(game_id, dealt.players, {}, {k: v for k, v in dealt.setup.items() if k != "hands"}), True
    if game_id == "the-mountain":
        from companion.games.the_mountain.playout import deal

        return deal(rng, player=players[0]), True
    if game_id == "escape-house":  # a live table: hands tapped in, decks and face-down puzzles unknown
        from companion.games.escape_house.cards import Kind
        from companion.games.escape_house.cardset import load_card_set

        face_up = rng.choice(load_card_set("example").ids(Kind.MAIN))
        return Header(game_id, players, {}, {"card_set": "example", "main": [face_up]}), True
    raise ValueError(f"no starting setup for {game_id}")


def _gist(doc: str) -> str:
    """An option's doc, cut to a line: its first sentence, at most 100 characters."""
    first = doc.split(". ")[0].splitlines()[0].rstrip(".")
    return first if len(first) <= 100 else first[:99] + "…"


def _options_block(game_id: str, chosen: Mapping[str, Any]) -> list[str]:
    lines = ["[game.options]", "# Every option, with its default; uncomment to change one (docs/games/<id>.md)."]
    for name, default, doc in option_fields(get_game(game_id).options_type):
        if name in chosen:
            lines.append(f"{name} = {toml_value(chosen[name])}   # {_gist(doc)}")
            continue
        try:
            shown = toml_value(default)
        except ValueError:
            shown = "(not set)"
        lines.append(f"# {name} = {shown}   # {_gist(doc)}")
    return lines


def no_hardware_config(game_id: str, rng: random.Random | None = None, host: str = "0.0.0.0", port: int = 8000) -> str:
    """The text of a table config for ``game_id`` that serves with no readers and no camera."""
    header, dealt = starting_header(game_id, rng or random.SystemRandom())
    game = get_game(game_id)
    game.new_state(header)  # the file must start as it is: check before writing it
    lines = [
        f"# Table Companion: {game.title} at a table with no readers and no camera.",
        "# Start it with: companion serve --config THIS_FILE. Moves are entered by tapping on the web pages.",
        "",
        "[game]",
        f"id = {toml_value(game_id)}",
        f"players = {toml_value(list(header.players))}",
        "",
        *_options_block(game_id, header.options),
        "",
    ]
    if dealt:
        hidden = (
            "\n# No face-down card is here: each player taps the cards dealt to them on their own page."
            if game_id in ("horrible-mountain-2", "escape-house")
            else ""
        )
        lines.append(_DEALT_NOTE.format(game=game_id, hidden=hidden).rstrip("\n"))
    lines.append("[game.setup]")
    lines += [f"{_key(k)} = {toml_value(v)}" for k, v in header.setup.items()]
    lines += [
        "",
        "[log]",
        "# The hash-chained game log (SQLite). serve resumes the game in it; --new-game starts another.",
        f'path = "{game_id}.sqlite"',
        "",
        "[web]",
        f"host = {toml_value(host)}",
        f"port = {port}",
        "threads = 64",
        'pin = ""               # referee PIN; empty = a new random PIN printed at start-up',
        "",
        "# No [array], no [camera] and no [[zones]]: nothing to plug in. `companion init` (without",
        "# --no-hardware) writes a config with readers to start from.",
        "",
    ]
    return "\n".join(lines)
