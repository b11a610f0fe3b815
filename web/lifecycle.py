"""Starting the next game from the referee's console: the game, the players, the options (each
with its default explained), and the setup tapped in from the real things. The game that was on
keeps its own log; every open page moves on to the new one.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import logging
import types
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

from flask import Blueprint, Response, current_app, jsonify, request

from companion.core import Header, JsonObject
from companion.core.setup_form import SetupForm
from companion.core.errors import CompanionError, SetupError
from companion.contract.game import Game, option_fields
from companion.games import game_ids, get_game
from web import host, let_go_of_the_game, table_session
from web.auth import referee_required
from web.entries import json_body

log = logging.getLogger(__name__)

bp = Blueprint("lifecycle", __name__)

NAME_LIMIT = 24
"""Longest player name, in characters."""
JSON_LIMIT = 8192
"""Longest JSON a setup request may carry in its query."""


def _option_kind(tp: Any) -> JsonObject:
    """How the console edits an option: a switch, a choice of words, a number, or not at all."""
    optional = False
    if get_origin(tp) in (Union, types.UnionType):
        args = [a for a in get_args(tp) if a is not type(None)]
        optional = len(args) < len(get_args(tp))
        tp = args[0] if len(args) == 1 else tp
    if tp is bool:
        return {"kind": "switch"}
    if get_origin(tp) is Literal:
        return {"kind": "choice", "choices": list(get_args(tp))}
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return {"kind": "choice", "choices": [m.value for m in tp]}
    if tp in (int, float):
        return {"kind": "number", "step": 1 if tp is int else 0.1, "optional": optional}
    return {"kind": "fixed"}  # a structure (teams, homes, data files): set in the config file


def game_card(game: Game[Any]) -> JsonObject:
    """What the console needs to offer a game: its player range, options and setup fields."""
    hints = get_type_hints(game.options_type)
    form = game.setup_form()
    return {
        "id": game.id,
        "title": game.title,
        "min_players": game.min_players,
        "max_players": game.max_players,
        "options": [
            {"name": name, "default": dataclasses_json(default), "doc": doc, **_option_kind(hints[name])}
            for name, default, doc in option_fields(game.options_type)
        ],
        "setup": None if form is None else [
            {"name": f.name, "title": f.title, "pick": f.spec.pick.value, "many": f.spec.many, "least": f.spec.least,
             "most": f.spec.most, "per_player": f.spec.per_player, "optional": f.spec.optional, "default": f.default,
             "rotates": f.rotates}
            for f in form.fields
        ],
    }


def dataclasses_json(value: Any) -> Any:
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple):
        return [dataclasses_json(v) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    return value


@bp.get("/api/referee/games")
@referee_required
def games() -> Any:
    """Every game the console can start, and what is on now (for "play again")."""
    session = table_session(current_app)
    cards = [game_card(get_game(game_id)) for game_id in game_ids()]
    outcome = session.game.outcome(session.state)
    return jsonify({
        "games": cards,
        "now": {
            "game": session.game.id,
            "players": list(session.header.players),
            "options": dict(session.header.options),
            "setup": dict(session.header.setup),
            "over": outcome is not None,
        },
        "can_start": host(current_app) is not None,
    })


def _players(raw: Any, game: Game[Any]) -> list[str]:
    if not isinstance(raw, list) or not all(isinstance(p, str) for p in raw):
        raise SetupError("players must be a list of names")
    names = [p.strip() for p in raw]
    if any(not n or len(n) > NAME_LIMIT or not n.isprintable() or "/" in n for n in names):
        raise SetupError(f"a player's name is 1 to {NAME_LIMIT} letters, with no slash")
    if len(set(names)) != len(names):
        raise SetupError("two players have the same name")
    span = f"{game.min_players}" if game.min_players == game.max_players else f"{game.min_players} to {game.max_players}"
    if not game.min_players <= len(names) <= game.max_players:
        raise SetupError(f"{game.title} is for {span} players, not {len(names)}")
    return names


def _form(game: Game[Any]) -> SetupForm:
    form = game.setup_form()
    if form is None:
        raise SetupError(f"{game.title} cannot be set up from the console yet: start it from a config file")
    return form


def _json_arg(name: str, default: Any) -> Any:
    raw = request.args.get(name)
    if raw is None:
        return default
    if len(raw) > JSON_LIMIT:
        raise SetupError(f"{name} is longer than {JSON_LIMIT} characters")
    try:
        return json.loads(raw)
    except (ValueError, RecursionError) as exc:
        raise SetupError(f"{name} must be JSON") from exc


def _refused(exc: CompanionError, status: int = 422) -> Response:
    return Response(f"{exc}\n", status=status, mimetype="text/plain")


@bp.get("/api/referee/setup-choices")
@referee_required
def setup_choices() -> Any:
    """The values one setup field may take, given what is tapped so far (a card used once is gone)."""
    try:
        game = get_game(str(request.args.get("game", "")))
        form = _form(game)
        players = _players(_json_arg("players", []), game)
        options = _json_arg("options", {})
        values = _json_arg("values", {})
        if not isinstance(options, dict) or not isinstance(values, dict):
            raise SetupError("options and values must be objects")
        name = request.args.get("field", "")
        if name not in {f.name for f in form.fields}:
            raise SetupError(f"{game.title}'s setup has no field {name[:40]!r}")
        found = form.choices(tuple(players), options, values, name, request.args.get("every") == "1")
    except CompanionError as exc:
        return _refused(exc, 400)
    return jsonify({"field": name, "choices": [c.to_json() for c in found]})


def header_from(body: JsonObject) -> Header:
    """A new game's header from the console's taps. Raises :class:`SetupError` naming the problem."""
    game = get_game(str(body.get("game", "")))
    players = _players(body.get("players"), game)
    options = body.get("options", {})
    values = body.get("setup", {})
    if not isinstance(options, dict) or not isinstance(values, dict):
        raise SetupError("options and setup must be objects")
    known = {name for name, _, _ in option_fields(game.options_type)}
    unknown = sorted(set(options) - known)
    if unknown:
        raise SetupError(f"{game.title} has no option {unknown[0][:40]!r}")
    form = _form(game)
    setup = form.build(tuple(players), options, values)
    header = Header(game.id, tuple(players), options, setup)
    game.new_state(header)  # one clear message for a setup the rules refuse
    return header


@bp.post("/api/referee/new-game")
@referee_required
def new_game() -> Any:
    body = json_body()
    if isinstance(body, Response):
        return body
    starter = host(current_app)
    if starter is None:
        return Response("this server does not start games (run it with `companion serve`)\n", status=409, mimetype="text/plain")
    try:
        header = header_from(body)
    except CompanionError as exc:
        return _refused(exc)
    let_go_of_the_game(current_app)  # the swap waits for every request holding the old game
    session = starter.new_game(header)
    log.info("the console started %s for %s", header.game, ", ".join(header.players))
    return jsonify({"game": session.game.id, "players": list(session.header.players), "board": session.board()})
