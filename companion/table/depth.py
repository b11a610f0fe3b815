"""How deep a stack each reader reads, and the alert when a pile reaches it (issue 24, "RC522 piles are honest").

An MFRC522 pile reader halts every card it reads, so only a new card answers; but halted tags still
detune the field and take their share of its power, and the newest card lies farthest from the
antenna. Past some depth a card laid on top is simply not seen. That depth is a property of the
parts (antenna, stickers, card stock, tabletop) and is measured on the bench: the zone's ``depth``
in the table config. A zone on an array reader with no measured depth gets :data:`DEFAULT_ARRAY_DEPTH`.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.core import Unexplained, Zone
from companion.core.readers import ARRAY_SCHEME, ReaderAddress

DEFAULT_ARRAY_DEPTH = 10
"""A guess, not a measurement: cheap RC522 boards fail NTAG tokens beyond about 1 cm (issue 24), about
20 cards with their stickers; halved, since the halted tags beneath detune the field (two exactly
stacked NTAG203 cards were never read until offset). Measure it (docs/hardware.md, "Pile depth")."""


@dataclass(frozen=True)
class Depth:
    """The stack a zone's reader reads: ``cards`` deep, ``measured`` on the bench or the default guess."""

    cards: int
    measured: bool


def depth_of(zone: Zone) -> Depth | None:
    """The zone's configured depth; the default guess for an array reader; None for any other reader."""
    if zone.depth is not None:
        return Depth(zone.depth, True)
    if zone.reader is not None and ReaderAddress.parse(zone.reader).scheme == ARRAY_SCHEME:
        return Depth(DEFAULT_ARRAY_DEPTH, False)
    return None


class StackAtDepth(Unexplained):
    """A pile holds as many cards as its reader reads: the next one laid there will not be seen."""


def at_depth(zone: Zone, depth: Depth) -> StackAtDepth:
    how = "is measured to read" if depth.measured else f"is assumed to read (a guess: no depth is configured for {zone.name})"
    return StackAtDepth(
        zone=zone.name,
        what=f"{zone.name} holds {depth.cards} cards, as many as its reader {how}, so a card laid on top will not be seen",
        fix=f"start a new pile beside {zone.name}, or take cards off it",
    )
