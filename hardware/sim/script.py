"""Playing a scripted game out of a simulated reader array, for the demo and the tests.

A script is a list of ``(delay_s, channel, uid, "arrive" | "depart")``: wait ``delay_s`` after the
previous event, then the reader on ``channel`` sees the tag arrive or depart. The frames go out of
a :class:`SimulatedArray` over a pty, so whatever reads them (the real bridge) is exercised as on
the table.

    with ScriptedArray(script, channels=4, link=tmp / "array") as sim:
        bridge = ArrayBridge(sim.port, table.reader_event, health)
        bridge.start()
        wait until health.status("array")["status"] == "ok"     # the bridge has the port open
        sim.start()                                              # play, in a thread
        sim.wait(timeout=30)
        bridge.stop()
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Literal

from hardware.sim.array import SimulatedArray

ScriptEvent = tuple[float, int, str, Literal["arrive", "depart"]]


def play_script(array: SimulatedArray, script: Iterable[ScriptEvent], stop: threading.Event | None = None) -> int:
    """Send the script's events with their delays; returns how many were sent before ``stop``."""
    stop = stop or threading.Event()
    sent = 0
    for delay_s, channel, uid, event in script:
        if event not in ("arrive", "depart"):
            raise ValueError(f'script event {event!r} is neither "arrive" nor "depart"')
        if delay_s > 0 and stop.wait(delay_s):
            break
        if stop.is_set():
            break
        if event == "arrive":
            array.arrive(channel, uid)
        else:
            array.depart(channel, uid)
        sent += 1
    return sent


class ScriptedArray:
    """A simulated array that plays ``script`` in a thread once :meth:`start` is called."""

    def __init__(
        self,
        script: Sequence[ScriptEvent],
        channels: int = 4,
        *,
        link: str | Path | None = None,
        heartbeat_s: float | None = 1.0,
    ) -> None:
        for i, (delay_s, channel, _uid, event) in enumerate(script):
            if delay_s < 0 or not 0 <= channel < channels or event not in ("arrive", "depart"):
                raise ValueError(f"script line {i}: {(delay_s, channel, _uid, event)!r} is not a valid event")
        self.script = list(script)
        self.array = SimulatedArray(channels, link=link, heartbeat_s=heartbeat_s)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.played = 0

    @property
    def port(self) -> str:
        return self.array.port

    def start(self) -> None:
        if self._thread is not None:
            raise RuntimeError("the script is already playing")
        self._thread = threading.Thread(target=self._play, name="scripted-array", daemon=True)
        self._thread.start()

    def _play(self) -> None:
        self.played = play_script(self.array, self.script, self._stop)

    def wait(self, timeout: float) -> bool:
        """True once the whole script has been played (False on timeout)."""
        if self._thread is None:
            return False
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5.0)
        self.array.close()

    def __enter__(self) -> "ScriptedArray":
        self.array.plug()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
