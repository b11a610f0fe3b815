"""The referee's signals at the table: which light each zone's LED shows (issue 25).

- a green blink at the zone of a legal move;
- red at the zone of an illegal one, held until it is fixed or taken back (the next row read at
  that zone that is not itself illegal: the card picked up, a legal card played there; or a
  person's undo or correction);
- amber at a zone with an unexplained-state alert, until the alert clears;
- a slow pulse at a player's hand pad while the game waits for that player (a prompt).

Red outranks amber, amber the pulse; a blink shows only at a zone with nothing lasting to show (it
would put out a lasting light: the LED goes dark after it). Nothing private is ever lit: a light
says where, never which card. Pure: rows and the public board in, the lights that changed out;
:mod:`companion.app.lights` sends them to the reader array.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from companion.core import ObservationKind, Zone
from companion.core.lights import DARK, Light, Pattern
from companion.core.zones import HAND_PAD

GREEN = (0, 255, 0)
RED = (255, 0, 0)
AMBER = (255, 110, 0)
WAITING = (0, 90, 255)
"""The pulse's colour: blue, told apart from every verdict's colour at a glance."""

LEGAL = Light(GREEN, Pattern.BLINK)
ILLEGAL = Light(RED, Pattern.STEADY)
ALERT = Light(AMBER, Pattern.STEADY)
YOUR_TURN = Light(WAITING, Pattern.PULSE)

_TAKE_BACKS = (ObservationKind.UNDO.value, ObservationKind.CORRECTION.value)


class JudgedRow(Protocol):
    """What the signals read of a log row (:class:`companion.log.store.LogRow` is one)."""

    @property
    def kind(self) -> str: ...

    @property
    def payload(self) -> Mapping[str, Any]: ...

    @property
    def verdict(self) -> Mapping[str, Any] | None: ...

    @property
    def error(self) -> str | None: ...


@dataclass(frozen=True)
class ZoneLight:
    zone: str
    light: Light


class ZoneSignals:
    """The lights of ``zones`` (those with an LED), kept up to date by :meth:`update`."""

    def __init__(self, zones: Iterable[Zone]) -> None:
        self.zones: dict[str, Zone] = {zone.name: zone for zone in zones}
        self._red: set[str] = set()
        self._shown: dict[str, Light] = {}  # zone -> the lasting light it shows (none: dark)

    def update(self, rows: Sequence[JudgedRow], board: Mapping[str, Any]) -> list[ZoneLight]:
        """The lights that change after ``rows`` were written and the board became ``board``."""
        blinks: set[str] = set()
        for row in rows:
            if row.error is not None:
                continue  # refused: it changed nothing at the table
            if row.kind in _TAKE_BACKS:
                self._red.clear()
            zone = row.payload.get("zone")
            if not isinstance(zone, str) or zone not in self.zones:
                continue
            if row.verdict is not None and row.verdict.get("ok") is False:
                self._red.add(zone)
                blinks.discard(zone)
                continue
            self._red.discard(zone)
            if row.verdict is not None and row.verdict.get("ok") is True:
                blinks.add(zone)
        wanted = self._lasting(board)
        changed: list[ZoneLight] = []
        for name in self.zones:
            want = wanted.get(name, DARK)
            if want == DARK and name in blinks:
                changed.append(ZoneLight(name, LEGAL))
                self._shown.pop(name, None)
            elif self._shown.get(name, DARK) != want:
                changed.append(ZoneLight(name, want))
                if want == DARK:
                    self._shown.pop(name, None)
                else:
                    self._shown[name] = want
        return changed

    def _lasting(self, board: Mapping[str, Any]) -> dict[str, Light]:
        """Each zone's lasting light now: red, else amber, else the pulse."""
        wanted: dict[str, Light] = {}
        waiting = {prompt.get("who") for prompt in board.get("prompts") or () if isinstance(prompt, Mapping)}
        for zone in self.zones.values():
            if zone.kind == HAND_PAD and zone.player is not None and zone.player in waiting:
                wanted[zone.name] = YOUR_TURN
        for alert in board.get("alerts") or ():
            if isinstance(alert, Mapping) and alert.get("zone") in self.zones:
                wanted[str(alert["zone"])] = ALERT
        for zone_name in self._red:
            wanted[zone_name] = ILLEGAL
        return wanted

    def showing(self, zone: str) -> Light:
        """The lasting light ``zone`` shows now (dark if none)."""
        return self._shown.get(zone, DARK)
