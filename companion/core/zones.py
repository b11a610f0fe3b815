"""Table zones, and the kinds of zone a game declares.

A zone kind is a declaration, not a member of a closed list: the game that uses a kind declares it
in its own package, and a kind several games use (a hand pad, a discard pile) is declared once
here. A kind says what the layers under the games need to know of it: what the camera watches in
it (which picks the detector) and which zone names it allows. Kinds are equal by name, and the
name is what ``zone_kind`` says in a TAG or VISION payload and in the log.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Watch", "ZoneKind", "Zone", "ZoneRef", "PILE", "HAND_PAD", "DISCARD", "DRAW_PILE"]

_KIND_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


class Watch(str, enum.Enum):
    """What the camera looks for in a zone of a kind; the detector is picked by this alone."""

    CARD = "card"
    """Whether a card lies there: ``{"occupied": bool}``."""
    CARD_FACE = "card_face"
    """Whether a card lies there and which, from its corner index: ``{"occupied": bool, "card":
    "QS" | None}``. The outline is the card's own, corners top-left, top-right, bottom-right,
    bottom-left as the player reads it; only the card's top part is looked at (the next row of
    an overlapping layout may cover the rest)."""
    CUBES = "cubes"
    """Which colour cubes lie there: ``{"cubes": [colour, ...]}``; a cube belongs where its centre is."""
    PAWNS = "pawns"
    """Where each player's pawn stands on a grid of squares: ``{"pawns": {player: [x, y]}}``. The
    outline is the grid's 4 corners south-west, south-east, north-east, north-west."""

    @property
    def pieces(self) -> bool:
        """Small pieces (cubes, pawns), which a glint as big as a piece may hide; a card shows round it."""
        return self in (Watch.CUBES, Watch.PAWNS)


@dataclass(frozen=True)
class ZoneKind:
    """A kind of table zone, as the game that uses it declares it. Equal (and hashed) by name."""

    name: str
    """What the table config's ``kind`` and a payload's ``zone_kind`` say (``"hand_pad"``)."""
    camera: Watch = field(default=Watch.CARD, compare=False, kw_only=True)
    """What the camera watches in a zone of this kind, when the zone has an outline."""
    names: frozenset[str] = field(default=frozenset(), compare=False, kw_only=True)
    """The zone names this kind allows (empty: any name), as where each zone lies is in its name
    (a pyramid position)."""
    names_rule: str = field(default="", compare=False, kw_only=True)
    """How those names are spelled, for the message that refuses another name."""

    def __post_init__(self) -> None:
        if not _KIND_NAME.match(self.name):
            raise ValueError(f"a zone kind is named in lower-case words joined by _, not {self.name!r}")
        if bool(self.names) != bool(self.names_rule):
            raise ValueError(f"zone kind {self.name}: names and names_rule come together")

    def __str__(self) -> str:
        return self.name

    def name_problem(self, zone_name: str) -> str | None:
        """Why ``zone_name`` cannot be the name of a zone of this kind, or None."""
        if self.names and zone_name not in self.names:
            return f"a {self.name} zone is {self.names_rule}"
        return None


PILE = ZoneKind("pile")  # a pile of cards growing on the table (a central pile; "pile-new" is where new ones start)
HAND_PAD = ZoneKind("hand_pad")  # a player's pad: cards dealt or drawn into that hand are tapped here
DISCARD = ZoneKind("discard")  # the discard pile
DRAW_PILE = ZoneKind("draw_pile")  # the face-down pile cards are drawn from


@dataclass(frozen=True)
class ZoneRef:
    """A zone as an observation names it: the fields every TAG and VISION payload carries."""

    name: str
    kind: str
    """The zone kind's name (compare with ``KIND.name``, or ask :meth:`is_a`)."""
    player: str | None = None
    index: int | None = None

    def is_a(self, kind: ZoneKind) -> bool:
        return self.kind == kind.name

    def to_json(self) -> dict[str, Any]:
        return {"zone": self.name, "zone_kind": self.kind, "player": self.player, "index": self.index}


@dataclass(frozen=True)
class Zone:
    """A place on the table that a reader or a camera region watches, from the table config.

    Names are the table's: ``pile-1``, ``hand-anna``, ``action-anna``, ``slot-3``, ``discard``,
    ``tap``, ``cube-pile``, ``3-2`` (a pyramid position), ``grid``.
    """

    name: str
    kind: ZoneKind
    player: str | None = None
    """The player the zone belongs to (hand, action and history pads)."""
    index: int | None = None
    """The number of a pile or Table Card slot."""
    reader: str | None = None
    """The reader that watches it (an nfcpy path or ``array:N``), if any."""
    polygon: tuple[tuple[float, float], ...] = ()
    """Its outline in table millimetres, for the camera; empty if no camera watches it."""
    depth: int | None = None
    """How many cards stacked on its reader the reader is measured to read (``companion/table/depth.py``);
    None: not measured (an array reader then gets the default guess)."""

    def ref(self) -> ZoneRef:
        return ZoneRef(self.name, self.kind.name, self.player, self.index)

    def payload(self) -> dict[str, Any]:
        """The zone fields every TAG and VISION observation payload carries."""
        return self.ref().to_json()
