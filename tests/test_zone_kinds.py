"""Zone kinds are declarations: each game states the kinds it reads, a kind two games read is the
one core declares, the table config allows a game's kinds only, and vision picks its detectors by
what the camera watches in a kind, never by a game's nouns."""

from __future__ import annotations

import ast
import random
from pathlib import Path
from typing import Any

import pytest

from companion.app.config import parse_config
from companion.core import Zone, ZoneKind
from companion.core import zones as core_zones
from companion.core.errors import ConfigError
from companion.core.zones import Watch
from companion.games import game_ids, get_game, get_spec
from vision.render import tables

ROOT = Path(__file__).resolve().parent.parent
SHARED = {k.name: k for k in (core_zones.PILE, core_zones.HAND_PAD, core_zones.DISCARD, core_zones.DRAW_PILE)}


def _declared() -> dict[str, list[tuple[str, ZoneKind]]]:
    """Kind name -> (game id, declaration) for every game that reads a kind of that name."""
    out: dict[str, list[tuple[str, ZoneKind]]] = {}
    for game_id in game_ids():
        for kind in get_game(game_id).zone_kinds:
            out.setdefault(kind.name, []).append((game_id, kind))
    return out


@pytest.mark.parametrize("game_id", game_ids())
def test_every_game_states_the_kinds_it_reads_once_each(game_id: str) -> None:
    kinds = get_game(game_id).zone_kinds
    assert kinds, f"{game_id} reads no zone"
    assert len({k.name for k in kinds}) == len(kinds)


def test_a_kind_two_games_read_is_the_one_core_declares() -> None:
    for name, users in _declared().items():
        if len(users) > 1:
            assert all(kind is SHARED.get(name) for _, kind in users), f"{name} is declared apart by {[g for g, _ in users]}"


def test_the_renderer_draws_each_kind_as_the_games_declare_it() -> None:
    declared = _declared()
    for kind in tables.KINDS:
        assert kind.name in declared, f"the renderer draws {kind.name}, which no game reads"
        assert {k.camera for _, k in declared[kind.name]} == {kind.camera}
    for table in (tables.card_table(), tables.hm2_table(), tables.everest_table(), tables.mountain_table()):
        assert all(z.kind in tables.KINDS for z in table.zones)


def test_kinds_are_equal_by_name_and_their_name_is_what_a_payload_says() -> None:
    assert ZoneKind("grid", camera=Watch.PAWNS) == ZoneKind("grid", camera=Watch.CARD)
    assert hash(ZoneKind("grid")) == hash(tables.GRID) and ZoneKind("grid") != ZoneKind("tap_pad")
    assert Zone("g", tables.GRID).payload()["zone_kind"] == "grid"
    with pytest.raises(ValueError, match="lower-case words"):
        ZoneKind("Pyramid Slot")
    assert [w.pieces for w in Watch] == [False, False, True, True]


def _config(game: str, players: list[str], zones: list[dict[str, Any]]) -> dict[str, Any]:
    return {"game": {"id": game, "players": players}, "zones": zones}


def _players(game_id: str) -> list[str]:
    return list(get_spec(game_id).example(random.Random(0)).header.players)


@pytest.mark.parametrize("game_id", game_ids())
def test_the_config_allows_only_the_kinds_its_game_reads(tmp_path: Path, game_id: str) -> None:
    game = get_game(game_id)
    path = tmp_path / "table.toml"
    for kind in game.zone_kinds:  # each of its own kinds is a zone, with what the camera watches there
        name = min(kind.names) if kind.names else f"{kind.name}-zone"
        config = parse_config(_config(game_id, _players(game_id), [{"name": name, "kind": kind.name}]), path)
        assert config.zones[0].kind.camera is kind.camera
    others = sorted({k.name for other in game_ids() for k in get_game(other).zone_kinds} - {k.name for k in game.zone_kinds})
    allowed = ", ".join(k.name for k in game.zone_kinds)
    for name in others:
        with pytest.raises(ConfigError) as err:
            parse_config(_config(game_id, _players(game_id), [{"name": "z", "kind": name}]), path)
        assert str(err.value) == f'zones[0].kind: "{name}" is not a zone kind of {game.title} ({allowed})'


@pytest.mark.parametrize("kind", sorted({k for g in game_ids() for k in get_game(g).zone_kinds if k.names}, key=str), ids=str)
def test_the_config_holds_a_zone_to_the_names_its_kind_allows(tmp_path: Path, kind: ZoneKind) -> None:
    game_id = next(g for g in game_ids() if kind in get_game(g).zone_kinds)
    with pytest.raises(ConfigError, match=rf'zones\[0\]\.name: "no-such-place": a {kind.name} zone is'):
        parse_config(_config(game_id, _players(game_id), [{"name": "no-such-place", "kind": kind.name}]), tmp_path / "t.toml")


def test_vision_reads_only_the_core_of_the_companion() -> None:
    """The camera knows nothing of games: vision/ (its test renderer aside) imports only companion.core."""
    for path in sorted((ROOT / "vision").rglob("*.py")):
        if "render" in path.relative_to(ROOT / "vision").parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            for name in names:
                if name.startswith("companion"):
                    assert name.startswith("companion.core"), f"{path.relative_to(ROOT)} imports {name}"
