"""What a reader or the camera saw, as typed values: the TAG and VISION payloads, read once.

The log keeps an observation's payload as JSON, spelt as :class:`~companion.core.ObservationKind`
documents; these are the same payloads typed. :func:`read_seen` reads one (a payload that does not
say what its kind documents is one :class:`ObservationError` naming the key, which the session logs
as an error row), and each value writes its payload back (:meth:`TagSeen.payload`,
:meth:`VisionSeen.payload`): the readers and the camera build payloads through these, so the
spelling lives in one place. A game's ``interpret_table`` receives a :data:`Seen`, never a dict.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeAlias

from companion.core.errors import ObservationError
from companion.core.nouns import Observation, ObservationKind
from companion.core.zones import ZoneRef

__all__ = [
    "UNSEEN",
    "UNSEEN_PAWNS",
    "TagEvent",
    "TagSeen",
    "Occupancy",
    "CardFace",
    "Cubes",
    "Pawns",
    "Unseen",
    "ZoneView",
    "VisionSeen",
    "Seen",
    "PressSeen",
    "read_seen",
    "read_press",
]

UNSEEN = "unseen"
"""A view's only key when the camera cannot see the zone: ``{"unseen": why}``."""
UNSEEN_PAWNS = "unseen_pawns"
"""In a grid's view, beside ``pawns``: the players whose pawns the camera cannot see (glare may
hide them) while it sees the others."""


class TagEvent(str, enum.Enum):
    ARRIVE = "arrive"
    DEPART = "depart"


@dataclass(frozen=True)
class TagSeen:
    """A TAG observation: a tag arrived at or departed from a zone's reader."""

    zone: ZoneRef
    event: TagEvent
    uid: str
    """The tag's UID in hex, as the reader read it."""
    card: str | None
    """The card enrolled for that UID; None: a tag no one enrolled."""
    t: float
    """Table time of the observation, in seconds."""

    @property
    def arrived(self) -> bool:
        return self.event is TagEvent.ARRIVE

    def payload(self) -> dict[str, Any]:
        return {**self.zone.to_json(), "event": self.event.value, "uid": self.uid, "card": self.card}

    def observation(self, source: str) -> Observation:
        return Observation(source, self.t, ObservationKind.TAG, self.payload())


@dataclass(frozen=True)
class Occupancy:
    """Whether a card lies in the zone."""

    occupied: bool

    def to_json(self) -> dict[str, Any]:
        return {"occupied": self.occupied}


@dataclass(frozen=True)
class CardFace:
    """Whether a card lies in the zone, and which (None: its index could not be read)."""

    occupied: bool
    card: str | None

    def to_json(self) -> dict[str, Any]:
        return {"occupied": self.occupied, "card": self.card}


@dataclass(frozen=True)
class Cubes:
    """The colour cubes in the zone, a colour once per cube, in the camera's colour order."""

    colours: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"cubes": list(self.colours)}


@dataclass(frozen=True)
class Pawns:
    """Each player's pawn on the grid, (x, y); a pawn off the grid or not found is left out, and
    ``unseen`` names the players whose pawns the camera cannot see (glare or a lit screen may hide
    them, or the pawn is seen in two places)."""

    squares: Mapping[str, tuple[int, int]]
    unseen: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"pawns": {player: [x, y] for player, (x, y) in self.squares.items()}}
        if self.unseen:
            out[UNSEEN_PAWNS] = list(self.unseen)
        return out


@dataclass(frozen=True)
class Unseen:
    """The camera cannot see the zone now (a hand over it, glare, dark), and says why."""

    why: str

    def to_json(self) -> dict[str, Any]:
        return {UNSEEN: self.why}


ZoneView: TypeAlias = Occupancy | CardFace | Cubes | Pawns | Unseen


@dataclass(frozen=True)
class VisionSeen:
    """A VISION observation: the camera's view of one zone."""

    zone: ZoneRef
    view: ZoneView
    t: float
    """Table time the view began, in seconds."""

    def payload(self) -> dict[str, Any]:
        return {**self.zone.to_json(), "state": self.view.to_json()}

    def observation(self, source: str) -> Observation:
        return Observation(source, self.t, ObservationKind.VISION, self.payload())


Seen: TypeAlias = TagSeen | VisionSeen


@dataclass(frozen=True)
class PressSeen:
    """A PRESS observation: a button at the table (its zone) was pressed."""

    zone: ZoneRef
    t: float
    """Table time of the press, in seconds."""

    def payload(self) -> dict[str, Any]:
        return self.zone.to_json()

    def observation(self, source: str) -> Observation:
        return Observation(source, self.t, ObservationKind.PRESS, self.payload())


# -- reading --------------------------------------------------------------------------------------


class _Unreadable(Exception):
    """What is wrong with a payload; :func:`read_seen` says which observation it is."""


