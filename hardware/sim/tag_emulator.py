"""An NFC tag held in front of a reader, emulated with nfcpy's own ``udp:`` device.

nfcpy's ``udp:host:port`` device lets a reader (``clf.sense`` + ``nfc.tag.activate``) talk to an
emulated card in another thread or process, with the real nfcpy stack on both sides. nfcpy emulates
only Type 3 tags itself, so this module answers as a Type 2 tag (the NTAG stickers the table uses):
``clf.listen(LocalTarget("106A"))`` with the UID, then ``clf.exchange()`` answering READ commands.

Known from trying it: a UID starting 0x04 (NXP) makes nfcpy probe NXP commands this emulator does
not answer, so pick UIDs that do not start 0x04; the listener re-binds its socket each time it
listens, so a reader's first request can be lost (readers sense repeatedly anyway).

As a process (the tests and the demo drive it through stdin)::

    python -m hardware.sim.tag_emulator --port 50001
    present 0a1b2c3d4e5f60      -> ok present 0a1b2c3d4e5f60
    remove                      -> ok remove
    quit                        -> ok quit
"""

from __future__ import annotations

import argparse
import logging
import sys
import threading
from collections.abc import Sequence
from typing import Any

import nfc
import nfc.clf

from companion.core.errors import CompanionError
from companion.core.readers import normalize_uid

log = logging.getLogger(__name__)

READ = 0x30
PAGES = 16


def tag_memory(uid: bytes) -> bytes:
    """64 bytes of a formatted, empty NTAG-like Type 2 tag with this UID."""
    if len(uid) == 7:
        bcc0 = 0x88 ^ uid[0] ^ uid[1] ^ uid[2]
        bcc1 = uid[3] ^ uid[4] ^ uid[5] ^ uid[6]
        head = bytes([*uid[:3], bcc0, *uid[3:7], bcc1, 0x48, 0x00, 0x00])
    else:
        head = (uid + bytes(12))[:12]
    capability = bytes([0xE1, 0x10, 0x06, 0x00])  # NDEF, version 1.0, 48 bytes, read/write
    empty_ndef = bytes([0x03, 0x00, 0xFE])
    return (head + capability + empty_ndef).ljust(PAGES * 4, b"\x00")


def answer(memory: bytes, command: bytes) -> bytes | None:
    """The tag's response to one command; None (stay silent) for anything but READ."""
    if len(command) == 2 and command[0] == READ:
        start = (command[1] % PAGES) * 4
        return (memory + memory)[start : start + 16]
    return None


class TagEmulator:
    """A tag that is present (with a UID) or not, in front of the reader at ``udp:host:port``."""

    def __init__(self, port: int, host: str = "127.0.0.1", listen_s: float = 0.25, swap_gap_s: float = 0.8) -> None:
        self.path = f"udp:{host}:{port}"
        self._listen_s = listen_s
        self._swap_gap_s = swap_gap_s
        self._uid: str | None = None
        self._changed = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self.reads = 0
        """READ commands answered so far."""

    @property
    def uid(self) -> str | None:
        return self._uid

    def present(self, uid: str) -> None:
        """Hold the tag with ``uid`` to the reader (replacing any other)."""
        self._uid = normalize_uid(uid)
        self._changed.set()

    def remove(self) -> None:
        """Take the tag away: from now on it answers nothing."""
        self._uid = None
        self._changed.set()

    def start(self, timeout: float = 5.0) -> None:
        if self._thread is not None:
            raise RuntimeError("the tag emulator is already running")
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name=f"tag-emulator:{self.path}", daemon=True)
        self._thread.start()
        if not self._ready.wait(timeout):
            raise RuntimeError(f"the tag emulator on {self.path} did not start")

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        self._changed.set()
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.join(timeout)
            if thread.is_alive():
                log.error("the tag emulator on %s did not stop within %.1f s", self.path, timeout)

    def __enter__(self) -> "TagEmulator":
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _run(self) -> None:
        clf = nfc.ContactlessFrontend(self.path)
        self._ready.set()
        try:
            while not self._stop.is_set():
                uid = self._uid
                if uid is None:
                    self._changed.wait(0.1)
                    self._changed.clear()
                    continue
                target = nfc.clf.LocalTarget("106A")
                raw = bytes.fromhex(uid)
                target.sens_res = bytearray.fromhex("4400" if len(raw) > 4 else "0400")
                target.sdd_res = bytearray(raw)
                target.sel_res = bytearray.fromhex("00")  # Type 2 tag, no ISO-DEP
                try:
                    activated = clf.listen(target, self._listen_s)
                except nfc.clf.CommunicationError as exc:
                    log.debug("listen: %s", exc)
                    continue
                if activated is not None and activated.tt2_cmd:
                    self._serve(clf, uid, bytes(activated.tt2_cmd))
                    if self._uid not in (None, uid):
                        # One card swapped for another: a hand takes one away and puts the next down.
                        # Stay silent long enough for the reader to see the first one go; otherwise
                        # the new tag would answer the reader's presence check for the old one.
                        self._stop.wait(self._swap_gap_s)
        finally:
            clf.close()

    def _serve(self, clf: Any, uid: str, command: bytes) -> None:
        """Answer the reader until it stops asking or the tag is taken away."""
        memory = tag_memory(bytes.fromhex(uid))
        while not self._stop.is_set() and self._uid == uid:
            response = answer(memory, command)
            if response is not None:
                self.reads += 1
            try:
                received = clf.exchange(response, 0.5)
            except nfc.clf.CommunicationError as exc:  # timeout or RF off: the reader moved on
                log.debug("exchange: %s", exc)
                return
            if received is None:
                return
            command = bytes(received)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Emulate an NFC tag for an nfcpy udp: reader; commands on stdin.")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--host", default="127.0.0.1")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    emulator = TagEmulator(args.port, args.host)
    emulator.start()
    print("ready", flush=True)
    try:
        for line in sys.stdin:
            words = line.split()
            if not words:
                continue
            if words[0] == "present" and len(words) == 2:
                try:
                    emulator.present(words[1])
                except CompanionError as exc:
                    print(f"error {exc}", flush=True)
                    continue
            elif words[0] == "remove":
                emulator.remove()
            elif words[0] == "quit":
                print("ok quit", flush=True)
                break
            else:
                print(f"error unknown command {line.strip()!r}", flush=True)
                continue
            print("ok " + " ".join(words), flush=True)
    finally:
        emulator.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
