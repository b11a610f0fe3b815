"""The games' scenes (tests/games/scenes.py) belong to registered games: a scene left behind by a
renamed package would leave its game's checks out without a word."""

from __future__ import annotations

from pathlib import Path

from companion.games import specs
from tests.games.scenes import Scene, module_name, scene

HERE = Path(__file__).resolve().parent


def test_every_scene_module_is_a_registered_games() -> None:
    modules = {f"tests.games.{p.stem}" for p in HERE.glob("*_scenes.py")}
    registered = {module_name(spec) for spec in specs().values()}
    assert modules, "no scene modules found"
    assert modules <= registered, f"scenes of no registered game: {sorted(modules - registered)}"


def test_every_scene_loads_and_reads_its_hands() -> None:
    for game_id, spec in specs().items():
        found = scene(spec)
        assert isinstance(found, Scene)
        if found.hands is None:
            continue
        header, moves = spec.playout(1, max_moves=40)
        state = spec.game.new_state(header)
        for move in moves:
            _, state = spec.game.play(state, move)
        held = found.hands.held(spec.game, state, header.players)
        assert held and all(isinstance(c, str) for c in held), f"{game_id}: no hand read after 40 moves"
