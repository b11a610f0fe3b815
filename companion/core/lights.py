"""What a zone's LED shows: a colour and a pattern (firmware/PROTOCOL.md, ``L`` frames).

The plain nouns the table's signals (``companion/table/lights.py``) and the reader-array bridge
(``hardware/bridge.py``) share: the referee decides a :class:`Light` per zone, the bridge sends it
to the LED on that zone's reader channel.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Pattern(str, enum.Enum):
    """How the LED shows its colour; the value is the letter an ``L`` frame carries."""

    OFF = "O"
    BLINK = "B"
    """Once, briefly, then off (a legal move)."""
    STEADY = "S"
    """On until told otherwise (an illegal move held, an alert)."""
    PULSE = "P"
    """Slowly brighter and dimmer, until told otherwise (the game waits for someone)."""


Colour = tuple[int, int, int]
"""Red, green, blue, each 0-255 (full scale: the array scales by its brightness setting)."""


@dataclass(frozen=True)
class Light:
    colour: Colour
    pattern: Pattern

    def __post_init__(self) -> None:
        if len(self.colour) != 3 or any(not 0 <= c <= 255 for c in self.colour):
            raise ValueError(f"colour {self.colour} is not three values 0-255")

    @property
    def hex(self) -> str:
        """``RRGGBB``, upper case, as an ``L`` frame carries it."""
        return "%02X%02X%02X" % self.colour


DARK = Light((0, 0, 0), Pattern.OFF)
