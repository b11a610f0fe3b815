"""Generated hostile input (hypothesis): the notation reader, the config loader and the web endpoints
always answer with a clear error, never a crash, a hang or a changed game."""

from __future__ import annotations

import io
import json
import string
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from companion.app.config import load_config, parse_config
from companion.core.errors import ConfigError, NotationError
from companion.games import game_ids, get_game
from companion.log.notation import read_notation
from tests.serving import Served
from tests.web.client import Browser

json_scalars = st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=True) | st.text(max_size=12)
json_values = st.recursive(json_scalars, lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=8), kids, max_size=4), max_leaves=12)

REAL_GAMES = list(game_ids())


def _verb_keys(game_id: str) -> list[str]:
    return sorted(get_game(game_id).codec.by_verb)


@pytest.mark.parametrize("game_id", REAL_GAMES)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_moves_of_any_shape_are_read_or_refused_clearly(game_id: str, data: st.DataObject) -> None:
    game = get_game(game_id)
    verb = data.draw(st.sampled_from(_verb_keys(game_id)) | st.text(max_size=6))
    body = data.draw(st.dictionaries(st.sampled_from(["by", "t", "card", "cards", "pile", "slot", "room", "coins", "target", "value", "n"]) | st.text(max_size=5), json_values, max_size=5))
    obj: Any = data.draw(st.just({"do": verb, **body}) | json_values)
    try:
        move = game.codec.from_json(obj)
    except NotationError as exc:
        assert str(exc)
        return
    assert game.codec.from_json(game.codec.to_json(move)) == move


@settings(max_examples=200, deadline=None)
@given(lines=st.lists(st.text(alphabet=string.printable, max_size=40) | json_values.map(json.dumps), max_size=6))
def test_notation_files_of_any_text_are_read_or_refused_naming_a_line(lines: list[str]) -> None:
    text = "\n".join(lines)
    try:
        read_notation(io.StringIO(text))
    except NotationError as exc:
        assert exc.line is not None and exc.line >= 1


@settings(max_examples=300, deadline=None)
@given(data=json_values | st.dictionaries(st.sampled_from(["game", "web", "log", "zones", "array", "camera", "tags"]), json_values, max_size=5))
def test_config_of_any_shape_is_loaded_or_refused_naming_a_key(data: Any) -> None:
    if not isinstance(data, dict):
        data = {"game": data}
    try:
        parse_config(data, Path("/tmp/table.toml"))
    except ConfigError as exc:
        assert str(exc)


@settings(max_examples=150, deadline=None)
@given(text=st.text(max_size=200))
def test_config_files_of_any_text(tmp_path_factory: pytest.TempPathFactory, text: str) -> None:
    path = tmp_path_factory.mktemp("cfg") / "table.toml"
    path.write_text(text, encoding="utf-8")
    try:
        load_config(path)
    except ConfigError as exc:
        assert str(path) in str(exc)


def test_config_names_the_bad_key(tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_text('[game]\nid = "escape-house"\nplayers = ["a"]\n[[zones]]\nname = "tap"\nkind = "pyle"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r'zones\[0\].kind: "pyle" is not a zone kind'):
        load_config(path)
    path.write_text('[game]\nid = "everest"\nplayers = ["a", "b"]\n[web]\nport = 99999\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="web.port: 99999 is not a TCP port"):
        load_config(path)
    path.write_text('[game]\nid = "everest"\nplayers = ["a", "b"]\n[game.options]\nnotches = 7\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="game: options"):
        load_config(path)


paths = st.sampled_from(
    ["/", "/log", "/big", "/api/board", "/api/log", "/api/log/", "/api/rules", "/referee", "/referee/login",
     "/api/referee/move", "/api/referee/undo", "/api/referee/correct", "/api/referee/quiet", "/api/p/anna/x/view", "/api/p/anna/x/move", "/p/anna/x", "/qr.svg"]
)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(
    path=paths,
    suffix=st.text(alphabet=string.ascii_letters + string.digits + "%/?&=.-_~'\"<>", max_size=30),
    method=st.sampled_from(["GET", "POST", "PUT", "DELETE", "PATCH"]),
    body=st.binary(max_size=300),
    ctype=st.sampled_from(["application/json", "application/x-www-form-urlencoded", "text/plain", "multipart/form-data"]),
)
def test_hostile_http_requests_get_an_answer_and_change_nothing(
    served: Served, path: str, suffix: str, method: str, body: bytes, ctype: str
) -> None:
    before = served.session.log.last_seq
    full = path + suffix
    # A good request for the event stream never ends by itself; its bad input is tested in tests/web.
    assume("events" not in full)
    answer = Browser(served.port).request(method, full, body, {"Content-Type": ctype})
    assert answer.status < 500, (method, path + suffix, answer.status, answer.text[:200])
    assert served.session.log.last_seq == before
