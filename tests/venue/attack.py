"""Issue 26's attacker, shared by the venue's hostile tests and bench/venue_flood.py: a broker set up as
docs/venue.md says with users venue, t1 and t2, the venue, table t2 under its own credentials, and
t1's credentials in an attacker's hands (a bare paho client)."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from companion.app.venue import VenueService
from companion.venue.limits import VenueLimits
from tests.venue.conftest import Broker, secured_broker
from tests.venue.tables import Table, as_user, start_table, start_venue, venue_user

NESTED = b"[" * 60_000 + b"]" * 60_000
"""The attack: 120 KB of nested brackets (json.loads raised RecursionError on paho's thread)."""


def connect_as(port: int, user: str | None, client_id: str) -> mqtt.Client:
    """A client of the test's own (the attacker), connected and acknowledged by the broker."""
    c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv5)
    if user is not None:
        c.username_pw_set(user, f"pw-{user}")
    answers: list[Any] = []
    answered = threading.Event()

    def on_connect(client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        answers.append(reason)
        answered.set()

    c.on_connect = on_connect
    c.connect("127.0.0.1", port)
    c.loop_start()
    assert answered.wait(60) and not answers[0].is_failure, answers
    return c


def holds_every_row(venue: Any, table: Table) -> Callable[[], bool]:
    return lambda: venue.store.seqs("cafe", table.name) == list(range(1, table.service.log.last_seq + 1))


def made_up_board(instance: str, players: list[str], seq: int = 40, outcome: bool = True) -> bytes:
    """A board as a table publishes one, for a game it never played."""
    winners = players[:1] if outcome else None
    return json.dumps(
        {
            "game": "horrible-mountain-2", "title": "Escape From Horrible Mountain 2", "players": players, "seq": seq,
            "scoreboard": {}, "prompts": [], "outcome": {"termination": "escaped", "winners": winners} if outcome else None,
            "winners": winners, "instance": instance,
        }
    ).encode()


@dataclass(frozen=True)
class Attacked:
    broker: Broker
    venue: VenueService
    t2: Table
    t1: mqtt.Client
    """The attacker: connected with t1's own credentials and client id."""


@contextmanager
def attacked_venue(directory: Path, seed: int, limits: VenueLimits | None = None) -> Iterator[Attacked]:
    """The broker, the venue, table t2 (its playout ``seed``) and the attacker t1, all stopped after."""
    with ExitStack() as stack:  # stopped in the reverse order
        broker = secured_broker(directory, ("venue", "t1", "t2"))
        broker.start()
        stack.callback(broker.kill)
        venue = start_venue(directory, broker.port, venue_user(broker.port), limits=limits)
        stack.callback(venue.stop)
        t2 = start_table(directory, "t2", broker.port, seed=seed, extra=as_user("t2"))
        stack.callback(t2.service.stop)
        t1 = connect_as(broker.port, "t1", "t1")
        stack.callback(t1.disconnect)
        stack.callback(t1.loop_stop)
        yield Attacked(broker, venue, t2, t1)
