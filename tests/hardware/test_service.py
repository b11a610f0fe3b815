"""All of a table's readers as one: an array channel and a missing direct reader side by side."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.app.config import parse_config
from companion.core import Observation, Zone
from companion.core.zones import PILE
from companion.core.errors import ConfigError
from companion.table.registry import TagRegistry
from hardware.service import TableHardware
from hardware.sim.array import SimulatedArray
from tests.hardware.helpers import wait_until

RED7 = "0a1b2c3d4e5f60"


def test_config_zones_to_observations_and_health(tmp_path: Path) -> None:
    TagRegistry(tmp_path / "tags.json", "escape-master").enrol(RED7, "red-7")
    with SimulatedArray(2, link=tmp_path / "array", heartbeat_s=0.1) as sim:
        config = parse_config(
            {
                "game": {"id": "escape-master", "players": ["anna", "ben"], "setup": {"dealer": "anna"}},
                "tags": {"registry": "tags.json"},
                "array": {"port": sim.port},
                "zones": [
                    {"name": "pile-1", "kind": "pile", "index": 1, "reader": "array:1"},
                    {"name": "hand-anna", "kind": "hand_pad", "player": "anna", "reader": "tty:NOSUCH7:pn532"},
                ],
            },
            tmp_path / "table.toml",
        )
        observations: list[Observation] = []
        reports: list[tuple[str, dict[str, Any]]] = []
        hardware = TableHardware.from_config(config, observations.append, on_health=lambda r, s: reports.append((r, s)), debounce_s=0)
        with hardware:
            wait_until(lambda: hardware.health.status("array:1")["status"] == "ok", what="the array channel")
            sim.arrive(1, RED7)
            wait_until(lambda: observations, what="the observation")
            assert hardware.health.status("tty:NOSUCH7:pn532")["status"] in ("reconnecting", "down")
    assert observations[0].payload["zone"] == "pile-1" and observations[0].payload["card"] == "red-7"
    assert {reader for reader, _ in reports} >= {"array", "array:1", "tty:NOSUCH7:pn532"}
    assert not hardware.nfc.readers[0].running and hardware.array is not None and not hardware.array.running


def test_array_zones_without_a_port_are_one_clear_error(tmp_path: Path) -> None:
    registry = TagRegistry(tmp_path / "tags.json", "g")
    with pytest.raises(ConfigError, match=r"no \[array\] port"):
        TableHardware([Zone("pile-1", PILE, reader="array:0")], registry, lambda o: None)
    with pytest.raises(ConfigError, match='zone "pile-1": reader "array:x"'):
        TableHardware([Zone("pile-1", PILE, reader="array:x")], registry, lambda o: None, array_port="/dev/null")
