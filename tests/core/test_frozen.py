"""core.frozen: a copy with fields changed is the value ``dataclasses.replace`` gives, and the engines'
states and their copies keep a representation the interpreter reads at full speed.

The second half is about CPython 3.11 itself (the version this project runs on): it specialises an
attribute read (``LOAD_ATTR_INSTANCE_VALUE``, ``LOAD_ATTR_WITH_HINT``) only on an object whose fields
are not in a dict shared with other instances, and only for a field with no class default of a
Python class (an enum member). A state built the other way reads every field through the generic
path, several times slower (issue 20: Everest's engine ran 5% slower for it, Horrible Mountain 2's
20%). The check reads every field of a real mid-game state of each game whose state is a
dataclass, with a fresh function until the interpreter has specialised it, and looks at what it
turned the read into.
"""

from __future__ import annotations

import dataclasses
import dis
import sys
from dataclasses import dataclass, field
from typing import Any

import pytest

from companion.core.frozen import Replaceable, replaced
from companion.games import get_game, get_spec, specs

FAST_READS = {"LOAD_ATTR_INSTANCE_VALUE", "LOAD_ATTR_WITH_HINT", "LOAD_ATTR_SLOT"}
on_311 = pytest.mark.skipif(sys.version_info[:2] != (3, 11), reason="the specialised opcodes named are CPython 3.11's")


@dataclass(frozen=True)
class Plain:
    a: int
    b: tuple[int, ...] = ()


@dataclass(frozen=True)
class Copied(Replaceable):
    a: int
    b: tuple[int, ...] = ()
    c: str = field(default="", compare=False)


def how_read(value: Any, name: str) -> str:
    """The opcode CPython turns ``value.<name>`` into once it has run a few dozen times."""
    namespace: dict[str, Any] = {}
    exec(f"def read(x):\n    return x.{name}\n", namespace)  # a fresh function: nothing specialised yet
    read = namespace["read"]
    for _ in range(64):
        read(value)
    (op,) = [i.opname for i in dis.get_instructions(read, adaptive=True) if i.opname.startswith("LOAD_ATTR")]
    return op


def test_replaced_is_dataclasses_replace() -> None:
    value = Copied(1, (2,), "x")
    assert replaced(value, {"a": 5}) == dataclasses.replace(value, a=5)
    assert replaced(value, {"c": "y"}).c == "y"
    assert value == Copied(1, (2,), "x")  # the original is untouched
    assert replaced(replaced(Plain(1), {"b": (3,)}), {"a": 2}) == Plain(2, (3,))


@on_311
def test_a_replaceables_copies_are_read_at_full_speed() -> None:
    copied = replaced(replaced(Copied(1), {"a": 2}), {"b": (3,)})
    assert how_read(copied, "b") in FAST_READS
    assert how_read(Copied(1), "a") in FAST_READS
    # what Replaceable is for: the same chain of copies from a plain frozen dataclass is not
    plain = replaced(replaced(Plain(1), {"a": 2}), {"b": (3,)})
    assert how_read(plain, "b") not in FAST_READS


def _mid_game(game_id: str) -> Any:
    spec = get_spec(game_id)
    header, moves = spec.playout(1, 200)
    game = get_game(game_id)
    state = game.new_state(header)
    for move in list(moves)[:120]:
        if game.judge(state, move).ok:
            state = game.apply(state, move)
    return state


@on_311
@pytest.mark.parametrize("game_id", sorted(specs()))
def test_game_states_mid_game_are_read_at_full_speed(game_id: str) -> None:
    state = _mid_game(game_id)
    if not dataclasses.is_dataclass(state):
        pytest.skip("its state is not a dataclass (a tuple, read by index)")
    slow = [f.name for f in dataclasses.fields(state) if how_read(state, f.name) not in FAST_READS]
    assert slow == [], f"{game_id}: these fields of its state are read through the generic path"


@on_311
def test_everest_plan_coins_are_read_at_full_speed() -> None:
    from companion.games.everest.moves import PlanCoin

    coin = PlanCoin("3", "value", "N")
    for name in ("kind", "mp", "label", "dir"):
        assert how_read(coin, name) in FAST_READS, name
