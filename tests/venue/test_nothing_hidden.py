"""Whole games of every game whose hands are secret (its scene says so, tests/games/scenes.py),
published to a real Mosquitto: every message the broker carries is checked against every card in any
hand at that row (the rules of tests/browser/hidden.py: a card shown by the move itself, an illegal
attempt, and the final open hands are public)."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from companion.venue.broker import BrokerConfig
from companion.core import Observation, ObservationKind
from companion.games import get_spec, specs
from companion.log.store import GameLog
from companion.venue.publish import TablePublisher
from companion.referee.session import Session
from tests.games.scenes import Hands, scene
from tests.leakcheck import board_names, named, shown_by
from tests.venue.conftest import Broker


def secret_hands() -> dict[str, Hands]:
    found = {game_id: scene(spec).hands for game_id, spec in specs().items()}
    return {game_id: hands for game_id, hands in found.items() if hands is not None and hands.secret}


@pytest.mark.parametrize("game_id", sorted(secret_hands()))
def test_no_hand_card_ever_reaches_the_broker(tmp_path: Path, broker: Broker, game_id: str) -> None:
    spec, hands = get_spec(game_id), secret_hands()[game_id]
    game = spec.game
    header, moves = spec.playout(seed=1, max_moves=400)
    session = Session(game, GameLog(tmp_path / "t.sqlite"), header)
    seen: list[tuple[str, dict[str, Any]]] = []
    lock = threading.Lock()

    def on_message(client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        with lock:
            seen.append((message.topic, json.loads(message.payload)))

    spy = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="spy", protocol=mqtt.MQTTv5)
    spy.on_message = on_message
    subscribed = threading.Event()
    spy.on_connect = lambda c, u, f, r, p: c.subscribe("#", qos=1)
    spy.on_subscribe = lambda c, u, mid, codes, p: subscribed.set()
    spy.connect("127.0.0.1", broker.port)
    spy.loop_start()
    assert subscribed.wait(60)  # the spy hears everything the table publishes from its first row
    publisher = TablePublisher(session, BrokerConfig(host="127.0.0.1", port=broker.port, venue="v", table="t")).start()
    in_hands: dict[int, set[str]] = {}

    def held() -> set[str]:
        return hands.held(game, session.state, header.players)

    try:
        in_hands[session.log.last_seq] = held()
        for i, move in enumerate(moves):
            row = session.process(Observation("cli", float(i), ObservationKind.MOVE, game.codec.to_json(move)))
            in_hands[row.seq] = held()
        last = session.log.last_seq
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            with lock:
                if any(t.endswith("/event") and m["seq"] == last for t, m in seen):
                    break
            time.sleep(0.1)
    finally:
        publisher.stop()
        spy.loop_stop()
        spy.disconnect()
    # the check can fail: hands were really held, and every row was published
    assert any(len(h) >= 5 for h in in_hands.values())
    events = [m for t, m in seen if t.endswith("/event")]
    assert sorted({m["seq"] for m in events}) == list(range(1, last + 1))
    leaks: list[str] = []
    for topic, message in seen:
        if topic.endswith("/event"):
            found = named(json.dumps(message), in_hands[message["seq"]]) - shown_by(message["row"], hands.shown_by_move)
        else:
            found, early = board_names(message, in_hands[message["seq"]])
            if early:
                leaks.append(f"{topic}: the scoreboard lists hands while the game goes on")
        if found:
            leaks.append(f"{topic}: {sorted(found)}")
    assert leaks == [], f"{len(leaks)} leaks, the first: {leaks[:3]}"
