"""Three table sessions publish to a real Mosquitto; the venue store ends with every event once, in order,
across a broker killed and restarted mid-game, a table whose publisher is offline while its game goes
on, and a venue service restarted while the tables play.

No sleeps stand in for the outages: an outage is the events a table logs while it is cut off, and
the test waits on the condition (the venue holds every row) with a generous deadline."""

from __future__ import annotations

import json
import time
from pathlib import Path

from companion.venue.broker import BrokerConfig
from companion.core import Observation, ObservationKind
from companion.games import get_game
from companion.games.escape_master.playout import random_playout
from companion.log.store import GameLog
from companion.venue.publish import TablePublisher
from companion.referee.session import Session
from companion.venue.collector import VenueCollector
from companion.venue.store import VenueStore
from tests.venue.conftest import Broker

TABLES = ("t1", "t2", "t3")


def wait_for(check: object, timeout: float = 120.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():  # type: ignore[operator]
            return True
        time.sleep(0.1)
    return False


def test_three_tables_exactly_once_across_broker_restart_and_outage(tmp_path: Path, broker: Broker) -> None:
    game = get_game("escape-master")
    cfg = {t: BrokerConfig(host="127.0.0.1", port=broker.port, venue="cafe", table=t) for t in TABLES}
    sessions, publishers, moves = {}, {}, {}
    for i, t in enumerate(TABLES):
        header, ms = random_playout(seed=i, max_moves=60)
        sessions[t] = Session(game, GameLog(tmp_path / f"{t}.sqlite"), header)
        moves[t] = [game.codec.to_json(m) for m in ms]
        publishers[t] = TablePublisher(sessions[t], cfg[t]).start()
    store = VenueStore(tmp_path / "venue.sqlite")
    venue = VenueCollector(store, BrokerConfig(host="127.0.0.1", port=broker.port, venue="cafe"), "venue-1").start()

    def play(t: str, lo: int, hi: int) -> None:
        for j, m in enumerate(moves[t][lo:hi]):
            # Refereeing never waits on the broker: the listener only queues a row number.
            sessions[t].process(Observation("cli", float(lo + j), ObservationKind.MOVE, m))

    try:
        for t in TABLES:
            play(t, 0, 20)
        broker.kill()  # mid-game: the tables keep refereeing into their logs
        for t in TABLES:
            play(t, 20, 35)
        broker.start()
        publishers["t3"].stop()  # t3 goes offline: its game goes on into its log only
        for t in TABLES:
            play(t, 35, 50)
        publishers["t3"] = TablePublisher(sessions["t3"], cfg["t3"]).start()
        venue.stop()  # a venue service restart, while the tables play on
        for t in TABLES:
            play(t, 50, 55)
        venue = VenueCollector(store, BrokerConfig(host="127.0.0.1", port=broker.port, venue="cafe"), "venue-1").start()
        for t in TABLES:
            play(t, 55, 60)

        def complete() -> bool:
            return all(store.seqs("cafe", t) == list(range(1, sessions[t].log.last_seq + 1)) for t in TABLES)

        assert wait_for(complete), {t: (len(store.seqs("cafe", t)), sessions[t].log.last_seq) for t in TABLES}
        for t in TABLES:
            assert sessions[t].log.last_seq > 50
            # what the venue holds is what the table's log says anyone may see, row for row
            instance = publishers[t].instance
            want = [sessions[t].public_row(r) for r in sessions[t].log.rows()]
            assert store.events("cafe", t, instance, limit=1000) == [json.loads(json.dumps(w, sort_keys=True)) for w in want]
    finally:
        venue.stop()
        for p in publishers.values():
            p.stop()
        store.close()
