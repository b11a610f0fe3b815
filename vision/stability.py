"""Debouncing the camera: a zone's new view counts only once it has held for the settle time.

A hand passing over the table changes what the camera sees for a moment; the tracker reports
nothing until a view has been the same in every frame for ``settle_s`` (``settle_remove_s`` when
the view takes something away), then reports it once, stamped with the time it began. A zone the
camera cannot see keeps its settled view, however long that lasts. It also keeps, per zone, the settled view and since when, so the
session can tell how long the table has disagreed with what the game expects (the game decides
what is unexplained, not the camera).
"""

from __future__ import annotations

import dataclasses
import threading
from collections import Counter, deque
from dataclasses import dataclass

from companion.core import Observation, canonical_json
from companion.core.errors import ObservationError
from companion.core.seen import CardFace, Cubes, Occupancy, Pawns, Unseen, VisionSeen, ZoneView, read_seen


@dataclass(frozen=True)
class SettledZone:
    """A zone's settled view: the observation (stamped with when the view began) and since when."""

    observation: Observation
    since: float


def is_removal(before: ZoneView | None, after: ZoneView) -> bool:
    """Does ``after`` take something away that ``before`` showed (a card, a cube, a pawn)?"""
    if isinstance(before, (Occupancy, CardFace)) and isinstance(after, (Occupancy, CardFace)):
        return before.occupied and not after.occupied
    if isinstance(before, Cubes) and isinstance(after, Cubes):
        return bool(Counter(before.colours) - Counter(after.colours))
    if isinstance(before, Pawns) and isinstance(after, Pawns):
        return bool(set(before.squares) - set(after.squares))
    return False


def vision_seen(observation: Observation) -> VisionSeen:
    """The camera's view in ``observation``, typed (the detectors make only VISION observations)."""
    seen = read_seen(observation)
    if not isinstance(seen, VisionSeen):
        raise ObservationError(f"a {observation.kind.value} observation from {observation.source} is not a view of the camera's")
    return seen


@dataclass
class _Track:
    candidate_key: str | None
    candidate: Observation | None
    candidate_since: float
    settled_key: str | None = None
    settled: SettledZone | None = None
    settled_view: ZoneView | None = None
    unseen: str | None = None
    unseen_since: float = 0.0


class ZoneStabiliser:
    """Per zone: the view seen in every frame for ``settle_s`` becomes the settled view.

    A view that takes something away (a card removed, a cube or pawn gone) must hold for
    ``settle_remove_s`` instead: a hand lifting a card is seen before the card is. A frame in
    which the zone is unseen (its state is ``{"unseen": reason}``) keeps the settled view and
    restarts the wait: a change counts only once it has been seen, unbroken, for the whole time.
    """

    def __init__(self, settle_s: float, settle_remove_s: float | None = None) -> None:
        if settle_s < 0:
            raise ValueError("settle_s must not be negative")
        self.settle_s = settle_s
        self.settle_remove_s = max(settle_s, settle_remove_s if settle_remove_s is not None else 2 * settle_s)
        self._tracks: dict[str, _Track] = {}
        self._lock = threading.Lock()

    def observe(self, observation: Observation) -> Observation | None:
        """Feed one frame's view of one zone; returns the zone's newly settled view, if any."""
        seen = vision_seen(observation)
        zone, view = seen.zone.name, seen.view
        t = observation.table_time
        with self._lock:
            track = self._tracks.get(zone)
            if isinstance(view, Unseen):
                if track is None:
                    track = self._tracks[zone] = _Track(None, None, t)
                if track.unseen is None:
                    track.unseen_since = t
                track.unseen = view.why
                track.candidate_key, track.candidate = None, None
                return None
            key = canonical_json(view.to_json())
            if track is None:
                track = self._tracks[zone] = _Track(key, observation, t)
            elif key != track.candidate_key:
                track.candidate_key, track.candidate, track.candidate_since = key, observation, t
            track.unseen = None
            if track.candidate_key == track.settled_key or track.candidate is None:
                return None
            wait = self.settle_remove_s if is_removal(track.settled_view, view) else self.settle_s
            if t - track.candidate_since >= wait:
                began = track.candidate_since
                settled = dataclasses.replace(track.candidate, table_time=began)
                track.settled_key, track.settled = track.candidate_key, SettledZone(settled, began)
                track.settled_view = vision_seen(track.candidate).view
                return settled
        return None

    def unseen(self) -> dict[str, str]:
        """Zones the camera cannot see in the latest frame, with why."""
        with self._lock:
            return {zone: tr.unseen for zone, tr in self._tracks.items() if tr.unseen is not None}

    def settled(self) -> dict[str, SettledZone]:
        """Every zone's settled view (zones not yet settled are absent)."""
        with self._lock:
            return {zone: tr.settled for zone, tr in self._tracks.items() if tr.settled is not None}

    def age(self, zone: str, now: float) -> float | None:
        """How long ``zone`` has been in its settled state at table time ``now`` (None: not settled)."""
        with self._lock:
            track = self._tracks.get(zone)
            return None if track is None or track.settled is None else now - track.settled.since

    def pending(self, zone: str) -> SettledZone | None:
        """A view of ``zone`` that differs from the settled one and has not held long enough yet."""
        with self._lock:
            track = self._tracks.get(zone)
            if track is None or track.candidate is None or track.candidate_key == track.settled_key:
                return None
            return SettledZone(track.candidate, track.candidate_since)

    def reset(self) -> None:
        """Forget everything (the camera moved to another table)."""
        with self._lock:
            self._tracks.clear()


class FaceVote:
    """Steadies a card face read by the camera (a pyramid slot's): the most frequent read over the last ``window_s``.

    Reading a small corner index misses now and then (blur, a glint); without this a single bad
    read would restart the settle clock. Reads of None (index not legible) do not vote.
    """

    def __init__(self, window_s: float) -> None:
        self.window_s = window_s
        self._reads: dict[str, deque[tuple[float, str]]] = {}

    def smooth(self, observation: Observation) -> Observation:
        seen = vision_seen(observation)
        face = seen.view
        if not isinstance(face, CardFace):
            return observation
        reads = self._reads.setdefault(seen.zone.name, deque())
        t = observation.table_time
        if face.card is not None:
            reads.append((t, face.card))
        while reads and reads[0][0] < t - self.window_s:
            reads.popleft()
        if not face.occupied or not reads:
            return observation
        counts = Counter(c for _, c in reads)
        top = max(counts.values())
        best = next(c for _, c in reversed(reads) if counts[c] == top)  # ties: the latest read
        if best == face.card:
            return observation
        return VisionSeen(seen.zone, CardFace(True, best), seen.t).observation(observation.source)
