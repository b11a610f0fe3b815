"""Per-table credentials on a real Mosquitto: a table may write only under its own name (the ACL
``pattern write venue/+/%u/#``); what it publishes as another table never reaches the venue."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from tests.venue.conftest import ACL, RUN_AS, SECURED, Broker, free_port, password_file, require_mosquitto
from tests.venue.tables import wait_for


def client(port: int, user: str, seen: list[tuple[str, str]] | None = None) -> mqtt.Client:
    c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=user, protocol=mqtt.MQTTv5)
    c.username_pw_set(user, f"pw-{user}")
    lock = threading.Lock()
    if seen is not None:
        def on_message(cl: mqtt.Client, u: Any, m: mqtt.MQTTMessage) -> None:
            with lock:
                seen.append((m.topic, m.payload.decode()))
        c.on_message = on_message
    c.connect("127.0.0.1", port)
    c.loop_start()
    return c


def test_a_table_cannot_publish_as_another(tmp_path: Path) -> None:
    require_mosquitto()
    passwd = tmp_path / "passwd"
    password_file(passwd, ("venue", "t1", "t2"))
    (tmp_path / "acl").write_text(ACL)
    broker = Broker(tmp_path, free_port())
    broker.conf.write_text(
        RUN_AS + f"listener {broker.port} 127.0.0.1\npersistence false\n" + SECURED.format(passwd=passwd, acl=tmp_path / "acl")
    )
    broker.start()
    seen: list[tuple[str, str]] = []
    venue = client(broker.port, "venue", seen)
    t1 = client(broker.port, "t1")
    try:
        subscribed = threading.Event()
        venue.on_subscribe = lambda c, u, mid, codes, props: subscribed.set()
        venue.subscribe("venue/#", qos=1)
        assert subscribed.wait(60)  # the broker acknowledged the subscription: nothing published after it is missed
        t1.publish("venue/cafe/t1/event", json.dumps({"seq": 1}), qos=1).wait_for_publish(60)
        t1.publish("venue/cafe/t2/event", json.dumps({"seq": 99}), qos=1).wait_for_publish(60)
        t1.publish("venue/cafe/t1/event", json.dumps({"seq": 2}), qos=1).wait_for_publish(60)
        # One connection's messages reach a subscriber in order: once seq 2 is in, seq 99 would have come before it.
        assert wait_for(lambda: len(seen) >= 2)
        assert seen == [("venue/cafe/t1/event", '{"seq": 1}'), ("venue/cafe/t1/event", '{"seq": 2}')]
    finally:
        for c in (venue, t1):
            c.loop_stop()
            c.disconnect()
        broker.kill()
