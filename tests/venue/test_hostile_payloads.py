"""Issue 26, item 1, on a real Mosquitto with real table and venue services: one hostile message must
not stop the venue (or a table). Table t1, with its own credentials, publishes 120 KB of nested
brackets to its own board topic (and other payloads the venue cannot keep); the venue counts them
and goes on storing every other table's rows. A network thread that dies anyway (a callback raising
what paho does not catch, or paho's loop stopped under it) is noticed, shown in the health, and a new
client connects: the rows published meanwhile arrive through the replay protocol."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest

from tests.venue.attack import NESTED, attacked_venue, connect_as, holds_every_row
from tests.venue.conftest import Broker, require_mosquitto
from tests.venue.tables import get_json, start_table, start_venue, wait_for

def test_nested_brackets_from_a_tables_own_credentials_do_not_stop_the_venue(tmp_path: Path) -> None:
    require_mosquitto()
    hostile = [
        ("board", NESTED),
        ("event", NESTED),
        ("board", json.dumps({"instance": "a", "seq": 1, "pad": "x" * 70_000}).encode()),  # past the board limit
        ("event", json.dumps({"instance": "a", "seq": 10**30, "hash": "h", "row": {}}).encode()),  # past SQLite's integers
        ("board", json.dumps({"instance": "i" * 1000, "seq": 1}).encode()),
    ]
    with attacked_venue(tmp_path, seed=2) as attack:
        venue, t2, t1 = attack.venue, attack.t2, attack.t1
        assert wait_for(lambda: venue.collector.subscribed)
        for leaf, payload in hostile:
            t1.publish(f"venue/cafe/t1/{leaf}", payload, qos=1).wait_for_publish(60)
        assert wait_for(lambda: venue.collector.counters["bad"] == len(hostile))
        t2.start_game()
        t2.play(12)
        assert wait_for(holds_every_row(venue, t2))  # every other table's rows are still stored
        health = get_json(venue.url + "healthz")
        assert health["network"] == "running" and health["broker"].endswith("(connected)")
        assert health["collector"]["callback_errors"] == 0 and health["collector"]["network_restarts"] == 0
        assert venue.store.current("cafe", "t1") is None  # nothing of it was kept


# The thread's death is the point here; pytest would report the exception that ends it as a warning.
@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
def test_a_dead_network_thread_is_noticed_and_the_venue_reconnects(tmp_path: Path, broker: Broker) -> None:
    venue = start_venue(tmp_path, broker.port)
    table = start_table(tmp_path, "t1", broker.port, seed=5)
    complete = holds_every_row(venue, table)

    def fatal(client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        raise SystemExit("a callback raising what paho does not catch")

    try:
        table.start_game()
        table.play(6)
        assert wait_for(complete)
        venue.collector.client.on_message = fatal  # the next message ends paho's network thread
        table.play(12)
        assert wait_for(lambda: venue.collector.counters["network_restarts"] == 1)
        table.play(18)
        assert wait_for(complete)  # what was published while the thread was dead is asked for again
        venue.collector.client.loop_stop()  # paho's loop stopped under the venue
        assert wait_for(lambda: venue.collector.counters["network_restarts"] == 2)
        table.play(24)
        assert wait_for(complete)
        health = get_json(venue.url + "healthz")
        assert health["network"] == "running" and health["broker"].endswith("(connected)")
        assert health["collector"]["network_restarts"] == 2
    finally:
        venue.stop()
        table.service.stop()


def test_nested_brackets_on_a_replay_request_do_not_stop_the_table(tmp_path: Path, broker: Broker) -> None:
    venue = start_venue(tmp_path, broker.port)
    table = start_table(tmp_path, "t1", broker.port, seed=6)
    rogue = connect_as(broker.port, None, "rogue")
    try:
        table.start_game()
        table.play(4)
        publisher = table.service.publisher
        assert publisher is not None
        assert wait_for(lambda: publisher._connected.is_set())
        hostile = (
            NESTED,  # past the table's Maximum Packet Size (16 KiB): the broker never hands it over
            b"[" * 500 + b"]" * 500,  # within the replay request's 1 KiB, but 500 levels deep: not parsed
            json.dumps({"instance": publisher.instance, "from": 10**30}).encode(),
        )
        for payload in hostile:
            rogue.publish("venue/cafe/t1/replay", payload, qos=1).wait_for_publish(60)
        assert wait_for(lambda: publisher.counters["errors"] == 2)
        table.play(12)
        assert wait_for(holds_every_row(venue, table))
        assert publisher.counters["callback_errors"] == 0 and publisher.counters["network_restarts"] == 0
    finally:
        rogue.loop_stop()
        rogue.disconnect()
        venue.stop()
        table.service.stop()


def test_a_tables_dead_network_thread_is_restarted(tmp_path: Path, broker: Broker) -> None:
    venue = start_venue(tmp_path, broker.port)
    table = start_table(tmp_path, "t1", broker.port, seed=7)
    try:
        table.start_game()
        table.play(4)
        publisher = table.service.publisher
        assert publisher is not None
        assert wait_for(holds_every_row(venue, table))
        publisher.client.loop_stop()  # paho's loop stopped under the table
        table.play(14)
        assert wait_for(lambda: publisher.counters["network_restarts"] == 1)
        assert wait_for(holds_every_row(venue, table))
    finally:
        venue.stop()
        table.service.stop()
