"""The table's readers feeding its table model, wired from the table config: zones, tag registry,
reader arrays. The readers are real (the bridge over a pty, nfcpy for a missing direct reader)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.app.config import ArrayConfig, parse_config
from companion.app.readers import TableReaders
from companion.core import Observation, Unexplained, Zone
from companion.core.zones import PILE
from companion.core.errors import ConfigError
from companion.games import get_game
from companion.log.store import GameLog
from companion.referee.session import Session
from companion.table.registry import TagRegistry
from hardware.sim.array import SimulatedArray
from hardware.sim.field import FieldSettings
from hardware.sim.firmware_array import FirmwareArray
from tests.hardware.helpers import wait_until

RED7, BLUE3 = "0a1b2c3d4e5f60", "c0ffee01"


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
        hardware = TableReaders.from_config(config, observations.append, on_health=lambda r, s: reports.append((r, s)), debounce_s=0)
        with hardware:
            wait_until(lambda: hardware.health.status("array:1")["status"] == "ok", what="the array channel")
            sim.arrive(1, RED7)
            wait_until(lambda: observations, what="the observation")
            assert hardware.health.status("tty:NOSUCH7:pn532")["status"] in ("reconnecting", "down")
    assert observations[0].payload["zone"] == "pile-1" and observations[0].payload["card"] == "red-7"
    assert {reader for reader, _ in reports} >= {"array", "array:1", "tty:NOSUCH7:pn532"}
    assert not any(reader.running for reader in hardware.readers.readers)


def test_array_zones_without_a_port_are_one_clear_error(tmp_path: Path) -> None:
    registry = TagRegistry(tmp_path / "tags.json", "g")
    with pytest.raises(ConfigError, match=r"no \[array\] port"):
        TableReaders([Zone("pile-1", PILE, reader="array:0")], registry, lambda o: None)
    with pytest.raises(ConfigError, match='zone "pile-1": reader "array:x"'):
        TableReaders([Zone("pile-1", PILE, reader="array:x")], registry, lambda o: None, arrays={"": ArrayConfig("/dev/null")})
    with pytest.raises(ConfigError, match=r'zone "pile-9": .*no \[arrays.east\] port'):
        TableReaders([Zone("pile-9", PILE, reader="array:east:0")], registry, lambda o: None, arrays={"": ArrayConfig("/dev/null")})


def test_a_table_with_two_arrays_names_the_second_ones_channels(tmp_path: Path) -> None:
    registry = TagRegistry(tmp_path / "tags.json", "escape-master")
    registry.enrol(RED7, "red-7")
    registry.enrol(BLUE3, "blue-3")
    with (
        SimulatedArray(2, link=tmp_path / "array", heartbeat_s=0.1) as first,
        SimulatedArray(2, link=tmp_path / "east", heartbeat_s=0.1) as east,
    ):
        config = parse_config(
            {
                "game": {"id": "escape-master", "players": ["anna", "ben"], "setup": {"dealer": "anna"}},
                "tags": {"registry": "tags.json"},
                "array": {"port": first.port},
                "arrays": {"east": {"port": east.port}},
                "zones": [
                    {"name": "pile-1", "kind": "pile", "index": 1, "reader": "array:0"},
                    {"name": "pile-8", "kind": "pile", "index": 8, "reader": "array:east:0"},
                ],
            },
            tmp_path / "table.toml",
        )
        assert set(config.reader_arrays) == {"", "east"}
        observations: list[Observation] = []
        with TableReaders.from_config(config, observations.append, debounce_s=0) as hardware:
            wait_until(lambda: hardware.health.status("array:east:0")["status"] == "ok", what="the east array's channel")
            wait_until(lambda: hardware.health.status("array:0")["status"] == "ok", what="the first array's channel")
            east.arrive(0, RED7)
            wait_until(lambda: observations, what="the east pile's observation")
            first.arrive(0, BLUE3)
            wait_until(lambda: len(observations) == 2, what="the first pile's observation")
    assert [(o.source, o.payload["zone"], o.payload["card"]) for o in observations] == [
        ("array:east:0", "pile-8", "red-7"),
        ("array:0", "pile-1", "blue-3"),
    ]


def test_a_pile_at_its_measured_depth_alerts_and_the_card_beyond_it_is_not_seen(tmp_path: Path) -> None:
    # The simulated pile reads exactly as deep as the bench measured (the config's depth): the table
    # model says so when the stack gets there, and the next card, beyond it, is indeed never reported.
    depth = 4
    cards = [f"04{n:02x}2230a1b2{n:02x}" for n in range(depth + 1)]
    registry = TagRegistry(tmp_path / "tags.json", "escape-master")
    for n, uid in enumerate(cards):
        registry.enrol(uid, f"red-{n + 1}")
    sim = FirmwareArray(1, kinds=["pile"], settings=FieldSettings(detune_depth=depth), link=tmp_path / "array", heartbeat_ms=200)
    with sim:
        config = parse_config(
            {
                "game": {"id": "escape-master", "players": ["anna", "ben"], "setup": {"dealer": "anna"}},
                "tags": {"registry": "tags.json"},
                "array": {"port": sim.port},
                "zones": [{"name": "pile-1", "kind": "pile", "index": 1, "reader": "array:0", "depth": depth}],
            },
            tmp_path / "table.toml",
        )
        observations: list[Observation] = []
        alerts: list[Unexplained] = []
        game_log = GameLog(tmp_path / "game.sqlite")
        session = Session(get_game("escape-master"), game_log, config.header)
        session.start()

        def sink(observation: Observation) -> object:
            observations.append(observation)
            return session.submit(observation)

        try:
            with TableReaders.from_config(config, sink, on_health=session.report_health, on_alert=alerts.append, debounce_s=0) as hardware:
                wait_until(lambda: hardware.health.status("array:0")["status"] == "ok", what="the pile's reader")
                for uid in cards[:depth]:
                    sim.place(0, uid)
                wait_until(lambda: len(observations) == depth, what="the cards the pile reads")
                assert [a.what for a in alerts] == [
                    "pile-1 holds 4 cards, as many as its reader is measured to read, so a card laid on top will not be seen"
                ]
                # The session's board carries the reader's health, with the count of such alerts.
                wait_until(lambda: session.board()["health"].get("array:0", {}).get("at_depth") == 1, what="the board's health")
                sim.place(0, cards[depth], wait=False)
                rounds = sim.rounds
                wait_until(lambda: sim.rounds > rounds + 20, what="twenty polls over the fifth card")
        finally:
            session.stop()
            game_log.close()
    assert [o.payload["uid"] for o in observations] == cards[:depth]
    assert hardware.table.present("pile-1") == tuple(cards[:depth])
