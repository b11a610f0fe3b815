"""The [broker] table: off when absent, one clear message naming the key when wrong."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.config import parse_config
from companion.core.errors import ConfigError

BASE = {"game": {"id": "escape-master", "players": ["anna", "ben", "cleo"], "setup": {"dealer": "anna"}}}


def test_publishing_is_off_without_a_broker_table() -> None:
    assert parse_config(BASE, Path("t.toml")).broker is None


def test_a_broker_table_is_read() -> None:
    cfg = parse_config({**BASE, "broker": {"host": "127.0.0.1", "port": 1883, "venue": "cafe", "table": "t1"}}, Path("t.toml"))
    assert cfg.broker is not None and (cfg.broker.port, cfg.broker.venue, cfg.broker.table) == (1883, "cafe", "t1")


@pytest.mark.parametrize(
    ("broker", "key"),
    [({"port": 1883}, "broker.host"), ({"host": "h", "port": 0}, "broker.port"), ({"host": "h", "table": "a/b"}, "broker.table"), ({"host": "h", "hots": 1}, "hots")],
)
def test_bad_broker_config_names_the_key(broker: dict[str, object], key: str) -> None:
    with pytest.raises(ConfigError) as info:
        parse_config({**BASE, "broker": broker}, Path("t.toml"))
    assert key in str(info.value)
