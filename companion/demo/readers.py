"""The runner's reader arrays: the real firmware on simulated fields, one array per name the layout's
reader addresses use, each on a pseudo-terminal read by the real bridge, the table model and its tag
registry (:class:`~companion.app.readers.TableReaders`, as ``companion serve`` wires them).

A zone's reader ``array:N`` / ``array:NAME:N`` is channel N of that array; ``button:N`` /
``button:NAME:N`` a call button on its input N. Channels under zones whose kind the plan says
stacks (``SensorPlan.stacks``) are *pile* readers (cards stack up, each new one read as it lands);
the rest are *pads*. A player's own pads lie side by side, so on one array they are neighbours that
can hear each other's tags (the firmware switches pad antennas so they do not); a pile lies ~8 cm
from every other reader, as a real table must lay it (the firmware refuses a pile next to a pile or
a pad: a card landing on it could be read and halted by the neighbour, docs/hardware.md). Only the cards are imaginary:
each gets a made-up UID, enrolled as ``companion enroll`` would.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from companion.app.config import ArrayConfig
from companion.app.readers import TableReaders
from companion.core import Zone
from companion.core.readers import ARRAY_SCHEME, BUTTON_SCHEME, ArrayChannel, ReaderAddress
from companion.demo.physical import PlanError
from companion.table.model import DEFAULT_DEBOUNCE_S, ObservationSink
from companion.table.registry import TagRegistry
from hardware.health import HealthCallback
from hardware.sim.field import FieldSettings
from hardware.sim.firmware_array import FirmwareArray

log = logging.getLogger(__name__)

DEMO_FIELD = FieldSettings(max_answers=2, detune_depth=48)
"""The runner's simulated RF. Escape Master's central piles grow past 30 cards in a long round,
deeper than the simulation's default detuning depth (24, itself an assumption until measured on the
bench: see docs/hardware.md); so the runner's field powers 48, and the tests prove the limits
separately."""
OPEN_TIMEOUT_S = 15.0


def uid_of(card: str) -> str:
    """A made-up 7-byte tag UID for a card (never starting 04, which nfcpy treats as NXP)."""
    digest = hashlib.sha256(card.encode()).hexdigest()[:14]
    return ("1" + digest[1:]) if digest.startswith("04") else digest


@dataclass
class _ArrayPlan:
    """What one array carries: its channels' kinds, neighbouring pairs, buttons."""

    channels: int = 0
    piles: set[int] = field(default_factory=set)
    buttons: int = 0
    by_player: dict[str, list[int]] = field(default_factory=dict)

    def kinds(self) -> list[str]:
        return ["pile" if ch in self.piles else "pad" for ch in range(self.channels)]

    def neighbours(self) -> list[tuple[int, int]]:
        out = []
        for channels in self.by_player.values():
            for i, a in enumerate(channels):
                out += [(a, b) for b in channels[i + 1 :] if a not in self.piles and b not in self.piles]
        return out


def _arrays(zones: Sequence[Zone], stacks: frozenset[str]) -> dict[str, _ArrayPlan]:
    plans: dict[str, _ArrayPlan] = {}
    for zone in zones:
        if zone.reader is None:
            continue
        address = ReaderAddress.parse(zone.reader)
        if address.scheme not in (ARRAY_SCHEME, BUTTON_SCHEME):
            raise PlanError(f"zone {zone.name}: the runner simulates reader arrays (array:N, button:N), not {zone.reader}")
        at = ArrayChannel.parse(address)
        plan = plans.setdefault(at.array, _ArrayPlan())
        if address.scheme == BUTTON_SCHEME:
            plan.buttons = max(plan.buttons, at.channel + 1)
            continue
        plan.channels = max(plan.channels, at.channel + 1)
        if zone.kind.name in stacks:
            plan.piles.add(at.channel)
        if zone.player is not None:
            plan.by_player.setdefault(zone.player, []).append(at.channel)
    return plans


