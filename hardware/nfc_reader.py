"""Direct NFC readers through nfcpy: one thread per reader, tag arrivals and departures as events.

A reader is named by its nfcpy path (``usb:072f:2200`` for an ACR122U, ``usb:04cc:2533`` for a
PN533, ``tty:AMA0:pn532`` for a PN532 on the Pi's UART, ``udp:host:port`` for the emulator) and
that path is its reader id. Each reader runs in its own thread: sense, activate, watch the tag
with nfcpy's presence check until it leaves, and say so. A reader that cannot be opened or
vanishes (unplugged: nfcpy raises ``IOError``) is reported ``reconnecting`` and retried with
backoff, then ``down`` if it stays away; the other readers never wait for it.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from typing import Any

import nfc
import nfc.clf
import nfc.tag

from companion.core.errors import HardwareError
from companion.core.readers import ReaderAddress, ReaderEvent, TagEventKind
from hardware.health import Backoff, HealthBoard, Status
from hardware.pn532_speed import pn532_tty, restore_speed
from hardware.reader import EventSink, ReaderContext
from hardware.usbnames import resolve
from hardware.worker import ReaderThread

log = logging.getLogger(__name__)

DEFAULT_TARGETS = ("106A", "106B", "212F")
"""NFC-A (NTAG, MIFARE), NFC-B and FeliCa: what a PN53x or ACR122U can sense."""
UDP_TARGETS = ("106A",)
"""The udp emulator answers as a Type 2 tag; sensing B and F there only waits out timeouts."""

FrontendOpener = Callable[[str], Any]


def open_frontend(path: str) -> Any:
    """An opened ``nfc.ContactlessFrontend``; :class:`HardwareError` if no device answers on ``path``.

    ``path`` may be a stable name (``usb-serial:…``, ``usb-port:…``, :mod:`hardware.usbnames`),
    looked up anew at every opening since the reader's bus and device numbers change on a re-plug.
    A PN532 on a UART that a dead process left at a high speed is set back to 115,200 baud and
    opened again (:mod:`hardware.pn532_speed`), so a restart after a crash finds it.
    """
    device = resolve(path)
    clf = nfc.ContactlessFrontend()
    if clf.open(device):
        return clf
    tty = pn532_tty(device)
    if tty is not None and restore_speed(tty) is not None and clf.open(device):
        return clf
    raise HardwareError(f"no NFC reader found on {path}" + (f" ({device})" if device != path else ""))


def targets_for(path: str) -> tuple[str, ...]:
    return UDP_TARGETS if path.startswith("udp") else DEFAULT_TARGETS


class NfcReader(ReaderThread):
    """One nfcpy reader in its own thread. ``start()``, ``stop()``; events to ``on_event``."""

    def __init__(
        self,
        path: str,
        on_event: EventSink,
        health: HealthBoard,
        *,
        clock: Callable[[], float] = time.time,
        targets: Sequence[str] | None = None,
        presence_interval_s: float = 0.1,
        idle_interval_s: float = 0.05,
        down_after_s: float = 30.0,
        backoff: Backoff | None = None,
        opener: FrontendOpener = open_frontend,
    ) -> None:
        super().__init__()
        self.path = path
        self.reader_id = path
        self._on_event = on_event
        self._health = health
        self._clock = clock
        self._targets = tuple(targets) if targets is not None else targets_for(path)
        self._presence_interval_s = presence_interval_s
        self._idle_interval_s = idle_interval_s
        self._down_after_s = down_after_s
        self._backoff = backoff or Backoff(0.2, 5.0)
        self._opener = opener
        self._held: str | None = None  # the tag on the reader as last reported
        health.set_status(self.reader_id, Status.RECONNECTING, "not opened yet")

    @classmethod
    def open(cls, address: ReaderAddress, context: ReaderContext) -> "NfcReader":
        """The reader for an nfcpy path (``usb:…``, ``tty:…``, ``udp:…``, ``usb-serial:…``, ``usb-port:…``)."""
        return cls(address.text, context.on_event, context.health, clock=context.clock)

    # -- lifecycle --------------------------------------------------------------------------

    @property
    def thread_name(self) -> str:
        return f"nfc-reader:{self.path}"

    def health(self) -> dict[str, Any]:
        return self._health.status(self.reader_id)

    # -- the loop ---------------------------------------------------------------------------

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                clf = self._opener(self.path)
            except (OSError, HardwareError) as exc:
                self._failed(f"cannot open: {exc}")
                continue
            self._backoff.succeeded()
            self._health.set_status(self.reader_id, Status.OK, str(getattr(clf, "device", "") or ""))
            try:
                self._watch(clf)
            except OSError as exc:  # nfcpy reports a vanished device as IOError (ENODEV, EIO)
                self._health.count(self.reader_id, "reconnects")
                self._failed(f"lost: {exc}")
            finally:
                try:
                    clf.close()
                except OSError as exc:
                    log.debug("%s: closing: %s", self.path, exc)
        self._health.set_status(self.reader_id, Status.DOWN, "stopped")

    def _failed(self, detail: str) -> None:
        now = time.monotonic()
        wait = self._backoff.failed(now)
        status = Status.DOWN if self._backoff.failing_for(now) >= self._down_after_s else Status.RECONNECTING
        self._health.set_status(self.reader_id, status, detail)
        log.warning("%s: %s; retrying in %.1f s", self.path, detail, wait)
        self._stop.wait(wait)

    def _watch(self, clf: Any) -> None:
        """Sense, activate, follow one tag until it leaves; repeat until stopped or the device fails."""
        targets = [nfc.clf.RemoteTarget(brty) for brty in self._targets]
        while not self._stop.is_set():
            self._health.flush()
            try:
                target = clf.sense(*targets, iterations=1)
            except nfc.clf.CommunicationError as exc:
                log.debug("%s: sense: %s", self.path, exc)
                target = None
            if target is None:
                if self._held is not None:  # it left while we were not looking (or the reader was away)
                    self._emit(self._held, "depart")
                self._stop.wait(self._idle_interval_s)
                continue
            tag = nfc.tag.activate(clf, target)
            if tag is None:
                continue
            uid = bytes(tag.identifier).hex()
            if uid != self._held:
                if self._held is not None:
                    self._emit(self._held, "depart")
                self._emit(uid, "arrive")
            while not self._stop.is_set() and self._present(tag):
                self._health.flush()
                self._stop.wait(self._presence_interval_s)
            if self._stop.is_set():
                return  # the tag is still there; a restart will find it again
            self._emit(uid, "depart")

    def _present(self, tag: Any) -> bool:
        try:
            return bool(tag.is_present)
        except (nfc.clf.CommunicationError, nfc.tag.TagCommandError) as exc:
            log.debug("%s: presence check: %s", self.path, exc)
            return False

    def _emit(self, uid: str, event: TagEventKind) -> None:
        self._held = uid if event == "arrive" else None
        reader_event = ReaderEvent(self.reader_id, uid, event, self._clock())
        self._health.count(self.reader_id, "events")
        try:
            self._on_event(reader_event)
        except Exception:  # the table's failure must not stop the reader; logged with its trace
            log.exception("handling %s failed", reader_event)
