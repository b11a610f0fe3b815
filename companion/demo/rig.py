"""The demo's simulated table: one reader array (16 readers) on a pseudo-terminal, a tag on every card.

The array is the real firmware (``firmware/``) polling simulated MFRC522 chips over a simulated
field (:mod:`hardware.sim.firmware_array`): the central piles and the action pads are *pile*
readers, so the cards stack up on them and each new one is read as it lands; the hand and history
pads are *pad* readers whose antennas are switched on only to poll, neighbouring each other (a
player's action pad lies apart: a pile may not neighbour a pad). Everything past the array is the real thing too: the pyserial bridge, the table model
with its tag registry and debouncing, the session and the log. Only the cards are imaginary.
"""

from __future__ import annotations

import hashlib
import logging
import time
from pathlib import Path

from companion.app.config import ArrayConfig
from companion.app.readers import TableReaders
from companion.core import Zone
from companion.core.readers import ArrayChannel
from companion.core.zones import HAND_PAD, PILE
from companion.games.escape_master.table import ACTION_PAD, HISTORY_PAD
from companion.referee.session import Session
from companion.table.registry import TagRegistry
from hardware.sim.field import FieldSettings
from hardware.sim.firmware_array import FirmwareArray

log = logging.getLogger(__name__)

PILE_READERS = 7
"""Central piles with a reader under them (channels 0-6); the three pads per player follow."""

DEMO_FIELD = FieldSettings(max_answers=2, detune_depth=48)
"""The demo's simulated RF. Its central piles grow past 30 cards in a long round, deeper than the
simulation's default detuning depth (24, itself an assumption until measured on the bench: see
docs/hardware.md); so the demo's field powers 48, and the tests prove the limits separately."""


def demo_zones(players: tuple[str, ...]) -> tuple[Zone, ...]:
    def on_array(channel: int) -> str:
        return ArrayChannel("", channel).reader_id

    # The simulated readers read exactly DEMO_FIELD's depth: the demo's "measured" figure.
    depth = DEMO_FIELD.detune_depth
    zones = [Zone(f"pile-{n}", PILE, index=n, reader=on_array(n - 1), depth=depth) for n in range(1, PILE_READERS + 1)]
    channel = PILE_READERS
    for kind, prefix in ((HAND_PAD, "hand"), (ACTION_PAD, "action"), (HISTORY_PAD, "history")):
        for player in players:
            zones.append(Zone(f"{prefix}-{player}", kind, player=player, reader=on_array(channel), depth=depth))
            channel += 1
    if channel > 16:
        raise ValueError(f"{len(players)} players need {channel} readers; the demo array has 16")
    return tuple(zones)


def channel_of(zone: Zone) -> int:
    """The array channel under ``zone``."""
    return ArrayChannel.parse(str(zone.reader)).channel


def reader_kinds(zones: tuple[Zone, ...]) -> list[str]:
    """Per channel: "pile" where cards stack up (central piles, action pads), else "pad"."""
    kinds = ["pad"] * 16
    for zone in zones:
        if zone.kind in (PILE, ACTION_PAD):
            kinds[channel_of(zone)] = "pile"
    return kinds


def neighbours(zones: tuple[Zone, ...]) -> list[tuple[int, int]]:
    """A player's hand and history pads lie side by side, close enough to cross-read; the action pad
    (a pile reader) lies ~8 cm from both, since the firmware refuses a pile next to a pad."""
    kinds = reader_kinds(zones)
    by_player: dict[str, list[int]] = {}
    for zone in zones:
        if zone.player is not None and kinds[channel_of(zone)] == "pad":
            by_player.setdefault(zone.player, []).append(channel_of(zone))
    return [(a, b) for channels in by_player.values() for i, a in enumerate(channels) for b in channels[i + 1 :]]


def uid_of(card: str) -> str:
    """A made-up 7-byte tag UID for a card (never starting 04, which nfcpy treats as NXP)."""
    digest = hashlib.sha256(card.encode()).hexdigest()[:14]
    return ("1" + digest[1:]) if digest.startswith("04") else digest


class DemoTable:
    """The rig: a simulated array plugged into the real bridge, feeding the session."""

    def __init__(self, session: Session, deck: tuple[str, ...], folder: Path) -> None:
        self.session = session
        self.zones = demo_zones(session.header.players)
        self.channel = {z.name: channel_of(z) for z in self.zones}
        registry_path = folder / "tags.json"
        registry_path.unlink(missing_ok=True)
        self.registry = TagRegistry(registry_path, session.game.id)
        for card in deck:  # what `companion enroll` does with a real deck, one tap per card
            self.registry.enrol(uid_of(card), card)
        self.array = FirmwareArray(
            16,
            kinds=reader_kinds(self.zones),
            neighbours=neighbours(self.zones),
            settings=DEMO_FIELD,
            link=folder / "array-tty",
        )
        self.array.plug()
        self.hardware = TableReaders(
            self.zones,
            self.registry,
            session.submit,
            on_health=session.report_health,
            arrays={"": ArrayConfig(self.array.port)},
        )
        self.hardware.start()
        deadline = time.monotonic() + 10
        while self.hardware.health.status("array")["status"] != "ok":
            if time.monotonic() > deadline:
                raise RuntimeError("the bridge did not open the simulated array within 10 s")
            time.sleep(0.05)

    def tap(self, zone: str, card: str) -> None:
        """The card lands on the zone's reader (on top of a pile), and stays until lifted."""
        self.array.place(self.channel[zone], uid_of(card))

    def lift(self, zone: str, card: str) -> None:
        self.array.take(self.channel[zone], uid_of(card))

    def close(self) -> None:
        self.hardware.stop()
        self.array.close()
