"""The heartbeat listing put back together, and the table model rebuilt or caught up from it."""

from __future__ import annotations

from companion.core import Observation, Zone
from companion.core.readers import ReaderEvent
from companion.core.zones import HAND_PAD, PILE
from companion.table.model import TableModel
from hardware.protocol import HeartbeatFrame, KnownFrame
from hardware.resync import ListingAssembler

A, B, C = "04aa2230a1b201", "04bb2230a1b202", "04cc2230a1b203"
ZONES = (Zone("pile-1", PILE, index=1, reader="array:0"), Zone("hand-anna", HAND_PAD, player="anna", reader="array:1"))


class Cards:
    game = "test"

    def card_for(self, uid: str) -> str | None:
        return f"card-{uid[2:4]}"


def test_a_listing_is_whole_only_with_every_k_frame_in_sequence() -> None:
    listings = ListingAssembler()
    assert listings.heartbeat(HeartbeatFrame(10, 500, "OO", 2)) is None
    assert listings.known(KnownFrame(11, 500, 0, (A, B))) is None
    snapshot = listings.known(KnownFrame(12, 500, 0, (C,)))
    assert snapshot is not None and snapshot.on(0) == (A, B, C) and snapshot.on(1) == () and snapshot.channels == 2
    # A K frame lost: the listing is dropped, not used half-way.
    assert listings.heartbeat(HeartbeatFrame(20, 1500, "OO", 2)) is None
    assert listings.known(KnownFrame(22, 1500, 1, (A,))) is None
    assert listings.broken == 1
    # Another frame inside a listing breaks it too; an empty listing is whole at once.
    listings.heartbeat(HeartbeatFrame(30, 2500, "OO", 1))
    listings.other()
    assert listings.broken == 2
    empty = listings.heartbeat(HeartbeatFrame(40, 3500, "OO", 0))
    assert empty is not None and empty.tags == {}
    assert listings.heartbeat(HeartbeatFrame(50, 4500, "OO")) is None  # firmware 1.x: no listing


def test_a_rebuild_is_silent_and_a_catch_up_delivers_each_missed_event_once() -> None:
    seen: list[Observation] = []
    table = TableModel(ZONES, Cards(), seen.append, debounce_s=60.0)
    try:
        table.resync("array:0", (A, B), 1.0, judge=False)  # after a restart: no observation
        assert table.present("pile-1") == (A, B) and seen == []
        table.reader_event(ReaderEvent("array:1", C, "arrive", 2.0))
        table.reader_event(ReaderEvent("array:1", C, "depart", 3.0))  # held by the debouncer
        # Frames were lost: the array now lists B on the pile (A left, unseen) and nothing on the pad.
        table.resync("array:0", (B,), 4.0, judge=True)
        table.resync("array:1", (), 4.0, judge=True)
        events = [(o.payload["event"], o.payload["zone"], o.payload["uid"], o.table_time) for o in seen]
        assert events == [
            ("arrive", "hand-anna", C, 2.0),
            ("depart", "pile-1", A, 4.0),
            ("depart", "hand-anna", C, 3.0),  # the held departure, released once, with its own time
        ]
        table.resync("array:1", (), 5.0, judge=True)  # nothing differs: nothing more
        assert len(seen) == 3
    finally:
        table.stop()
    assert len(seen) == 3  # stopping releases no second departure
