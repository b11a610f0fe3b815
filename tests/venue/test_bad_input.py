"""Bad input at the venue, on a real Mosquitto: malformed payloads, unknown topics and bad replay
requests get one warning and a count each, and never stop the venue or the table; bad options to
`companion venue` get one message naming the option."""

from __future__ import annotations

import http.client
import json
import logging
import signal
import subprocess
import sys
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from tests.venue.conftest import Broker
from tests.venue.tables import get_json, start_table, start_venue, wait_for


def test_malformed_messages_are_counted_and_the_venue_goes_on(tmp_path: Path, broker: Broker, caplog: pytest.LogCaptureFixture) -> None:
    venue = start_venue(tmp_path, broker.port)
    table = start_table(tmp_path, "t1", broker.port, seed=2)
    rogue = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="rogue", protocol=mqtt.MQTTv5)
    rogue.connect("127.0.0.1", broker.port)
    rogue.loop_start()
    caplog.set_level(logging.WARNING)
    try:
        assert wait_for(lambda: venue.collector.subscribed)
        bad = [
            ("venue/cafe/t9/event", b"not json"),
            ("venue/cafe/t9/event", b"[1, 2]"),
            ("venue/cafe/t9/event", json.dumps({"instance": "x", "seq": "one", "hash": "h", "row": {}}).encode()),
            ("venue/cafe/t9/event", json.dumps({"instance": "x", "seq": 0, "hash": "h", "row": {}}).encode()),
            ("venue/cafe/t9/event", json.dumps({"instance": "x", "seq": 1, "hash": "h", "row": "text"}).encode()),
            ("venue/cafe/t9/board", json.dumps({"seq": 3}).encode()),
            ("venue/cafe/t9/board", b"\xff\xfe"),
        ]
        for topic, payload in bad:
            rogue.publish(topic, payload, qos=1).wait_for_publish(5)
        rogue.publish("venue/cafe/t1/replay", b"{\"from\": \"x\"}", qos=1).wait_for_publish(5)
        rogue.publish("venue/cafe/t1/replay", json.dumps({"instance": "another-game", "from": 1}).encode(), qos=1).wait_for_publish(5)
        assert wait_for(lambda: venue.collector.counters["bad"] == len(bad))
        table.start_game()
        table.play(8)
        assert wait_for(lambda: venue.store.seqs("cafe", "t1") == list(range(1, table.service.log.last_seq + 1)))
        assert venue.store.current("cafe", "t9") is None  # nothing of the garbage was stored
        warnings = [r for r in caplog.records if r.name == "companion.venue.collector"]
        assert len(warnings) == 2  # one per topic, then only counted
    finally:
        rogue.loop_stop()
        rogue.disconnect()
        venue.stop()
        table.service.stop()


def test_a_bad_replay_request_is_counted_by_the_table(tmp_path: Path, broker: Broker) -> None:
    table = start_table(tmp_path, "t1", broker.port, seed=3)
    rogue = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="rogue", protocol=mqtt.MQTTv5)
    rogue.connect("127.0.0.1", broker.port)
    rogue.loop_start()
    try:
        publisher = table.service.publisher
        assert wait_for(lambda: publisher._connected.is_set())
        for payload in (b"garbage", json.dumps({"instance": publisher.instance, "from": 0}).encode()):
            rogue.publish("venue/cafe/t1/replay", payload, qos=1).wait_for_publish(5)
        rogue.publish("venue/cafe/t1/replay", json.dumps({"instance": "old-game", "from": 1}).encode(), qos=1).wait_for_publish(5)
        assert wait_for(lambda: publisher.counters["errors"] == 2 and publisher.counters["foreign"] == 1)
    finally:
        rogue.loop_stop()
        rogue.disconnect()
        table.service.stop()


@pytest.mark.parametrize(
    "args, message",
    [
        (["--broker", "127.0.0.1:notaport", "--venue", "cafe"], "--broker: 'notaport' is not a port number"),
        (["--broker", "127.0.0.1:70000", "--venue", "cafe"], "--broker: 70000 is not a port number"),
        (["--broker", "127.0.0.1", "--venue", "ca/fe"], '--venue: "ca/fe" must be a non-empty name'),
        (["--broker", "127.0.0.1", "--venue", "cafe", "--ca-file", "/nonexistent.pem"], "--ca-file: /nonexistent.pem is not a file"),
    ],
)
def test_bad_venue_options_get_one_message(args: list[str], message: str) -> None:
    done = subprocess.run([sys.executable, "-m", "companion", "venue", *args], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert message in done.stderr
    assert "Traceback" not in done.stderr


def test_companion_venue_starts_serves_and_stops_on_sigterm(tmp_path: Path, broker: Broker) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion", "venue", "--broker", f"127.0.0.1:{broker.port}", "--venue", "cafe",
         "--db", str(tmp_path / "venue.sqlite"), "--host", "127.0.0.1", "--port", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        assert proc.stdout is not None
        lines = [proc.stdout.readline(), proc.stdout.readline()]
        assert "listening to 127.0.0.1" in lines[0]
        url = lines[1].split("venue page: ", 1)[1].strip()
        overview = get_json(url + "api/tables")
        assert overview["venue"] == "cafe" and overview["tables"] == []
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)


def test_the_venue_page_answers_only_to_its_own_names(tmp_path: Path, broker: Broker) -> None:
    venue = start_venue(tmp_path, broker.port)
    try:
        port = int(venue.url.rsplit(":", 1)[1].strip("/"))
        for host, status in (("127.0.0.1", 200), ("localhost", 200), ("attacker.example", 421)):
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            conn.request("GET", "/api/tables", headers={"Host": f"{host}:{port}"})
            assert conn.getresponse().status == status, host
            conn.close()
    finally:
        venue.stop()
