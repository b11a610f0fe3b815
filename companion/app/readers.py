"""The table's readers feeding its table model: what ``companion serve``, the demo and the benchmarks wire.

    readers = TableReaders.from_config(config, session.submit, on_health=session.report_health,
                                       on_alert=...)
    readers.start()
    ...
    readers.stop()

The composition lives here, not in ``hardware/``: the table model (zones, the tag registry,
debouncing) takes the readers' events and listings and makes TAG observations; the readers, one
per zone that names one, are opened by hardware's factory from the zone's reader address and know
nothing of zones or cards; their health goes to one board the table model also counts on.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping

from companion.app.config import TableConfig
from companion.core import Zone
from companion.core.errors import ConfigError
from companion.table.model import DEFAULT_DEBOUNCE_S, AlertSink, CardLookup, ObservationSink, TableModel
from companion.table.registry import TagRegistry
from hardware.health import HealthBoard, HealthCallback
from hardware.reader import ArrayPort, Reader, ReaderContext
from hardware.readers import open_reader
from hardware.service import ReaderSet
from hardware.worker import Around


def _open(zone: str, reader: str, context: ReaderContext) -> Reader:
    try:
        return open_reader(reader, context)
    except ConfigError as exc:
        raise ConfigError(f'zone "{zone}": {exc}') from exc


class TableReaders:
    """Zones and their readers, the tag registry and the table model, started and stopped as one."""

    def __init__(
        self,
        zones: Iterable[Zone],
        registry: CardLookup,
        sink: ObservationSink,
        *,
        on_health: HealthCallback | None = None,
        on_alert: AlertSink | None = None,
        arrays: Mapping[str, ArrayPort] | None = None,
        debounce_s: float = DEFAULT_DEBOUNCE_S,
        clock: Callable[[], float] = time.time,
    ) -> None:
        zones = tuple(zones)
        self.health = HealthBoard(on_health)
        self.table = TableModel(zones, registry, sink, on_alert=on_alert, health=self.health, debounce_s=debounce_s)
        context = ReaderContext(
            self.table.reader_event,
            self.health,
            on_state=self.table.resync,
            arrays=dict(arrays or {}),
            clock=clock,
            on_press=self.table.button_pressed,
        )
        self.context = context
        """What the readers were opened with: its ``links`` hold the reader arrays' bridges."""
        self.readers = ReaderSet(_open(zone.name, zone.reader, context) for zone in zones if zone.reader)

    @classmethod
    def from_config(
        cls,
        config: TableConfig,
        sink: ObservationSink,
        *,
        on_health: HealthCallback | None = None,
        on_alert: AlertSink | None = None,
        debounce_s: float = DEFAULT_DEBOUNCE_S,
    ) -> "TableReaders":
        """The zones, tag registry and reader arrays of the table config."""
        registry = TagRegistry(config.tag_registry, config.header.game)
        return cls(
            config.zones, registry, sink, on_health=on_health, on_alert=on_alert, arrays=config.reader_arrays, debounce_s=debounce_s
        )

    def start(self, around: Around | None = None) -> None:
        """Start every reader; ``around`` wraps each reader thread's body (a profiler)."""
        self.readers.start(around)

    def stop(self, timeout: float = 5.0) -> None:
        """Stop every reader (in parallel), then release the table's held departures."""
        self.readers.stop(timeout)
        self.table.stop(timeout)

    def __enter__(self) -> "TableReaders":
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
