"""Real table services publish to a real Mosquitto; the real venue service, asked over HTTP, ends
with every table's events once and in log order, across the broker killed and restarted mid-game, a
table cut off from the broker while its game goes on, and the venue service restarted meanwhile;
its standings name each finished game's winners as the tables published them.

The outages are modelled by what happens during them, not by how long they last: a table cut off
logs the rest of its game with nothing reaching the broker, and the test waits on the condition
(the venue holds every row), polling with a generous deadline. No timed assertion."""

from __future__ import annotations

from pathlib import Path

from tests.venue.conftest import Broker
from tests.venue.tables import get_json, start_table, start_venue, venue_events, wait_for


def test_tables_reach_the_venue_exactly_once_across_outages_and_restarts(tmp_path: Path, broker: Broker) -> None:
    tables = [start_table(tmp_path, f"t{i}", broker.port, seed=i) for i in (1, 2, 3)]
    venue = start_venue(tmp_path, broker.port)
    try:
        for t in tables:
            t.start_game()
            t.play(len(t.moves) // 3)
        broker.kill()  # mid-game: the tables referee into their logs
        for t in tables:
            t.play(len(t.moves) // 2)
        broker.start()
        cut = tables[1]
        cut.cut_off()  # t2 is cut off from the broker; its game goes on
        for t in tables:
            t.play(2 * len(t.moves) // 3)
        venue.stop()  # the venue service restarts while the tables play on
        for t in tables:
            t.play(5 * len(t.moves) // 6)
        venue = start_venue(tmp_path, broker.port)
        cut.reconnect()
        for t in tables:
            t.play(len(t.moves))

        def complete() -> bool:
            return all(venue.store.seqs("cafe", t.name) == list(range(1, t.service.log.last_seq + 1)) for t in tables)

        assert wait_for(complete), {t.name: (len(venue.store.seqs("cafe", t.name)), t.service.log.last_seq) for t in tables}
        for t in tables:
            # over HTTP, exactly what the table's log says anyone may see, row for row, in log order
            assert venue_events(venue, t.name) == t.public_rows()
            assert t.service.session.board()["outcome"] is not None
        overview = get_json(venue.url + "api/tables")
        assert [row["table"] for row in overview["tables"]] == ["t1", "t2", "t3"]
        for row, t in zip(overview["tables"], tables):
            assert row["board"]["game"] == "horrible-mountain-2"
            assert row["board"]["players"] == list(t.header.players)
            assert row["stored"] == t.service.log.last_seq
        standings = overview["standings"]
        assert sorted((g["table"], g["winners"]) for g in standings["games"]) == [
            (t.name, t.service.session.board()["winners"]) for t in tables
        ]
        wins: dict[str, int] = {}
        for t in tables:
            for w in t.service.session.board()["winners"]:
                wins[w] = wins.get(w, 0) + 1
        assert {p["player"]: p["won"] for p in standings["players"] if p["won"]} == wins
    finally:
        venue.stop()
        for t in tables:
            t.service.stop()


