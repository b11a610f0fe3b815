"""The zones' lights, from the session to the LEDs of the reader arrays their readers are on.

    lights = TableLights.for_readers(config.zones, readers)   # readers: companion.app.readers.TableReaders
    lights.attach(session)        # again for each new game's session
    ...
    lights.detach()

The session calls :meth:`TableLights.changed` with each batch of rows it wrote and the board after
them (its listener, in its worker thread); the signals (:mod:`companion.table.lights`) say which
zones' lights change, and each goes to its array's bridge, which queues it and returns at once: the
referee never waits on a serial port. A failure here is logged with its trace and put on the health
board (``lights``) once, never raised into the session.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from companion.core import JsonObject, Zone
from companion.core.readers import ARRAY_SCHEME, ArrayChannel, ReaderAddress
from companion.referee.session import Session
from companion.table.lights import JudgedRow, ZoneLight, ZoneSignals
from hardware.bridge import ArrayBridge
from hardware.health import HealthBoard, Status

log = logging.getLogger(__name__)

LIGHTS_ID = "lights"
"""The lights' key on the health board (a failure of the signals; each array's writer has its own)."""


def array_channel(zone: Zone) -> ArrayChannel | None:
    """The array channel whose LED lights ``zone`` (its reader's channel), or None if it has none."""
    if zone.reader is None or ReaderAddress.parse(zone.reader).scheme != ARRAY_SCHEME:
        return None
    return ArrayChannel.parse(zone.reader)


class TableLights:
    def __init__(self, leds: Mapping[str, tuple[ArrayBridge, int]], zones: Iterable[Zone], health: HealthBoard) -> None:
        self._leds = dict(leds)
        self._zones = tuple(z for z in zones if z.name in self._leds)
        self._health = health
        self.signals = ZoneSignals(self._zones)
        self.sent = 0
        self.failures = 0
        self._unsubscribe: Callable[[], None] | None = None

    @classmethod
    def for_readers(cls, zones: Iterable[Zone], readers: Any) -> "TableLights":
        """Every zone read by a reader array channel, lit by that channel's LED. ``readers`` is the
        table's :class:`~companion.app.readers.TableReaders` (its context holds the bridges)."""
        leds: dict[str, tuple[ArrayBridge, int]] = {}
        zones = tuple(zones)
        for zone in zones:
            channel = array_channel(zone)
            if channel is None:
                continue
            shared = readers.context.links.get(channel.link_id)
            if shared is not None:
                leds[zone.name] = (shared.link, channel.channel)
        return cls(leds, zones, readers.health)

    @property
    def zones(self) -> tuple[str, ...]:
        return tuple(self._leds)

    def attach(self, session: Session) -> None:
        """Follow ``session`` (a new game: its lights start from its board, the last game's go dark)."""
        self.detach()
        self.signals = ZoneSignals(self._zones)
        for name in self._leds:
            self._show(ZoneLight(name, self.signals.showing(name)))  # dark: nothing of the last game stays lit
        self._unsubscribe = session.subscribe(self.changed)
        self.changed([], session.board())

    def detach(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    def changed(self, rows: Sequence[JudgedRow], board: JsonObject) -> None:
        """The session's listener: rows written and the board after them -> lights queued."""
        try:
            for light in self.signals.update(rows, board):
                self._show(light)
        except Exception as exc:  # the referee must not stop for a light; the failure is seen on the board
            self.failures += 1
            log.exception("the zones' lights failed on %d row(s)", len(rows))
            if self.failures == 1:
                self._health.set_status(LIGHTS_ID, Status.DOWN, f"the lights failed: {type(exc).__name__}: {exc}")
            else:
                self._health.count(LIGHTS_ID, "errors")

    def _show(self, light: ZoneLight) -> None:
        bridge, channel = self._leds[light.zone]
        bridge.show(channel, light.light)
        self.sent += 1
