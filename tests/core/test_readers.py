"""Reader addresses read in one place: the scheme, an array's channel, the observation source."""

from __future__ import annotations

import pytest

from companion.core.errors import ConfigError
from companion.core.readers import ArrayChannel, ReaderAddress, ReaderEvent, array_link_id


@pytest.mark.parametrize(
    ("text", "scheme", "rest"),
    [("array:3", "array", "3"), ("tty:AMA0:pn532", "tty", "AMA0:pn532"), ("usb", "usb", ""), ("udp:127.0.0.1:50001", "udp", "127.0.0.1:50001")],
)
def test_an_address_is_its_scheme_and_the_rest(text: str, scheme: str, rest: str) -> None:
    assert ReaderAddress.parse(text) == ReaderAddress(text, scheme, rest)


@pytest.mark.parametrize(
    ("text", "channel"),
    [
        ("array:0", ArrayChannel("", 0)),
        ("array:15", ArrayChannel("", 15)),
        ("array:east:3", ArrayChannel("east", 3)),
        ("array:piles-2:0", ArrayChannel("piles-2", 0)),
        ("iso15693:east:2", ArrayChannel("east", 2, "iso15693")),
    ],
)
def test_an_array_channel_reads_and_writes_back_the_same(text: str, channel: ArrayChannel) -> None:
    assert ArrayChannel.parse(text) == channel
    assert channel.reader_id == text
    assert channel.link_id == array_link_id(channel.array) == ("array" if not channel.array else f"array:{channel.array}")


@pytest.mark.parametrize("text", ["array:", "array:-1", "array:16", "array:3a", "array:03", "array:²", "array:٣", "array:a:b:1", "array:east:", "array:9x:1"])
def test_what_is_not_a_channel_is_refused_naming_the_address(text: str) -> None:
    with pytest.raises(ConfigError, match=f'reader "{text}"'):
        ArrayChannel.parse(text)


def test_an_nfcpy_reader_is_an_nfc_source_and_any_other_reader_is_its_address() -> None:
    def source(reader: str) -> str:
        return ReaderEvent(reader, "c0ffee01", "arrive", 0.0).source

    assert source("usb:072f:2200") == "nfc:usb:072f:2200"
    assert source("tty:AMA0:pn532") == "nfc:tty:AMA0:pn532"
    assert source("usb-serial:ABC123") == "nfc:usb-serial:ABC123"
    assert source("array:3") == "array:3"
    assert source("array:east:3") == "array:east:3"
