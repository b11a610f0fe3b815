"""The reader array's real firmware, polling a simulated field, on the far end of a pty pair.

:class:`FirmwareArray` is a :class:`~hardware.sim.array.SimulatedArray` (the same cable: a pty, a
stable link path, unplug and re-plug) whose frames are not made up by the host's encoder: the
firmware's own ``ArrayFirmware`` polls its own ``MFRC522`` driver against simulated chips
(:mod:`hardware.sim.field`) in a thread, with a real millisecond clock, and every line it writes goes
down the pty. Cards are placed on and taken off readers; the firmware decides what to say.

    with FirmwareArray(16, kinds=[...], link=folder / "array-tty") as array:
        array.place(0, uid)            # waits until the firmware has read it (wait=False: do not)
        array.take(0, uid)             # waits until the firmware has reported it gone
        array.press(1)                 # button 1 pressed and let go (buttons=2 when made)
        array.colour(0)                # what channel 0's LED shows now (leds=True when made)
        array.wait_colour(0, lambda c: c[1] > 0)   # until it shows some green

With ``leds=True`` the firmware reads what the host writes down the pty (its L frames) between
polling rounds, as the Pico reads its USB serial input, and drives a recording LED chain
(:class:`~hardware.sim.firmware.SimPixels`): :meth:`lit` is every write, with its time.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from hardware.sim.array import SimulatedArray
from hardware.sim.field import FieldSettings
from companion.core.lights import Colour
from hardware.sim.firmware import FirmwareRig, Lit

log = logging.getLogger(__name__)

ROUND_PAUSE_S = 0.005
"""Between polling rounds: the simulated array must not take a whole core of a shared machine."""


class FirmwareArray(SimulatedArray):
    def __init__(
        self,
        channels: int = 4,
        *,
        kinds: Sequence[str] | None = None,
        neighbours: Iterable[tuple[int, int]] = (),
        settings: FieldSettings | None = None,
        link: str | Path | None = None,
        round_pause_s: float = ROUND_PAUSE_S,
        buttons: int = 0,
        leds: bool = False,
        **options: Any,
    ) -> None:
        super().__init__(channels, link=link, heartbeat_s=None)
        self.round_pause_s = round_pause_s
        self._field_lock = threading.RLock()
        self.rig = FirmwareRig(
            channels,
            kinds=kinds,
            neighbours=neighbours,
            settings=settings,
            clock_ms=lambda: self.ms,
            write=self._firmware_line,
            buttons=buttons,
            leds=leds,
            host_input=self.host_bytes if leds else None,
            **options,
        )
        self._running = threading.Event()
        self._poller: threading.Thread | None = None
        self.rounds = 0
        self._lose = 0
        self._holding = False
        self._device_buffer: list[bytes] = []

    # -- the cable and the power ----------------------------------------------------------

    def plug(self, boot: bool = True) -> str:
        """Plug in and power up: the firmware boots (B, H) and starts polling."""
        port = super().plug(boot=False)
        if boot:
            self.start_firmware()
        return port

    def start_firmware(self) -> None:
        if self._poller is not None:
            return
        self._running.set()
        self._poller = threading.Thread(target=self._poll, name="sim-array-firmware", daemon=True)
        self._poller.start()

    def stop_firmware(self) -> None:
        self._running.clear()
        poller, self._poller = self._poller, None
        if poller is not None:
            poller.join(5.0)

    def close(self) -> None:
        self.stop_firmware()
        super().close()

    def lose_next(self, lines: int = 1) -> None:
        """The next ``lines`` lines the firmware writes never reach the host (a glitch on the cable)."""
        with self._lock:
            self._lose += lines

    def hold_output(self, on: bool = True) -> None:
        """Keep the firmware's lines in the device (as a Pico's USB stack does while no host reads);
        off: send them all at once, then carry on."""
        with self._lock:
            self._holding = on
            if not on:
                held, self._device_buffer = self._device_buffer, []
                for line in held:
                    self._write(line)

    def _firmware_line(self, line: str) -> None:
        with self._lock:
            if self._lose:
                self._lose -= 1
                self.dropped += 1
                return
            if self._holding:
                self._device_buffer.append(line.encode("ascii"))
                return
            self._write(line.encode("ascii"))

    def _poll(self) -> None:
        with self._field_lock:
            self.rig.firmware.boot()
        while self._running.is_set():
            with self._field_lock:
                self.rig.firmware.step()
                self.rounds += 1
            time.sleep(self.round_pause_s)

    # -- the table ------------------------------------------------------------------------

    def known(self, channel: int) -> list[bytes]:
        with self._field_lock:
            return self.rig.known(channel)

    def place(self, channel: int, uid: str | bytes, wait: bool = True, timeout: float = 10.0) -> None:
        """A card lands on reader ``channel`` (on top of what lies there)."""
        raw = bytes.fromhex(uid) if isinstance(uid, str) else uid
        with self._field_lock:
            self.rig.chips[channel].place(raw)
        if wait:
            self._wait(lambda: raw in self.known(channel), timeout, f"the firmware to read {raw.hex()} on channel {channel}")

    def take(self, channel: int, uid: str | bytes, wait: bool = True, timeout: float = 10.0) -> None:
        """A card is picked up off reader ``channel``."""
        raw = bytes.fromhex(uid) if isinstance(uid, str) else uid
        with self._field_lock:
            self.rig.chips[channel].take(raw)
        if wait:
            self._wait(lambda: raw not in self.known(channel), timeout, f"the firmware to miss {raw.hex()} on channel {channel}")

    def press(self, button: int, wait: bool = True, timeout: float = 10.0) -> None:
        """Button ``button`` is pressed and let go: held until the firmware has reported the press,
        then released until it has seen it go up (so the next press is a press of its own)."""
        firmware_button = self.rig.firmware.buttons[button]
        with self._field_lock:
            self.rig.buttons[button].held = True
        self._wait(lambda: firmware_button.down, timeout, f"the firmware to see button {button} pressed")
        with self._field_lock:
            self.rig.buttons[button].held = False
        if wait:
            self._wait(lambda: not firmware_button.down, timeout, f"the firmware to see button {button} let go")

    # -- the lights -------------------------------------------------------------------------

    def lit(self) -> list[Lit]:
        """Every write of the LED chain so far, oldest first (needs ``leds=True``)."""
        if self.rig.pixels is None:
            raise RuntimeError("this simulated array has no LEDs (make it with leds=True)")
        return self.rig.pixels.history()

    def wait_lit(self, done: Callable[[list[Lit]], bool], timeout: float = 10.0) -> list[Lit]:
        """Until the LED chain's writes so far satisfy ``done``; returns them. The firmware reads what
        the host wrote between polling rounds, so a host that has just written is answered a round on."""
        self._wait(lambda: done(self.lit()), timeout, "the LED chain's writes")
        return self.lit()

    def colour(self, channel: int) -> Colour:
        """What the LED on ``channel`` shows now."""
        if self.rig.pixels is None:
            raise RuntimeError("this simulated array has no LEDs (make it with leds=True)")
        return self.rig.pixels.colour(channel)

    def wait_colour(self, channel: int, shown: Any, timeout: float = 10.0) -> Colour:
        """Until the LED on ``channel`` shows a colour ``shown(colour)`` accepts; returns it."""
        self._wait(lambda: shown(self.colour(channel)), timeout, f"the LED on channel {channel} to change")
        return self.colour(channel)

    def _wait(self, done: Any, timeout: float, what: str) -> None:
        deadline = time.monotonic() + timeout
        while not done():
            if time.monotonic() > deadline or not self._running.is_set():
                raise TimeoutError(f"timed out after {timeout:.0f} s waiting for {what}")
            time.sleep(0.002)
