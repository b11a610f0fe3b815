"""What a reader is called and what it reports: the plain nouns hardware, the table model and the
config share.

A reader is named by one string, its *address*, written on its zone in the table config. Like
nfcpy's device paths (``usb:072f:2200``, ``tty:AMA0:pn532``, ``udp:host:port``) it is
``scheme:rest``; the scheme says which kind of reader it is, and hardware's factory
(``hardware/readers.py``) opens one reader class per scheme. The address is also the reader's id:
the ``reader`` of its :class:`ReaderEvent`, its key in the health board, its zone's key in the
table model. :meth:`ReaderAddress.parse` is the one place that reads the string. A reader on a
reader array has the rest of its address read by :meth:`ArrayChannel.parse`:

- ``array:N``: channel N (0-15) of the table's reader array (``[array]`` in the config);
- ``array:NAME:N``: channel N of the array named NAME (``[arrays.NAME]``), for a table with
  more readers than one array has.

Another kind of reader on an array has its own scheme and the same ``[NAME:]N`` rest. So has a
button wired to an array (a call button on a player's pad): ``button:N`` is input N (0-15) of the
table's array, ``button:NAME:N`` of the array named NAME; it reports a :class:`ButtonPress`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from companion.core.errors import ConfigError, EnrolmentError

TagEventKind = Literal["arrive", "depart"]

_HEX = re.compile(r"^[0-9a-f]+$")
UID_BYTES = (4, 7, 8, 10)
"""NFC-A single, double and triple size UIDs, and the 8-byte IDm of a FeliCa (Type 3) tag."""

ARRAY_SCHEME = "array"
BUTTON_SCHEME = "button"
"""A button wired to a reader array's input (``button:N``, ``button:NAME:N``; firmware/PROTOCOL.md, ``P``)."""
ARRAY_CHANNELS = 16
"""Channels one reader array carries at most (two SPI buses of eight readers: firmware/main.py)."""
NFCPY_SCHEMES = frozenset({"usb", "tty", "com", "udp", "usb-serial", "usb-port"})
"""nfcpy's own device paths, and the stable USB names ``hardware/usbnames.py`` resolves to them."""

_ARRAY_NAME = re.compile(r"[a-z][a-z0-9_-]*")
_CHANNEL = re.compile(r"0|[1-9][0-9]?")
"""A channel number written the one way: "array:01" would never match the bridge's "array:1"."""
_SPACE = re.compile(r"\s")


def normalize_uid(text: str) -> str:
    """A tag UID as lower-case hex with no separators (``"04:A1:B2..."`` -> ``"04a1b2..."``).

    Raises :class:`EnrolmentError` naming the input if it is not 4, 7, 8 or 10 bytes of hex.
    """
    uid = text.strip().lower().replace(":", "").replace(" ", "").replace("-", "")
    if not _HEX.match(uid) or len(uid) % 2 or len(uid) // 2 not in UID_BYTES:
        raise EnrolmentError(f'"{text}" is not a tag UID (4, 7, 8 or 10 bytes of hex)')
    return uid


def _scheme(text: str) -> str:
    return text.partition(":")[0]


@dataclass(frozen=True)
class ReaderAddress:
    """A reader's config string, read once: ``scheme:rest`` (``rest`` may be empty: nfcpy's ``usb``)."""

    text: str
    scheme: str
    rest: str

    @classmethod
    def parse(cls, text: str) -> "ReaderAddress":
        """:class:`ConfigError` naming ``text`` if it is empty, has a space, or no scheme before its colon."""
        if not text or _SPACE.search(text) or not _scheme(text):
            raise ConfigError(f'reader "{text}" is not a reader address (array:N, or an nfcpy path such as usb:072f:2200)')
        scheme, _, rest = text.partition(":")
        return cls(text, scheme, rest)


def array_link_id(array: str) -> str:
    """The health id of an array's serial link: ``array`` for the table's array, ``array:NAME`` for a named one."""
    return ARRAY_SCHEME if not array else f"{ARRAY_SCHEME}:{array}"


def check_array_name(name: str) -> str:
    """``name`` if it may name a reader array (lower case, a letter first: ``east``, ``piles-2``); else :class:`ConfigError`."""
    if not _ARRAY_NAME.fullmatch(name):
        raise ConfigError(f'"{name}" cannot name a reader array: lower-case letters, digits, "-" and "_", a letter first')
    return name


@dataclass(frozen=True)
class ArrayChannel:
    """One channel of a reader array: ``array:N`` (``array`` empty: the table's array) or ``array:NAME:N``."""

    array: str
    channel: int
    scheme: str = ARRAY_SCHEME
    """The kind of reader on the channel: ``array`` for the array's own (MFRC522) readers."""

    @classmethod
    def parse(cls, address: ReaderAddress | str) -> "ArrayChannel":
        """The channel ``scheme:N`` or ``scheme:NAME:N`` names; :class:`ConfigError` naming the address if it is not one."""
        address = address if isinstance(address, ReaderAddress) else ReaderAddress.parse(address)
        parts = address.rest.split(":")
        number = parts[-1]
        if len(parts) > 2 or not _CHANNEL.fullmatch(number) or int(number) >= ARRAY_CHANNELS:
            scheme = address.scheme
            raise ConfigError(
                f'reader "{address.text}" must be {scheme}:N or {scheme}:NAME:N with N a channel from 0 to {ARRAY_CHANNELS - 1}'
            )
        if len(parts) == 2:
            try:
                check_array_name(parts[0])
            except ConfigError as exc:
                raise ConfigError(f'reader "{address.text}": {exc}') from None
        return cls(parts[0] if len(parts) == 2 else "", int(number), address.scheme)

    @property
    def reader_id(self) -> str:
        """Its address written the one way: ``array:3``, ``array:east:3``."""
        return f"{self.scheme}:{self.array}:{self.channel}" if self.array else f"{self.scheme}:{self.channel}"

    @property
    def link_id(self) -> str:
        """The health id of the serial link it reports through."""
        return array_link_id(self.array)


@dataclass(frozen=True, slots=True)
class ReaderEvent:
    """A tag arrived at or departed from one reader, at a table time (seconds)."""

    reader: str
    """The reader's address (:class:`ReaderAddress`): ``array:3``, ``usb:072f:2200``."""
    uid: str
    """Lower-case hex."""
    event: TagEventKind
    table_time: float

    @property
    def source(self) -> str:
        """The observation source naming this reader: ``nfc:<device path>`` for an nfcpy reader, else its address (``array:3``)."""
        return f"nfc:{self.reader}" if _scheme(self.reader) in NFCPY_SCHEMES else self.reader


@dataclass(frozen=True, slots=True)
class ButtonPress:
    """A button wired to a reader array was pressed, at a table time (seconds)."""

    reader: str
    """The button's address (``button:2``, ``button:east:2``): its zone's reader in the table config."""
    table_time: float

    @property
    def source(self) -> str:
        """The observation source naming the button: its address."""
        return self.reader
