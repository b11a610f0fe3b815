"""Issue 26, item 2, on a real Mosquitto: a client connecting with another client's id takes that id
over, and the broker drops the client that held it. With the ids fixed (``venue``,
``table-<venue>-<table>``), table t1's credentials knocked the venue and another table off, three
times in five seconds. Now the broker binds every id to its username (``use_username_as_clientid``,
docs/venue.md), and the venue's and tables' own ids are random, so neither route knocks anyone off."""

from __future__ import annotations

from pathlib import Path

from companion.venue.broker import new_client_id
from tests.venue.attack import attacked_venue, connect_as, holds_every_row
from tests.venue.conftest import Broker, require_mosquitto
from tests.venue.tables import start_table, start_venue, wait_for

ROUNDS = 3
"""The attack connected three times in five seconds."""


def test_a_tables_credentials_cannot_knock_the_venue_or_another_table_off(tmp_path: Path) -> None:
    require_mosquitto()
    with attacked_venue(tmp_path, seed=3) as attack:
        broker, venue, t2 = attack.broker, attack.venue, attack.t2
        t2.start_game()
        t2.play(6)
        assert wait_for(holds_every_row(venue, t2))
        publisher = t2.service.publisher
        assert publisher is not None
        ids = [venue.collector.client_id, "venue", publisher.link.client_id, "t2", "table-cafe-t2"]
        for _ in range(ROUNDS):
            for client_id in ids:
                attacker = connect_as(broker.port, "t1", client_id)  # accepted: t1's own credentials
                attacker.loop_stop()
                attacker.disconnect()
        t2.play(16)
        # The venue stored these rows over its connection: had it been dropped, it would have said so first.
        assert wait_for(holds_every_row(venue, t2))
        assert venue.collector.counters["disconnects"] == 0
        assert publisher.counters["disconnects"] == 0


def test_the_venue_and_the_tables_ids_cannot_be_guessed(tmp_path: Path, broker: Broker) -> None:
    """Even on a broker that does not bind ids to users (the tests' anonymous one), the old fixed ids
    reach no one: the venue's and a table's ids are random."""
    venue = start_venue(tmp_path, broker.port)
    table = start_table(tmp_path, "t1", broker.port, seed=4)
    try:
        table.start_game()
        table.play(6)
        assert wait_for(holds_every_row(venue, table))
        publisher = table.service.publisher
        assert publisher is not None
        assert venue.collector.client_id.startswith("venue-") and len(venue.collector.client_id) == len("venue-") + 16
        assert publisher.link.client_id.startswith("table-cafe-t1-")
        assert new_client_id("venue") != new_client_id("venue")
        for _ in range(ROUNDS):
            for client_id in ("venue", "venue-test", "table-cafe-t1"):
                guess = connect_as(broker.port, None, client_id)
                guess.loop_stop()
                guess.disconnect()
        table.play(14)
        assert wait_for(holds_every_row(venue, table))
        assert venue.collector.counters["disconnects"] == 0
        assert publisher.counters["disconnects"] == 0
    finally:
        venue.stop()
        table.service.stop()
