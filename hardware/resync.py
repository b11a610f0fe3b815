"""Putting the reader array's heartbeat listing back together (firmware/PROTOCOL.md, ``H`` and ``K``).

From firmware 2.0 every heartbeat says how many ``K`` frames follow it, and those frames name every
tag each reader knows, as one snapshot (the array sends nothing else in between). The bridge uses a
whole snapshot to rebuild the table after it opens the port, and to catch up after lost frames.
A listing broken by a lost or foreign frame is dropped; the next heartbeat brings another.

Pure: frames in, :class:`Snapshot` out.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from hardware.protocol import SEQ_MODULUS, HeartbeatFrame, KnownFrame

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Snapshot:
    """What lies on every reader of the array at the array's clock ``ms``."""

    ms: int
    channels: int
    tags: dict[int, tuple[str, ...]]
    """Channel -> the UIDs (lower-case hex) its reader knows, oldest first; absent: none."""

    def on(self, channel: int) -> tuple[str, ...]:
        return self.tags.get(channel, ())


@dataclass
class _Partial:
    beat: HeartbeatFrame
    expected: int
    next_seq: int
    tags: dict[int, list[str]] = field(default_factory=dict)
    got: int = 0


class ListingAssembler:
    def __init__(self) -> None:
        self._partial: _Partial | None = None
        self.broken = 0
        """Listings dropped half-way (a frame lost or out of place)."""

    def heartbeat(self, beat: HeartbeatFrame) -> Snapshot | None:
        """A heartbeat starts a listing; with none to follow it is the snapshot at once."""
        self._drop("a new heartbeat came")
        if beat.listing is None:
            return None
        self._partial = _Partial(beat, beat.listing, (beat.seq + 1) % SEQ_MODULUS)
        return self._done_if_complete()

    def known(self, frame: KnownFrame) -> Snapshot | None:
        partial = self._partial
        if partial is None:
            log.debug("a K frame (seq %d) outside a listing: skipped", frame.seq)
            return None
        if frame.seq != partial.next_seq:
            self._drop(f"frame {partial.next_seq} is missing")
            return None
        partial.tags.setdefault(frame.channel, []).extend(frame.uids)
        partial.got += 1
        partial.next_seq = (partial.next_seq + 1) % SEQ_MODULUS
        return self._done_if_complete()

    def other(self) -> None:
        """Any other frame: a listing still open is broken."""
        self._drop("another frame came inside it")

    def _drop(self, why: str) -> None:
        if self._partial is not None:
            self.broken += 1
            log.warning("a tag listing was broken (%s); the next heartbeat brings another", why)
            self._partial = None

    def _done_if_complete(self) -> Snapshot | None:
        partial = self._partial
        if partial is None or partial.got < partial.expected:
            return None
        self._partial = None
        tags = {channel: tuple(uids) for channel, uids in partial.tags.items()}
        return Snapshot(partial.beat.ms, len(partial.beat.health), tags)
