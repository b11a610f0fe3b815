"""One reader array's LEDs, from the host's side (firmware 2.3, firmware/PROTOCOL.md ``L`` frames).

The referee decides a zone's light and moves on; the lights' writer thread (beside the bridge's
reading loop) sends it when it can. A zone's light that is replaced before it went out is stale and
dropped (counted): the table wants what is true now, not a replay. So the queue holds at most one
light per channel (16) and a caller never waits on the serial link.

Lights go only to an array that has said, in a heartbeat's ``T`` frames, that it drives LEDs
(``leds=N``). One that says nothing of LEDs through two heartbeats has none: said once, the lights
dropped. After the array boots (its LEDs go dark) the steady and pulsing lights it was last sent
are sent again.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

import serial

from companion.core.lights import Light, Pattern
from hardware.health import HealthBoard, Status
from hardware.protocol import SEQ_MODULUS, LedFrame, encode_frame

log = logging.getLogger(__name__)

LIGHT_WRITE_TIMEOUT_S = 0.5
"""A light the port will not take within this long is dropped (a wedged link): the writer moves on."""
NO_LEDS_AFTER_BEATS = 2
"""Heartbeats after an opening with no ``leds`` figure: the array drives no LEDs."""
HELD_LIGHTS = (Pattern.STEADY, Pattern.PULSE)
"""Lights that last: sent again when the array reboots (a blink is news only once)."""


class LightQueue:
    def __init__(self) -> None:
        self._ready = threading.Condition()
        self._waiting: dict[int, Light] = {}  # channel -> its latest light, in the order first queued
        self.superseded = 0
        """Lights replaced by a newer one for the same channel before they were sent."""

    def put(self, channel: int, light: Light) -> None:
        with self._ready:
            if channel in self._waiting:
                self.superseded += 1
                del self._waiting[channel]  # the newest goes last
            self._waiting[channel] = light
            self._ready.notify()

    def take(self, timeout: float) -> list[tuple[int, Light]]:
        """Everything waiting (oldest first), after waiting at most ``timeout`` s for something."""
        with self._ready:
            if not self._waiting:
                self._ready.wait(timeout)
            out = list(self._waiting.items())
            self._waiting.clear()
            return out

    def clear(self) -> int:
        """Drop what waits (the array has no LEDs); how many were dropped."""
        with self._ready:
            dropped = len(self._waiting)
            self._waiting.clear()
            return dropped

    def wake(self) -> None:
        """Wake a writer waiting in :meth:`take` (the bridge is stopping)."""
        with self._ready:
            self._ready.notify_all()

    def __len__(self) -> int:
        with self._ready:
            return len(self._waiting)


class ArrayLights:
    """The LEDs of the array on ``port``: what waits, what the array said it drives, the writer.

    The bridge's reading loop calls :meth:`opened`, :meth:`closed`, :meth:`booted`,
    :meth:`heartbeat` and sets :attr:`leds`; its lights' thread runs :meth:`run`. Health goes to
    ``health`` under ``health_id`` (``lights:array``): ``sent``, ``lost``, ``dropped``, and a status
    ``down`` when the array has no LEDs or the writer died.
    """

    def __init__(self, port: str, health: HealthBoard, health_id: str, clock: Callable[[], float] = time.time) -> None:
        self.port = port
        self.health_id = health_id
        self._health = health
        self._clock = clock
        self.queue = LightQueue()
        self.leds: int | None = None
        """LEDs the array drives (its ``leds`` figure), 0 if it said none; None: not known yet."""
        self.sent = 0
        self.written: deque[tuple[int, Light, float]] = deque(maxlen=1024)
        """The latest lights written: (channel, light, ``time.monotonic()`` once written)."""
        self.link: Any = None
        """The open port (None while closed)."""
        self._opened_at = 0.0
        self._seq = 0
        self._beats = 0
        self._said = False
        self._lit: dict[int, Light] = {}  # channel -> the lasting light it was sent last
        self._lit_lock = threading.Lock()  # the writer changes it, the reading loop re-queues it

    def show(self, channel: int, light: Light) -> None:
        """Queue ``light`` for the LED on ``channel``; never waits."""
        self.queue.put(channel, light)

    # -- told by the reading loop ------------------------------------------------------------

    def opened(self, link: Any, at: float) -> None:
        self._seq = 0
        self._beats = 0
        self._opened_at = at
        self._relight()
        self.link = link

    def closed(self) -> None:
        self.link = None

    def booted(self) -> None:
        """The array (re)started: its LEDs are dark, and it says again whether it drives any."""
        self.leds = None
        self._beats = 0
        self._relight()

    def heartbeat(self) -> None:
        self._beats += 1
        if self._beats > NO_LEDS_AFTER_BEATS and self.leds is None:
            self.leds = 0  # two whole heartbeats (each with its T frames) said nothing of LEDs

    def _relight(self) -> None:
        with self._lit_lock:
            lit = sorted(self._lit.items())
        for channel, light in lit:
            self.queue.put(channel, light)

    # -- the writer thread ----------------------------------------------------------------

    def run(self, stop: threading.Event) -> None:
        """Send queued lights while the port is open and the array has LEDs, until ``stop``."""
        try:
            while not stop.is_set():
                link, leds = self.link, self.leds
                if leds == 0:
                    self._drop()
                if link is None or not leds:
                    stop.wait(0.02)
                    continue
                for channel, light in self.queue.take(0.2):
                    if channel >= leds:
                        log.warning("%s: no LED on channel %d (the array drives %d): light dropped", self.port, channel, leds)
                        continue
                    self._send(link, channel, light)
        except Exception as exc:  # a dead writer must be seen: the lights' health says so, the log has the trace
            log.exception("%s: the lights' writer stopped", self.port)
            self._health.set_status(self.health_id, Status.DOWN, f"the lights' writer stopped: {exc}")

    def _send(self, link: Any, channel: int, light: Light) -> None:
        frame = LedFrame(self._seq, int((self._clock() - self._opened_at) * 1000), channel, light)
        self._seq = (self._seq + 1) % SEQ_MODULUS
        try:
            link.write(encode_frame(frame))
        except (serial.SerialException, OSError) as exc:  # the reading loop sees a lost port and reconnects
            self._health.count(self.health_id, "lost")
            log.warning("%s: light for channel %d not written: %s", self.port, channel, exc)
            return
        self.sent += 1
        self.written.append((channel, light, time.monotonic()))
        self._health.count(self.health_id, "sent")
        with self._lit_lock:
            if light.pattern in HELD_LIGHTS:
                self._lit[channel] = light
            else:
                self._lit.pop(channel, None)

    def _drop(self) -> None:
        dropped = self.queue.clear()
        if not dropped:
            return  # nobody asked for a light: nothing to say
        if not self._said:
            self._said = True
            log.warning("%s: the array drives no LEDs (its firmware sends no leds figure: older than tc-array-2.3, "
                        "or LEDS = False in main.py); lights are not shown", self.port)
            self._health.set_status(self.health_id, Status.DOWN, "the array drives no LEDs")
        self._health.count(self.health_id, "dropped", dropped)
