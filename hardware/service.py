"""Every reader of a table, started and stopped as one.

    context = ReaderContext(on_event, HealthBoard(on_health), on_state=..., arrays={"": config.array})
    readers = ReaderSet(open_reader(address, context) for address in addresses)
    readers.start()
    ...
    readers.stop()

What the readers report goes where the context says; the hardware knows nothing of zones, cards or
the game. ``companion/app/readers.py`` wires them to the table model.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from hardware.reader import Reader
from hardware.worker import Around

log = logging.getLogger(__name__)


class ReaderSet:
    """Readers of any kind, started together and stopped in parallel."""

    def __init__(self, readers: Iterable[Reader]) -> None:
        self.readers: tuple[Reader, ...] = tuple(readers)

    def start(self, around: Around | None = None) -> None:
        """Start every reader; ``around`` wraps each reader thread's body (a profiler)."""
        for reader in self.readers:
            reader.start(around)
        log.info("readers started: %s", ", ".join(r.reader_id for r in self.readers) or "none")

    def stop(self, timeout: float = 5.0) -> None:
        for reader in self.readers:
            reader.request_stop()  # all at once, so they stop in parallel
        for reader in self.readers:
            reader.stop(timeout)

    def health(self) -> dict[str, dict[str, Any]]:
        """Each reader's status dict, by reader id."""
        return {reader.reader_id: reader.health() for reader in self.readers}

    def __enter__(self) -> "ReaderSet":
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
