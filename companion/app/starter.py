"""``companion init --game G --no-hardware``: a config for a table with no readers and no camera.

It starts as it is (``companion serve --config FILE``): no ``[[zones]]`` with readers, no
``[camera]``, and moves are entered by tapping on the web pages. No face-down card is ever in the
file: each player taps the cards dealt to them on their own page (``dealt``). Each game declares its
example table (``GameSpec.example``): the players, and what lies face up, chosen by a fresh shuffle
and said so. The referee console's "New game" sets any game up by taps instead.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Mapping
from typing import Any

from companion.core import Header
from companion.contract.game import option_fields
from companion.games import get_game, get_spec

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")

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
    """The header a no-hardware table starts with, and whether it carries face-up cards chosen by a shuffle."""
    table = get_spec(game_id).example(rng)
    return table.header, table.shuffled


def _gist(doc: str) -> str:
    """An option's doc, cut to a line: its first sentence, at most 100 characters."""
    if not doc.strip():
        return "(no description)"
    first = doc.split(". ")[0].splitlines()[0].rstrip(".")
    return first if len(first) <= 100 else first[:99] + "…"


def _options_block(game_id: str, chosen: Mapping[str, Any]) -> list[str]:
    lines = ["[game.options]", "# Every option, with its default; uncomment to change one (the game's GAME.md)."]
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
    spec = get_spec(game_id)
    table = spec.example(rng or random.SystemRandom())
    header, game = table.header, spec.game
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
    if table.shuffled:
        hidden = "\n# No face-down card is here: each player taps the cards dealt to them on their own page." if table.hands_tapped else ""
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
