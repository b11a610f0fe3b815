"""Issue 26, item 5, on a real Mosquitto with the real venue service: one table must not flood the
venue. Table t1, with its own credentials, published 40 boards with made-up game instances, an
outcome and 20,000 players each, and no events behind them: ``/api/tables`` grew from 245 B to 8.3 MB.
Now a board is bounded in bytes and players, a table in games, stored rows and held events, a
board with no events behind it is no standing, and ``/api/tables`` is paged."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from companion.venue.limits import VenueLimits
from tests.venue.attack import attacked_venue, connect_as, holds_every_row, made_up_board
from tests.venue.conftest import Broker, require_mosquitto
from tests.venue.tables import get_json, start_venue, wait_for


def raw(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=60) as response:
        body: bytes = response.read()
        return body


def test_one_table_cannot_flood_the_venues_standings(tmp_path: Path) -> None:
    require_mosquitto()
    with attacked_venue(tmp_path, seed=1) as attack:
        venue, t2, t1 = attack.venue, attack.t2, attack.t1
        t2.start_game()
        t2.play(len(t2.moves))  # a whole game: a real standing
        assert wait_for(holds_every_row(venue, t2))
        assert wait_for(lambda: len(get_json(venue.url + "api/tables")["standings"]["games"]) == 1)
        before = raw(venue.url + "api/tables")
        crowd = [f"p{j}" for j in range(20_000)]  # about 200 KB a board, as in the attack
        for i in range(40):  # the attack as it was run
            t1.publish("venue/cafe/t1/board", made_up_board(f"{i:016x}", crowd), qos=1).wait_for_publish(60)
        four = ["anna", "ben", "cleo", "dan"]
        for i in range(60):  # within every size, but games that never happened
            t1.publish("venue/cafe/t1/board", made_up_board(f"f{i:015x}", four), qos=1).wait_for_publish(60)
        t1.publish("venue/cafe/t1/board", made_up_board("e" * 16, [f"p{j}" for j in range(17)]), qos=1).wait_for_publish(60)
        # 40 boards past 64 KiB and one with 17 players are refused; the broker hands messages over in order
        assert wait_for(lambda: venue.collector.counters["bad"] == 41)

        after = raw(venue.url + "api/tables")
        assert len(after) < len(before) + 2048, (len(before), len(after))  # one more small tile, nothing else
        overview = json.loads(after)
        finished = overview["standings"]["games"]
        assert [(g["table"], g["winners"]) for g in finished] == [("t2", t2.service.session.board()["winners"])]
        assert overview["standings"]["players_total"] == len(t2.header.players)
        assert overview["standings"] == get_json(venue.url + "api/standings")
        kept = [g for g in venue.store.games("cafe") if g["table"] == "t1"]
        assert len(kept) == VenueLimits().games_per_table  # the oldest made-up games were forgotten
        assert venue.store.counts()["forgotten_games"] == 60 - VenueLimits().games_per_table
        t2.start_game()
        t2.play(10)  # the venue goes on as before
        assert wait_for(holds_every_row(venue, t2))


def test_a_tables_stored_rows_and_held_events_are_bounded(tmp_path: Path) -> None:
    require_mosquitto()
    limits = VenueLimits(games_per_table=3, rows_per_table=300, buffered_per_table=50)

    def event(instance: str, seq: int) -> bytes:
        return json.dumps({"instance": instance, "seq": seq, "hash": f"{seq:016x}", "row": {"seq": seq, "kind": "note"}}).encode()

    with attacked_venue(tmp_path, seed=2, limits=limits) as attack:
        venue, t2, t1 = attack.venue, attack.t2, attack.t1
        assert wait_for(lambda: venue.collector.subscribed)
        t1.publish("venue/cafe/t1/board", made_up_board("a" * 16, ["anna", "ben"], seq=400, outcome=False), qos=1).wait_for_publish(60)
        for seq in range(1, 401):  # one game of 400 rows against a bound of 300
            t1.publish("venue/cafe/t1/event", event("a" * 16, seq), qos=1)
        for seq in range(1000, 1100):  # another game's rows, all past a gap: at most 50 are held
            t1.publish("venue/cafe/t1/event", event("b" * 16, seq), qos=1)
        t1.publish("venue/cafe/t1/board", made_up_board("a" * 16, ["anna", "ben"], seq=400, outcome=False), qos=1).wait_for_publish(60)
        assert wait_for(lambda: venue.store.counts()["overflow"] == 50)
        counts = venue.store.counts()
        assert (counts["refused"], counts["buffered"]) == (100, 50)
        assert venue.store.seqs("cafe", "t1") == list(range(1, 301))
        assert all(b.table != "t1" for b in venue.store.behind())  # a full game is not asked for again
        t2.start_game()
        t2.play(len(t2.moves))  # another table is not touched by t1's bounds
        assert wait_for(holds_every_row(venue, t2))


def test_the_tables_overview_is_paged(tmp_path: Path, broker: Broker) -> None:
    venue = start_venue(tmp_path, broker.port)
    rogue = connect_as(broker.port, None, "rogue")
    try:
        assert wait_for(lambda: venue.collector.subscribed)
        for i in range(150):
            rogue.publish(f"venue/cafe/t{i:03d}/board", made_up_board(f"{i:016x}", ["anna"], seq=1, outcome=False), qos=1)
        rogue.publish("venue/cafe/t149/board", made_up_board(f"{149:016x}", ["anna"], seq=1, outcome=False), qos=1).wait_for_publish(60)
        assert wait_for(lambda: venue.store.counts()["tables"] == 150)
        first: dict[str, Any] = get_json(venue.url + "api/tables")
        assert [t["table"] for t in first["tables"]] == [f"t{i:03d}" for i in range(100)] and first["next"] == "t099"
        second = get_json(venue.url + "api/tables?after=t099")
        assert [t["table"] for t in second["tables"]] == [f"t{i:03d}" for i in range(100, 150)] and second["next"] is None
        assert second["partial"] is True
        with pytest.raises(urllib.error.HTTPError) as refused:
            raw(venue.url + "api/tables?only=" + ",".join(f"t{i:03d}" for i in range(101)))
        assert refused.value.code == 400
    finally:
        rogue.loop_stop()
        rogue.disconnect()
        venue.stop()