class ReaderRig:
    """The layout's arrays, plugged into the real bridge and table model, feeding ``sink``."""

    def __init__(
        self,
        zones: Sequence[Zone],
        stacks: frozenset[str],
        cards: Iterable[str],
        sink: ObservationSink,
        folder: Path,
        game: str,
        on_health: HealthCallback | None = None,
        setup: Sequence[tuple[str, str]] = (),
        leds: bool = False,
    ) -> None:
        self.zones = {z.name: z for z in zones if z.reader is not None}
        registry_path = folder / "tags.json"
        registry_path.unlink(missing_ok=True)
        self.registry = TagRegistry(registry_path, game)
        for card in cards:  # what `companion enroll` does with a real deck, one tap per card
            self.enrol(card)
        self.arrays: dict[str, FirmwareArray] = {}
        for name, plan in sorted(_arrays(zones, stacks).items()):
            array = FirmwareArray(
                max(plan.channels, 1),
                kinds=plan.kinds() or None,
                neighbours=plan.neighbours(),
                settings=DEMO_FIELD,
                link=folder / f"array-{name or 'table'}-tty",
                buttons=plan.buttons,
                leds=leds,  # an LED per channel, recorded (issue 25's lights at the zones)
            )
            self.arrays[name] = array
        for array in self.arrays.values():
            array.plug()
        for zone, card in setup:  # laid before the service opens: listed, never judged
            self.enrol(card)
            self._place(zone, card)
        self.readers = TableReaders(
            list(self.zones.values()),
            self.registry,
            sink,
            on_health=on_health,
            arrays={name: ArrayConfig(array.port) for name, array in self.arrays.items()},
            debounce_s=DEFAULT_DEBOUNCE_S,
        )
        self.readers.start()
        deadline = time.monotonic() + OPEN_TIMEOUT_S
        for name in self.arrays:
            link = "array" if not name else f"array:{name}"
            while self.readers.health.status(link).get("rebuilds", 0) < 1:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"the bridge did not read {link}'s first listing within {OPEN_TIMEOUT_S:.0f} s")
                time.sleep(0.02)

    def enrol(self, card: str) -> None:
        if self.registry.card_for(uid_of(card)) is None:
            self.registry.enrol(uid_of(card), card)

    def has_reader(self, zone: str) -> bool:
        return zone in self.zones

    def _at(self, zone: str) -> tuple[FirmwareArray, ArrayChannel]:
        reader = self.zones[zone].reader
        assert reader is not None
        at = ArrayChannel.parse(reader)
        return self.arrays[at.array], at

    def _place(self, zone: str, card: str, wait: bool = True) -> None:
        array, at = self._at(zone)
        array.place(at.channel, uid_of(card), wait=wait)

    def put(self, zone: str, card: str) -> None:
        """The card lands on the zone's reader (on top of what lies there); returns once the array has read it."""
        self.enrol(card)
        self._place(zone, card)

    def lift(self, zone: str, card: str) -> None:
        """The card leaves the zone's reader; returns at once (:meth:`gone` waits for the array)."""
        array, at = self._at(zone)
        array.take(at.channel, uid_of(card), wait=False)

    def gone(self, zone: str, card: str, timeout: float = 10.0) -> None:
        """Returns once the array has reported ``card`` gone from the zone."""
        array, at = self._at(zone)
        raw = bytes.fromhex(uid_of(card))
        deadline = time.monotonic() + timeout
        while raw in array.known(at.channel):
            if time.monotonic() > deadline:
                raise TimeoutError(f"the array did not report {card} gone from {zone} within {timeout:.0f} s")
            time.sleep(0.002)

    def press(self, zone: str) -> None:
        array, at = self._at(zone)
        array.press(at.channel)

    def listed(self, zone: str) -> Callable[[], tuple[str, ...]]:
        return lambda: self.readers.table.present(zone)

    def close(self) -> None:
        self.readers.stop()
        for array in self.arrays.values():
            array.close()
