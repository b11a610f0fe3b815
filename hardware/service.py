"""Every reader of the table, started and stopped as one: what ``companion serve`` and the demo wire.

    hardware = TableHardware.from_config(config, session.submit, on_health=session.report_health,
                                         on_alert=...)
    hardware.start()
    ...
    hardware.stop()

Zones come from the lead's config loader as :class:`~companion.core.Zone` objects; a zone's
``reader`` is ``array:N`` (channel N of the reader array on ``array_port``) or an nfcpy path.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable
from typing import Any

from companion.core import Zone
from companion.core.errors import ConfigError
from companion.table.model import DEFAULT_DEBOUNCE_S, AlertSink, ObservationSink, TableModel
from companion.table.registry import TagRegistry
from hardware.bridge import ArrayBridge
from hardware.worker import Around
from hardware.health import HealthBoard, HealthCallback
from hardware.nfc_reader import NfcReaderService

log = logging.getLogger(__name__)


def array_channel(reader: str, zone: str) -> int:
    number = reader[len("array:") :]
    if not number.isdigit() or not 0 <= int(number) < 16:
        raise ConfigError(f'zone "{zone}": reader "{reader}" must be array:N with N a channel from 0 to 15')
    return int(number)


class TableHardware:
    def __init__(
        self,
        zones: Iterable[Zone],
        registry: TagRegistry,
        sink: ObservationSink,
        *,
        on_health: HealthCallback | None = None,
        on_alert: AlertSink | None = None,
        array_port: str | None = None,
        array_baud: int = 115200,
        debounce_s: float = DEFAULT_DEBOUNCE_S,
        clock: Callable[[], float] = time.time,
    ) -> None:
        zones = tuple(zones)
        self.health = HealthBoard(on_health)
        self.table = TableModel(zones, registry, sink, on_alert=on_alert, health=self.health, debounce_s=debounce_s)
        channels = [array_channel(z.reader, z.name) for z in zones if z.reader and z.reader.startswith("array:")]
        nfc_paths = [z.reader for z in zones if z.reader and not z.reader.startswith("array:")]
        if channels and not array_port:
            raise ConfigError("zones use reader-array channels (array:N) but the config has no [array] port")
        self.nfc = NfcReaderService(nfc_paths, self.table.reader_event, self.health, clock=clock)
        self.array = (
            ArrayBridge(
                array_port,
                self.table.reader_event,
                self.health,
                baudrate=array_baud,
                channels=channels,
                clock=clock,
                on_state=self.table.resync,
            )
            if channels and array_port
            else None
        )

    @classmethod
    def from_config(cls, config: Any, sink: ObservationSink, **options: Any) -> "TableHardware":
        """From the lead's ``TableConfig`` (zones, tag_registry, header.game, array)."""
        registry = TagRegistry(config.tag_registry, config.header.game)
        if config.array is not None:
            options.setdefault("array_port", config.array.port)
            options.setdefault("array_baud", config.array.baud)
        return cls(config.zones, registry, sink, **options)

    def start(self, around_array: Around | None = None) -> None:
        """Start every reader; ``around_array`` wraps the array bridge's thread body (a profiler)."""
        self.nfc.start()
        if self.array is not None:
            self.array.start(around_array)
        log.info("readers started: %d direct, %s", len(self.nfc.readers), "an array" if self.array else "no array")

    def stop(self, timeout: float = 5.0) -> None:
        """Stop every reader (in parallel), then release the table's held departures."""
        self.nfc.stop(timeout)
        if self.array is not None:
            self.array.stop(timeout)
        self.table.stop(timeout)

    def __enter__(self) -> "TableHardware":
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
