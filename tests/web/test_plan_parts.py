"""Everest's plan over HTTP: the coins step declares its parts (the coin, the side up, the way it
points), each part's values in words, a compass rose's places as the board points; the whole coins
are still the values offered and sent, and the engine judges the plan."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

from companion.games.everest.board import VECTORS
from companion.games.everest.moves import COINS
from tests.web.test_builder_api import game_at, offer, sent
from tests.web.test_copies_offered import phone_of


def _first_plan(state: Any, move: Any) -> bool:
    return bool(move.verb == "plan")


def test_the_plan_step_is_a_coin_a_side_and_a_way_on_the_board(tmp_path: Path) -> None:
    with game_at(tmp_path, "everest", 0, _first_plan) as (served, _, _):
        player = served.session.header.players[0]
        phone, path = phone_of(served, player)
        step = offer(phone, path + "/offer", {})["next"]
        assert step["field"] == "coins" and step["ask"] == "Plan your coins, first to last"
        parts = step["parts"]
        assert [p["key"] for p in parts] == ["coin", "face", "dir"]
        coin, face, way = parts
        assert [v["value"] for v in coin["values"]] == list(COINS)
        assert [v["value"] for v in face["values"]] == ["value", "suit"]
        # the rose: each way where it points on the board as drawn (north up, east right)
        assert way["hint"] == "compass"
        assert {v["value"]: tuple(at) for v, at in zip(way["values"], way["places"])} == dict(VECTORS)
        for part in parts:  # labels are words, never data
            assert all(v["label"] and not any(ch in v["label"] for ch in "{}[]'\"") for v in part["values"])
        # the values offered are still whole coins, one for each coin, side and way
        offered = [(c["value"]["coin"], c["value"]["face"], c["value"]["dir"]) for c in step["choices"]]
        assert sorted(offered) == sorted(itertools.product(COINS, ("value", "suit"), ("N", "E", "S", "W")))
        assert all(set(c["value"]) == {"coin", "face", "dir"} for c in step["choices"])
        # a plan tapped part by part is sent whole and judged by the engine
        plan = [{"coin": "3", "face": "value", "dir": "E"}, {"coin": "blank", "face": "suit", "dir": "S"},
                {"coin": "ace", "face": "value", "dir": "W"}]
        done = offer(phone, path + "/offer", {"verb": "plan", "fields": {"coins": plan}})
        assert done["move"] is not None and done["move"]["coins"] == plan and done["legal"] is True
        assert sent(served, phone, path + "/move", done["move"]) == {"by": player, "do": "plan", "coins": plan}
        row = served.session.log.row(served.session.log.last_seq)
        assert row is not None and row.verdict is not None and row.verdict["ok"]
