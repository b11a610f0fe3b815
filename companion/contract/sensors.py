"""What a real table does when a move is made: the game's sensor plan (issue 21).

DESIGN.md's sensor table says, per game, what the readers see, what the camera sees and what a
person enters. A game states it as a :class:`SensorPlan` (``GameSpec.sensors``): the table it is
played on (:meth:`SensorPlan.layout`: zones with their readers and camera outlines) and, for each
move, the physical actions that make it happen at that table (:meth:`SensorPlan.actions`): a card
put on a reader or taken off it, a card tapped on a pad on its way into a hand, a cube or a pawn
moved under the camera, a button pressed, or — where no sensor can see it (a spoken call, a secret
plan, a die) — a person entering it, with why.

The plan is the inverse of the game's ``interpret_table``: the demo (``companion demo --game G``)
and the end-to-end sensor test play whole games by running each move's actions through the
simulated reader array (the real firmware, the real bridge, the table model) and rendered camera
frames (the real vision pipeline), and check that the session logs exactly the moves that were made.
The share of moves that reached the engine with nobody tapping is the figure docs/sensors.md reports.

Everything here is plain nouns: no reader, renderer or clock. ``t`` is never set by a plan: the
runner stamps observations with the table's time.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from companion.core import JsonObject, Move, Zone


@dataclass(frozen=True)
class Put:
    """A card comes to lie on a zone (on top of a pile): its tag arrives at the zone's reader, and the
    camera, where it watches the zone, sees it (``face_up``: its face; else its back)."""

    zone: str
    card: str
    face_up: bool = True


@dataclass(frozen=True)
class Take:
    """A card is taken off a zone: its tag departs, and the camera sees the zone without it."""

    zone: str
    card: str


@dataclass(frozen=True)
class Tap:
    """A card tapped on a pad on its way into a hand (put down and taken up again at once)."""

    zone: str
    card: str


@dataclass(frozen=True)
class Cubes:
    """The cubes lying in a zone, as they are once the move is made (the camera counts colours)."""

    zone: str
    colours: tuple[str, ...]


@dataclass(frozen=True)
class Pawns:
    """The pawns on a grid zone once the move is made: player -> (column, row) square."""

    zone: str
    squares: Mapping[str, tuple[int, int]]


@dataclass(frozen=True)
class Press:
    """A button at the table is pressed (a call button on a player's pad, wired to the reader array)."""

    zone: str


@dataclass(frozen=True)
class Enter:
    """A person enters the move by tapping (a player's page or the referee's console): no sensor sees it.

    ``why`` says what the table does that no sensor sees ("a spoken call", "a secret plan", "a die
    roll"); docs/sensors.md lists them."""

    move: JsonObject
    why: str


Action = Put | Take | Tap | Cubes | Pawns | Press | Enter


@dataclass(frozen=True)
class Pending:
    """A move the table has begun and not finished (the first of two cards put down): where, since
    when (table time), and what finishes it. A pending move left too long becomes one alert."""

    zone: str
    since: float
    what: str
    fix: str


class SensorPlan(Protocol):
    """How a game is played at a table with readers and a camera.

    :class:`PlanDefaults` gives every member but :meth:`layout` and :meth:`actions` a default;
    docs/sensors.md ("Adding a game's sensor plan") walks through writing one."""

    floor: float
    """The least share of moves (0..1) that must reach the engine with nobody tapping, over the
    acceptance games and the generated ones: the end-to-end test (tests/contract/test_sensors.py)
    holds the plan to it."""
    stacks: frozenset[str]
    """The zone kinds (names) where cards stack up on the reader (central piles, action piles): the
    array polls those readers as piles (firmware/PROTOCOL.md); every other reader is a pad, where a
    card comes and goes."""
    always_read: frozenset[str]
    """The verbs whose every legal move the sensors make (issue 21's "every flip, penalty, reveal and
    dealt card comes from the pads"): the end-to-end test fails on one entered."""

    def layout(self, players: Sequence[str]) -> tuple[Zone, ...]:
        """The reference table for these players: every zone a reader or the camera watches, with its
        reader address (``array:N`` / ``array:NAME:N``, at most 16 channels an array; a call button
        ``button:N`` / ``button:NAME:N``) and its outline in table millimetres (from marker 0, the
        south-west corner; none for a zone the camera does not watch)."""
        ...

    def setup(self, state: Any) -> Sequence[Action]:
        """What lies on the table before the first move (``Put``, ``Cubes``, ``Pawns`` only): the
        readers and the camera start with it there, as a service does when it opens on a table laid."""
        ...

    def table_moves(self, state: Any, move: Move) -> Sequence[Move]:
        """The moves the table's rows are, for ``move`` in ``state``: ``(move,)`` for most. Several
        where the table makes one notation move in steps a reader sees one by one (a deal: one
        ``dealt`` per card tapped; a combination whose first card fits alone: that play, then the
        pair). Each is judged as ``move`` would be: legal together exactly when ``move`` is."""
        ...

    def gap_from(self, state: Any, move: Move) -> float | None:
        """The time (notation seconds) of an earlier move that the table reads ``move`` otherwise
        if it came at once after (two cards one hand puts down together read as one combination,
        say), or None. The runner keeps the game's own gap from it, as it does where the rules
        read the time between two moves."""
        ...

    def made_already(self, state: Any, move: Move, legal: bool) -> bool:
        """True when the table made ``move`` with an earlier move's rows, so nothing is done or read
        for it now (``legal``: the game's verdict on it). Escape House: the last played card turned
        up once everyone has played is the resolve, so a game's ``reveal`` of it (whose row is the
        resolve, :meth:`table_moves`) and the ``resolve`` after it are one event at the table."""
        ...

    def actions(self, state: Any, move: Move, after: Any, legal: bool) -> Sequence[Action]:
        """What the table does to make ``move`` in ``state`` (``after`` is the state it leads to;
        ``legal`` False: the move is refused, and the actions end by undoing it at the table, as the
        verdict's fix says). An empty sequence: the move changes nothing on the table."""
        ...


class PlanDefaults:
    """Defaults for a :class:`SensorPlan`: no floor, no stacking readers, an empty table at the start,
    every move a row of its own, read alike however soon it follows the last. A plan subclasses it and writes ``layout`` and ``actions``."""

    floor: float = 0.0
    stacks: frozenset[str] = frozenset()
    always_read: frozenset[str] = frozenset()

    def setup(self, state: Any) -> Sequence[Action]:
        return ()

    def table_moves(self, state: Any, move: Move) -> Sequence[Move]:
        return (move,)

    def gap_from(self, state: Any, move: Move) -> float | None:
        return None

    def made_already(self, state: Any, move: Move, legal: bool) -> bool:
        return False
