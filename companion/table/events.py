"""What a reader reports, before the table model knows which zone or card it means.

Readers (an nfcpy device, a channel of the reader array) produce :class:`ReaderEvent` values; the
table model turns them into TAG observations. Reader ids are ``"array:N"`` for channel N of the
reader array, or the nfcpy device path (``usb:072f:2200``, ``tty:AMA0:pn532``, ``udp:host:port``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from companion.core.errors import EnrolmentError

TagEventKind = Literal["arrive", "depart"]

_HEX = re.compile(r"^[0-9a-f]+$")
UID_BYTES = (4, 7, 8, 10)
"""NFC-A single, double and triple size UIDs, and the 8-byte IDm of a FeliCa (Type 3) tag."""


def normalize_uid(text: str) -> str:
    """A tag UID as lower-case hex with no separators (``"04:A1:B2..."`` -> ``"04a1b2..."``).

    Raises :class:`EnrolmentError` naming the input if it is not 4, 7, 8 or 10 bytes of hex.
    """
    uid = text.strip().lower().replace(":", "").replace(" ", "").replace("-", "")
    if not _HEX.match(uid) or len(uid) % 2 or len(uid) // 2 not in UID_BYTES:
        raise EnrolmentError(f'"{text}" is not a tag UID (4, 7, 8 or 10 bytes of hex)')
    return uid


@dataclass(frozen=True, slots=True)
class ReaderEvent:
    """A tag arrived at or departed from one reader, at a table time (seconds)."""

    reader: str
    uid: str
    """Lower-case hex."""
    event: TagEventKind
    table_time: float

    @property
    def source(self) -> str:
        """The observation source naming this reader: ``array:3`` or ``nfc:<device path>``."""
        return self.reader if self.reader.startswith("array:") else f"nfc:{self.reader}"
