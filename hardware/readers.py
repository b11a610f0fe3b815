"""Which class reads a reader address: the one place a reader's kind is chosen, by its scheme.

Like nfcpy's own device paths, a reader address is ``scheme:rest``
(:class:`~companion.core.readers.ReaderAddress`). Each scheme maps to one class implementing
:class:`~hardware.reader.Reader`, through its ``open(address, context)``. A new kind of reader is
one new class and one line here (docs/architecture.md, "Adding a reader type").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from companion.core.errors import ConfigError
from companion.core.readers import ARRAY_SCHEME, BUTTON_SCHEME, NFCPY_SCHEMES, ReaderAddress
from hardware.array_channel import ArrayButton, ArrayChannelReader
from hardware.nfc_reader import NfcReader
from hardware.reader import Reader, ReaderContext

Opener = Callable[[ReaderAddress, ReaderContext], Reader]

READER_TYPES: Mapping[str, Opener] = {
    ARRAY_SCHEME: ArrayChannelReader.open,  # array:N, array:NAME:N
    BUTTON_SCHEME: ArrayButton.open,  # button:N, button:NAME:N (a button wired to an array)
    **{scheme: NfcReader.open for scheme in sorted(NFCPY_SCHEMES)},  # usb:…, tty:AMA0:pn532, udp:…
}


def open_reader(text: str, context: ReaderContext) -> Reader:
    """The reader at address ``text``, not yet started; :class:`ConfigError` naming it if no reader has that address."""
    address = ReaderAddress.parse(text)
    opener = READER_TYPES.get(address.scheme)
    if opener is None:
        raise ConfigError(
            f'reader "{text}": no kind of reader is called "{address.scheme}" (known: {", ".join(sorted(READER_TYPES))})'
        )
    return opener(address, context)