def read_seen(observation: Observation) -> Seen:
    """The typed value of a TAG or VISION observation; :class:`ObservationError` names what is wrong."""
    kind, payload = observation.kind, observation.payload
    try:
        if kind is ObservationKind.TAG:
            return TagSeen(_zone(payload), _event(payload), _uid(payload), _card(payload), observation.table_time)
        if kind is ObservationKind.VISION:
            zone = _zone(payload)
            if "state" not in payload:
                raise _Unreadable(f"the payload has no state (the camera's view of {zone.name})")
            return VisionSeen(zone, _view(payload["state"], "state"), observation.table_time)
        raise _Unreadable("only tag and vision observations are seen at the table")
    except _Unreadable as exc:
        raise ObservationError(f"a {kind.value} observation from {observation.source}: {exc}") from None


def read_press(observation: Observation) -> PressSeen:
    """The typed value of a PRESS observation; :class:`ObservationError` names what is wrong."""
    try:
        if observation.kind is not ObservationKind.PRESS:
            raise _Unreadable("it is not a button press")
        return PressSeen(_zone(observation.payload), observation.table_time)
    except _Unreadable as exc:
        raise ObservationError(f"a {observation.kind.value} observation from {observation.source}: {exc}") from None


_EVENTS = {e.value: e for e in TagEvent}


def _zone(payload: Mapping[str, Any]) -> ZoneRef:
    name, kind = payload.get("zone"), payload.get("zone_kind")
    player, index = payload.get("player"), payload.get("index")
    if not isinstance(name, str) or not name:
        raise _Unreadable(f"zone must name the zone, not {name!r}")
    if not isinstance(kind, str) or not kind:
        raise _Unreadable(f"zone_kind must name the kind of zone {name}, not {kind!r}")
    if player is not None and not isinstance(player, str):
        raise _Unreadable(f"player must be a player's name or null, not {player!r}")
    if index is not None and (not isinstance(index, int) or isinstance(index, bool)):
        raise _Unreadable(f"index must be a whole number or null, not {index!r}")
    return ZoneRef(name, kind, player, index)


def _event(payload: Mapping[str, Any]) -> TagEvent:
    event = payload.get("event")
    found = _EVENTS.get(event) if isinstance(event, str) else None
    if found is None:
        raise _Unreadable(f'event must be "arrive" or "depart", not {event!r}')
    return found


def _uid(payload: Mapping[str, Any]) -> str:
    uid = payload.get("uid")
    if not isinstance(uid, str) or not uid:
        raise _Unreadable(f"uid must be the tag's UID in hex, not {uid!r}")
    return uid


def _card(payload: Mapping[str, Any]) -> str | None:
    card = payload.get("card")
    if card is not None and not isinstance(card, str):
        raise _Unreadable(f"card must be a card id or null (a tag no one enrolled), not {card!r}")
    return card


_VIEW_KEYS = "occupied (and card), cubes, pawns (and unseen_pawns), or unseen"


def _view(state: Any, where: str) -> ZoneView:
    if not isinstance(state, Mapping):
        raise _Unreadable(f"{where} must be an object ({_VIEW_KEYS}), not {state!r}")
    keys = set(state)
    if keys == {UNSEEN}:
        why = state[UNSEEN]
        if not isinstance(why, str):
            raise _Unreadable(f"{where}.{UNSEEN} must say why, not {why!r}")
        return Unseen(why)
    if keys == {"cubes"}:
        cubes = state["cubes"]
        if not isinstance(cubes, list) or not all(isinstance(c, str) for c in cubes):
            raise _Unreadable(f"{where}.cubes must be a list of colour names, not {cubes!r}")
        return Cubes(tuple(cubes))
    if "pawns" in keys and keys <= {"pawns", UNSEEN_PAWNS}:
        return _pawns(state, where)
    if keys in ({"occupied"}, {"occupied", "card"}):
        occupied, card = state["occupied"], state.get("card")
        if not isinstance(occupied, bool):
            raise _Unreadable(f"{where}.occupied must be true or false, not {occupied!r}")
        if "card" not in keys:
            return Occupancy(occupied)
        if card is not None and not isinstance(card, str):
            raise _Unreadable(f"{where}.card must be a card or null (not read), not {card!r}")
        return CardFace(occupied, card)
    shown = ", ".join(sorted(map(str, keys))) or "nothing"
    raise _Unreadable(f"{where} holds {shown}; a view of a zone is {_VIEW_KEYS}")


def _pawns(state: Mapping[str, Any], where: str) -> Pawns:
    pawns = state["pawns"]
    if not isinstance(pawns, Mapping):
        raise _Unreadable(f"{where}.pawns must map each player to a square [x, y], not {pawns!r}")
    squares: dict[str, tuple[int, int]] = {}
    for player, square in pawns.items():
        whole = isinstance(square, (list, tuple)) and len(square) == 2
        if not whole or not all(isinstance(v, int) and not isinstance(v, bool) for v in square):
            raise _Unreadable(f"{where}.pawns.{player}: an unreadable square {square!r} (a square is [x, y], two whole numbers)")
        squares[str(player)] = (square[0], square[1])
    unseen = state.get(UNSEEN_PAWNS, [])
    if not isinstance(unseen, list) or not all(isinstance(p, str) for p in unseen):
        raise _Unreadable(f"{where}.{UNSEEN_PAWNS} must be a list of players, not {unseen!r}")
    return Pawns(squares, tuple(unseen))
