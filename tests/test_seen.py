"""Observation payloads read once (companion.core.seen): the typed values write the same JSON back,
and a payload that does not say what its kind documents is one error naming the key, which the
session logs as an error row."""

from __future__ import annotations

from typing import Any

import pytest

from companion.core import Observation, ObservationKind, Zone
from companion.core.errors import ObservationError
from companion.core.seen import (
    CardFace,
    Cubes,
    Occupancy,
    Pawns,
    TagEvent,
    TagSeen,
    Unseen,
    VisionSeen,
    ZoneView,
    read_seen,
)
from companion.core.zones import HAND_PAD, PILE, ZoneRef
from companion.referee.session import Session

HAND = Zone("hand-anna", HAND_PAD, player="anna", reader="array:1")
PAYLOAD_ZONE = {"zone": "hand-anna", "zone_kind": "hand_pad", "player": "anna", "index": None}


def test_a_tag_payload_reads_into_its_value_and_writes_back_the_same_json() -> None:
    payload = {**PAYLOAD_ZONE, "event": "arrive", "uid": "04a1b2c3", "card": "teen-8"}
    seen = read_seen(Observation("array:1", 2.5, ObservationKind.TAG, payload))
    assert seen == TagSeen(ZoneRef("hand-anna", "hand_pad", "anna", None), TagEvent.ARRIVE, "04a1b2c3", "teen-8", 2.5)
    assert isinstance(seen, TagSeen) and seen.arrived and seen.zone.is_a(HAND_PAD) and not seen.zone.is_a(PILE)
    assert seen.payload() == payload
    assert seen.observation("array:1") == Observation("array:1", 2.5, ObservationKind.TAG, payload)
    unknown = read_seen(Observation("array:1", 3.0, ObservationKind.TAG, {**PAYLOAD_ZONE, "event": "depart", "uid": "04", "card": None}))
    assert isinstance(unknown, TagSeen) and unknown.card is None and not unknown.arrived


@pytest.mark.parametrize(
    "state, view",
    [
        ({"occupied": True}, Occupancy(True)),
        ({"occupied": False, "card": None}, CardFace(False, None)),
        ({"occupied": True, "card": "QS"}, CardFace(True, "QS")),
        ({"cubes": ["red", "red", "blue"]}, Cubes(("red", "red", "blue"))),
        ({"cubes": []}, Cubes(())),
        ({"pawns": {"anna": [1, 5], "ben": [8, 2]}}, Pawns({"anna": (1, 5), "ben": (8, 2)})),
        ({"pawns": {"anna": [1, 5]}, "unseen_pawns": ["ben"]}, Pawns({"anna": (1, 5)}, ("ben",))),
        ({"unseen": "glare"}, Unseen("glare")),
    ],
)
def test_every_view_the_camera_sends_reads_and_writes_back_unchanged(state: dict[str, Any], view: ZoneView) -> None:
    payload = {"zone": "z", "zone_kind": "grid", "player": None, "index": 3, "state": state}
    seen = read_seen(Observation("camera", 1.0, ObservationKind.VISION, payload))
    assert isinstance(seen, VisionSeen) and seen.view == view and seen.zone.index == 3
    assert seen.payload() == payload


@pytest.mark.parametrize(
    "kind, payload, words",
    [
        (ObservationKind.TAG, {**PAYLOAD_ZONE, "event": "land", "uid": "04", "card": None}, "event must be \"arrive\" or \"depart\", not 'land'"),
        (ObservationKind.TAG, {**PAYLOAD_ZONE, "event": "arrive", "card": None}, "uid must be the tag's UID"),
        (ObservationKind.TAG, {**PAYLOAD_ZONE, "event": "arrive", "uid": "04", "card": 7}, "card must be a card id or null"),
        (ObservationKind.TAG, {"zone_kind": "pile", "event": "arrive", "uid": "04", "card": None}, "zone must name the zone"),
        (ObservationKind.TAG, {"zone": "p", "event": "arrive", "uid": "04", "card": None}, "zone_kind must name the kind of zone p"),
        (ObservationKind.TAG, {"zone": "p", "zone_kind": "pile", "index": True, "event": "arrive", "uid": "04", "card": None}, "index must be a whole number"),
        (ObservationKind.VISION, {"zone": "p", "zone_kind": "pile"}, "the payload has no state"),
        (ObservationKind.VISION, {"zone": "p", "zone_kind": "pile", "state": {"occupied": "yes"}}, "state.occupied must be true or false"),
        (ObservationKind.VISION, {"zone": "p", "zone_kind": "pile", "state": {"occupied": True, "colour": "red"}}, "state holds colour, occupied"),
        (ObservationKind.VISION, {"zone": "p", "zone_kind": "pile", "state": {"cubes": ["red", 3]}}, "state.cubes must be a list of colour names"),
        (ObservationKind.VISION, {"zone": "g", "zone_kind": "grid", "state": {"pawns": {"anna": [1, 2, 3]}}}, "state.pawns.anna: an unreadable square"),
        (ObservationKind.VISION, {"zone": "g", "zone_kind": "grid", "state": {"pawns": {}, "unseen_pawns": "ben"}}, "unseen_pawns must be a list"),
        (ObservationKind.VISION, {"zone": "g", "zone_kind": "grid", "state": {"unseen": None}}, "state.unseen must say why"),
        (ObservationKind.NOTE, {"zone": "g"}, "only tag and vision observations"),
    ],
)
def test_a_malformed_payload_is_one_error_naming_the_key(kind: ObservationKind, payload: dict[str, Any], words: str) -> None:
    with pytest.raises(ObservationError) as err:
        read_seen(Observation("array:1", 1.0, kind, payload))
    assert words in str(err.value) and f"a {kind.value} observation from array:1" in str(err.value)


def test_the_session_logs_a_malformed_payload_as_an_error_row_and_goes_on(toy_session: Session) -> None:
    bad = toy_session.process(Observation("array:1", 7.0, ObservationKind.TAG, {**PAYLOAD_ZONE, "event": "land", "uid": "a1", "card": "c"}))
    assert bad.error is not None and "event must be" in bad.error and bad.move is None
    assert bad.payload["event"] == "land"  # the evidence is kept as it came
    good = toy_session.process(TagSeen(HAND.ref(), TagEvent.ARRIVE, "a1", "c", 8.0).observation("array:1"))
    assert good.verdict == {"ok": True} and good.error is None
    assert toy_session.counters["errors"] == 1
