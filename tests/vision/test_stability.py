"""The stability tracker: a change counts once it has held for the settle time; hands do not."""

from __future__ import annotations

from companion.core import Observation, ObservationKind, Zone
from companion.core import zones as kinds
from companion.core.seen import CardFace, Occupancy
from companion.games.the_mountain.table import PYRAMID_SLOT
from vision.detectors.common import vision_observation
from vision.stability import FaceVote, ZoneStabiliser

PILE = Zone("pile-1", kinds.PILE, index=1, polygon=((0, 0), (80, 0), (80, 100), (0, 100)))
SLOT = Zone("3-2", PYRAMID_SLOT, polygon=((0, 88), (63, 88), (63, 0), (0, 0)))


def feed(stabiliser: ZoneStabiliser, views: list[tuple[float, bool]], fps: float = 10.0) -> list[Observation]:
    """Views as (seconds, occupied) runs, one frame every 1/fps; returns what was reported."""
    out, t = [], 0.0
    for seconds, occupied in views:
        for _ in range(round(seconds * fps)):
            settled = stabiliser.observe(vision_observation(PILE, Occupancy(occupied), t))
            if settled is not None:
                out.append(settled)
            t = round(t + 1 / fps, 6)
    return out


def test_a_hand_passing_over_reports_no_change() -> None:
    stabiliser = ZoneStabiliser(1.0)
    reported = feed(stabiliser, [(2.0, False), (0.6, True), (2.0, False)])
    assert [o.payload["state"] for o in reported] == [{"occupied": False}]  # the first settled view only


def test_a_real_change_is_reported_once_stamped_with_when_it_began() -> None:
    stabiliser = ZoneStabiliser(1.0)
    reported = feed(stabiliser, [(2.0, False), (3.0, True)])
    assert [o.payload["state"]["occupied"] for o in reported] == [False, True]
    assert reported[1].table_time == 2.0
    assert reported[1].kind is ObservationKind.VISION and reported[1].payload["zone"] == "pile-1"


def test_flicker_shorter_than_the_settle_time_never_settles() -> None:
    stabiliser = ZoneStabiliser(1.0)
    reported = feed(stabiliser, [(2.0, False)] + [(0.5, True), (0.5, False)] * 4)
    assert len(reported) == 1


def test_the_tracker_says_how_long_a_zone_has_shown_its_view() -> None:
    stabiliser = ZoneStabiliser(0.5)
    assert stabiliser.age("pile-1", 0.0) is None
    feed(stabiliser, [(1.0, False), (2.0, True), (0.3, False)])
    assert stabiliser.age("pile-1", 10.0) == 9.0  # occupied since t = 1.0
    pending = stabiliser.pending("pile-1")
    assert pending is not None and pending.since == 3.0 and pending.observation.payload["state"] == {"occupied": False}
    settled = stabiliser.settled()["pile-1"]
    assert settled.since == 1.0 and settled.observation.payload["state"] == {"occupied": True}


def test_face_vote_keeps_the_majority_read_of_a_pyramid_card() -> None:
    vote = FaceVote(3.0)
    reads = ["QS", "QS", "QC", None, "QS", "QC", "QS"]
    smoothed = [vote.smooth(vision_observation(SLOT, CardFace(True, c), 0.1 * k)) for k, c in enumerate(reads)]
    assert [o.payload["state"]["card"] for o in smoothed] == ["QS", "QS", "QS", "QS", "QS", "QS", "QS"]
    gone = vote.smooth(vision_observation(SLOT, CardFace(False, None), 1.0))
    assert gone.payload["state"] == {"occupied": False, "card": None}


def test_face_vote_follows_a_new_card_after_the_window() -> None:
    vote = FaceVote(1.0)
    for k in range(10):
        vote.smooth(vision_observation(SLOT, CardFace(True, "2H"), 0.1 * k))
    late = vote.smooth(vision_observation(SLOT, CardFace(True, "9D"), 5.0))
    assert late.payload["state"]["card"] == "9D"
    other = vision_observation(PILE, Occupancy(True), 5.0)
    assert vote.smooth(other) is other
