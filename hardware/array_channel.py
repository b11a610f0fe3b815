"""A channel of a reader array as a reader: ``array:N``, or ``array:NAME:N`` on the array named NAME.

The array's channels share one serial link, so they share one :class:`~hardware.bridge.ArrayBridge`
(one thread per array): the first channel opened with a context makes the bridge, the others find
it in ``context.links``; it runs while any of its channels does. The bridge reports every channel's
tag events, listings and health itself, under the address of the reader watching it; a channel
reader is how a zone's reader is opened, started, stopped and asked its health like any other.
Another kind of reader on an array (its own scheme, the same ``[NAME:]N`` rest) gets the array's
bridge from :func:`array_bridge` too.
"""

from __future__ import annotations

from typing import Any

from companion.core.errors import ConfigError
from companion.core.readers import ArrayChannel, ReaderAddress
from hardware.bridge import ArrayBridge
from hardware.reader import ReaderContext, SharedLink
from hardware.worker import Around


def array_bridge(channel: ArrayChannel, context: ReaderContext) -> SharedLink[ArrayBridge]:
    """The bridge of the array ``channel`` is on, shared through ``context`` (made on first use),
    watching that channel for the reader there.

    :class:`ConfigError` naming the reader if the context has no port for that array.
    """
    shared: SharedLink[ArrayBridge] | None = context.links.get(channel.link_id)
    if shared is None:
        link = context.arrays.get(channel.array)
        if link is None:
            section = f"[arrays.{channel.array}]" if channel.array else "[array]"
            array = f' "{channel.array}"' if channel.array else ""
            raise ConfigError(
                f'reader "{channel.reader_id}" is a channel of the reader array{array}, but no serial port is given for it '
                f"(no {section} port in the table config)"
            )
        bridge = ArrayBridge(
            link.port,
            context.on_event,
            context.health,
            baudrate=link.baud,
            clock=context.clock,
            name=channel.array,
            on_state=context.on_state,
            on_press=context.on_press,
        )
        shared = context.links[channel.link_id] = SharedLink(bridge)
    shared.link.watch(channel)
    return shared


class ArrayChannelReader:
    """One channel of a reader array, reporting through the array's shared bridge."""

    def __init__(self, channel: ArrayChannel, link: SharedLink[ArrayBridge], context: ReaderContext) -> None:
        self.channel = channel
        self._link = link
        self._health = context.health

    @classmethod
    def open(cls, address: ReaderAddress, context: ReaderContext) -> "ArrayChannelReader":
        channel = ArrayChannel.parse(address)
        return cls(channel, array_bridge(channel, context), context)

    @property
    def reader_id(self) -> str:
        return self.channel.reader_id

    @property
    def bridge(self) -> ArrayBridge:
        """The array's bridge, shared with the other channels on it."""
        return self._link.link

    @property
    def running(self) -> bool:
        return self._link.used_by(self)

    def start(self, around: Around | None = None) -> None:
        self._link.acquire(self, around)

    def request_stop(self) -> None:
        self._link.request_release(self)

    def stop(self, timeout: float = 5.0) -> None:
        self._link.release(self, timeout)

    def health(self) -> dict[str, Any]:
        return self._health.status(self.reader_id)


class ArrayButton(ArrayChannelReader):
    """A button wired to input N of a reader array (``button:N``, ``button:NAME:N``; a call button on a
    player's pad): its presses come through the array's shared bridge (``P`` frames), as
    :class:`~companion.core.readers.ButtonPress` values to the context's ``on_press``."""
