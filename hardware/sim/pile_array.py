"""An array with ISO 15693 piles on the far end of a pty: :class:`PileArray`, the real firmware
polling simulated PN5180s (:class:`~hardware.sim.pile_rig.PileRig`) in a thread, its lines going down
the same cable as :class:`~hardware.sim.firmware_array.FirmwareArray`'s, for the bridge to read.

The rig's clock moves with the firmware's work; here it is also held to real time: never behind it
(an idle moment passes on both), and the thread waits whenever the simulated clock runs ahead, so
the frames' milliseconds and their arrival at the bridge agree as they would from a Pico.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from hardware.sim.array import SimulatedArray
from hardware.sim.pile_rig import PileRig


class PileArray(SimulatedArray):
    def __init__(self, kinds: Sequence[str], *, link: str | Path | None = None, **options: Any) -> None:
        super().__init__(len(kinds), link=link, heartbeat_s=None)
        self.rig = PileRig(kinds, **options)
        self.rig.on_line = self._firmware_line
        self._field_lock = threading.RLock()
        self._running = threading.Event()
        self._poller: threading.Thread | None = None

    def plug(self, boot: bool = True) -> str:
        port = super().plug(boot=False)
        if boot and self._poller is None:
            self._running.set()
            self._poller = threading.Thread(target=self._poll, name="sim-pile-array", daemon=True)
            self._poller.start()
        return port

    def close(self) -> None:
        self._running.clear()
        poller, self._poller = self._poller, None
        if poller is not None:
            poller.join(5.0)
        super().close()

    def _firmware_line(self, line: str) -> None:
        with self._lock:
            self._write(line.encode("ascii"))

    def _poll(self) -> None:
        clock = self.rig.clock
        origin_real, origin_sim = time.monotonic(), clock.now
        with self._field_lock:
            self.rig.boot()
        while self._running.is_set():
            real = origin_sim + (time.monotonic() - origin_real) * 1e6
            with self._field_lock:
                clock.now = max(clock.now, real)
                self.rig.firmware.step()
            ahead = clock.now - (origin_sim + (time.monotonic() - origin_real) * 1e6)
            time.sleep(max(ahead / 1e6, 0.002))

    def place(self, channel: int, uid: str | bytes) -> None:
        """A card slapped on pile ``channel`` (an ISO 15693 pile)."""
        raw = bytes.fromhex(uid) if isinstance(uid, str) else uid
        with self._field_lock:
            self.rig.piles[channel].place(raw)

    def take(self, channel: int, uid: str | bytes) -> None:
        raw = bytes.fromhex(uid) if isinstance(uid, str) else uid
        with self._field_lock:
            self.rig.piles[channel].take(raw)
