"""How each move of a game reached the engine at a table with sensors, and the figures of a whole run.

A move is made **by sensors** when the rows its actions produced (readers, buttons, the camera's
settled views) are
exactly the moves the table makes for it (``SensorPlan.table_moves``: the move itself, or its steps),
each with the verdict the rules give it there; **entered** when a person entered it (``Enter``); a
**misread** otherwise: a different move, an extra or a missing one, a different verdict, an alert or
an error. The share is the moves by sensors over all moves. A move the camera saw (a card, cubes or
pawns it moved) is **confirmed** by the camera when each view it changed settled as the table shows
it and the session read it without an alert, whether the move was made by sensors or entered (a
pawn the engine moved after a die entered by hand).
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from companion.core import JsonObject


class How(str, enum.Enum):
    SENSORS = "sensors"
    ENTERED = "entered"
    MISREAD = "misread"


@dataclass
class MoveResult:
    """One move of the game, as the table made it."""

    index: int
    verb: str
    move: JsonObject
    """The move as the game has it (notation)."""
    how: How
    legal: bool
    """The verdict ``companion replay`` gives it in the game."""
    why: str = ""
    """A misread: what the table read instead. Entered: why no sensor sees it."""
    retimed: bool = False
    """The rules judged it otherwise at the table than in the game's own timing (a play beaten to a
    pile by a play that came sooner at the table, say), same legality: not a misread."""
    seen: tuple[str, ...] = ()
    """The zones whose view the camera confirmed after the move (none: the camera saw no change)."""


@dataclass
class Report:
    """A whole game played through the sensors."""

    game: str
    title: str
    results: list[MoveResult] = field(default_factory=list)
    readers: int = 0
    arrays: int = 0
    buttons: int = 0
    watched: int = 0
    """Zones the camera watches."""
    alerts: list[str] = field(default_factory=list)
    """Alerts the table raised that no move of the game asked for (the referee's for an
    unfinished move among them)."""
    setup_misread: list[str] = field(default_factory=list)
    """What the readers read as a move, an alert or an error from the table as set up."""
    seconds: float = 0.0

    @property
    def moves(self) -> int:
        return len(self.results)

    def count(self, how: How) -> int:
        return sum(1 for r in self.results if r.how is how)

    @property
    def by_sensors(self) -> int:
        return self.count(How.SENSORS)

    @property
    def entered(self) -> int:
        return self.count(How.ENTERED)

    @property
    def misread(self) -> int:
        return self.count(How.MISREAD) + len(self.setup_misread)

    @property
    def share(self) -> float:
        return self.by_sensors / self.moves if self.moves else 0.0

    @property
    def confirmed(self) -> int:
        """Moves the camera confirmed (:attr:`MoveResult.seen`)."""
        return sum(1 for r in self.results if r.seen and r.how is not How.MISREAD)

    def misread_on_legal_play(self) -> list[MoveResult]:
        return [r for r in self.results if r.how is How.MISREAD and r.legal]

    def lines(self, detail: int = 10) -> list[str]:
        """The summary; its last line is the share."""
        where = [f"{self.readers} readers on {self.arrays} array(s)"] if self.readers or not self.watched else []
        if self.buttons:
            where.append(f"{self.buttons} call buttons")
        if self.watched:
            where.append(f"the camera over {self.watched} zone(s)")
        out = [
            f"{self.title}: {self.moves} moves ({sum(1 for r in self.results if not r.legal)} illegal) through "
            f"{', '.join(where)} in {self.seconds:.0f} s",
            f"by sensors {self.by_sensors}, entered {self.entered}, misread {self.misread}",
        ]
        if self.watched:
            out.append(f"the camera confirmed {self.confirmed} moves ({sum(len(r.seen) for r in self.results)} views settled as the table shows them)")
        entered = Counter((r.verb, r.why) for r in self.results if r.how is How.ENTERED)
        for (verb, why), n in sorted(entered.items(), key=lambda item: (-item[1], item[0])):
            out.append(f"  entered {n:4d} x {verb}: {why}")
        retimed = sum(1 for r in self.results if r.retimed)
        if retimed:
            out.append(f"  {retimed} verdict(s) named other rules at the table than in the game's own timing (same legality)")
        for line in self.setup_misread[:detail]:
            out.append(f"  misread at setup: {line}")
        for r in [r for r in self.results if r.how is How.MISREAD][:detail]:
            out.append(f"  misread move {r.index + 1} ({r.verb}, {'legal' if r.legal else 'illegal'}): {r.why}")
        for alert in self.alerts[:detail]:
            out.append(f"  alert: {alert}")
        out.append(share_line(self))
        return out


def share_line(report: Report) -> str:
    """``sensor share: NN.N% of M moves (K entered by tapping, X misread)``."""
    return (
        f"sensor share: {100 * report.share:.1f}% of {report.moves} moves "
        f"({report.entered} entered by tapping, {report.misread} misread)"
    )


def merged(reports: Sequence[Report]) -> Report:
    """Several games' reports as one (the share over all their moves)."""
    if not reports:
        raise ValueError("no reports to merge")
    out = Report(reports[0].game, reports[0].title)
    for report in reports:
        offset = len(out.results)
        for r in report.results:
            out.results.append(MoveResult(offset + r.index, r.verb, r.move, r.how, r.legal, r.why, r.retimed, r.seen))
        out.alerts += report.alerts
        out.setup_misread += report.setup_misread
        out.seconds += report.seconds
        out.readers, out.arrays = max(out.readers, report.readers), max(out.arrays, report.arrays)
        out.buttons = max(out.buttons, report.buttons)
        out.watched = max(out.watched, report.watched)
    return out
