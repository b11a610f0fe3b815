"""The whole chain under a burst: no row lost, none reordered, none repeated, on every open scoreboard.

2,000 tag events leave a simulated reader array (its own process, on a pty) as fast as it can
write them, through the real bridge, table model, session, SQLite log, broadcaster and waitress, to
SSE clients reading ``/events`` over loopback HTTP (bench/service.py's chain and clients). One more
client drops its connection a third of the way in and comes back with ``Last-Event-ID``, as a
phone does. Only counts and order are asserted, never times.
"""

from __future__ import annotations

from typing import Any

import pytest

from bench.service import run_scenario

pytestmark = pytest.mark.slow

EVENTS = 2000
STEADY = 5


@pytest.fixture(scope="module")
def burst() -> dict[str, Any]:
    return run_scenario(rate=0, events=EVENTS, clients=STEADY + 1, client_procs=2, droppers=1, drain_s=40)


def test_the_array_wrote_every_frame_and_the_log_holds_one_row_each(burst: dict[str, Any]) -> None:
    assert burst["written"] == EVENTS and burst["array"]["dropped"] == 0
    service = burst["service"]
    assert service["log_tag_rows"] == EVENTS
    assert service["log_verified"] == service["log_rows"]  # the hash chain holds over every row
    assert service["outcomes"]["error"] == 0
    assert service["outcomes"]["legal"] > 0 and service["outcomes"]["illegal"] > 0  # the game judged them


def test_every_client_gets_every_row_once_in_order(burst: dict[str, Any]) -> None:
    steady = [s for s in burst["streams"] if not s["dropper"]]
    assert len(steady) == STEADY
    for stream in steady:
        assert stream["tags"] == EVENTS and stream["received"] == EVENTS
        assert stream["gaps"] == 0, "a row was skipped"
        assert stream["duplicates"] == 0, "a row came twice or out of order"
        assert stream["wrong_reader"] == 0, "a tag row did not match the frame sent in its place"


def test_a_client_that_drops_and_resumes_with_last_event_id_gets_every_row_exactly_once(burst: dict[str, Any]) -> None:
    (dropper,) = [s for s in burst["streams"] if s["dropper"]]
    assert dropper["reconnects"] >= 1
    assert dropper["tags"] == EVENTS and dropper["received"] == EVENTS
    assert dropper["gaps"] == 0 and dropper["duplicates"] == 0 and dropper["wrong_reader"] == 0
    assert burst["no_loss_in_order"]
