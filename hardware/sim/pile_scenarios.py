"""Issue 24's "Done when" for the ISO 15693 pile, as runs of :class:`~hardware.sim.pile_rig.PileRig`:
cards slapped one after another (how long each takes to be reported), a pile lifted whole (how long
until it is cleared), and hands resting on a pile for hours beside polling pads (false departures).
bench/pile15693.py prints the figures; tests/firmware/test_pile15693.py runs short forms.

The layout: one ISO 15693 pile (channel 0) between two RC522 pads (channels 1 and 2), each pad a
neighbour of the pile (its field, while on, reaches the pile's tags) and holding a card of its own.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from hardware.sim.pile_rig import PileRig

LAYOUT = ["vpile", "pad", "pad"]
NEIGHBOURS = ((0, 1), (0, 2), (1, 2))
PILE = 0
PADS = (1, 2)


def slix_uids(rng: random.Random, n: int) -> list[bytes]:
    """ICODE SLIX2-like UIDs: E0 (ISO 15693), 04 (NXP), 01, then five random bytes."""
    out: list[bytes] = []
    while len(out) < n:
        uid = bytes((0xE0, 0x04, 0x01)) + bytes(rng.randrange(256) for _ in range(5))
        if uid not in out:
            out.append(uid)
    return out


def pad_uids(rng: random.Random) -> list[bytes]:
    return [bytes((0x04, 0x11 + i)) + bytes(rng.randrange(256) for _ in range(5)) for i in range(len(PADS))]


def table_rig(seed: int) -> PileRig:
    """The layout booted, a card on each pad, settled."""
    rng = random.Random(seed)
    rig = PileRig(LAYOUT, neighbours=NEIGHBOURS, seed=seed)
    rig.boot()
    for pad, uid in zip(PADS, pad_uids(rng)):
        rig.field.chips[pad].place(uid)
    rig.run(2000)
    return rig


@dataclass
class SlapRun:
    latencies_ms: list[int | None] = field(default_factory=list)
    """Per card slapped: from landing to its arrival frame (None: not within 5 s)."""
    lift_ms: int | None = None
    """From lifting the whole pile to the last of its departures."""
    false_departures: int = 0
    """Departures sent while every card still lay where it was put (pile or pads)."""


def slap_run(seed: int, cards: int = 25, min_gap_ms: int = 1000, max_gap_ms: int = 1300) -> SlapRun:
    """``cards`` cards slapped on the pile one at a time, ``min_gap_ms``-``max_gap_ms`` apart, then the pile lifted."""
    rng = random.Random(seed)
    rig = table_rig(seed)
    out = SlapRun()
    start = len(rig.frames)
    for uid in slix_uids(rng, cards):
        landed = rig.clock.ms()
        out.latencies_ms.append(rig.place_until_reported(PILE, uid))
        rig.run_until(landed + rng.randint(min_gap_ms, max_gap_ms))
    out.false_departures = sum(1 for f in rig.tag_frames(start) if f.event == "depart")
    out.lift_ms = rig.lift_until_cleared(PILE)
    return out


@dataclass
class HandsRun:
    seconds: float
    hand_changes: int = 0
    false_departures: list[str] = field(default_factory=list)
    """The departures sent, as "channel:uid" (every card stays put: each is a false one)."""
    censuses: int = 0


def hands_run(seed: int, seconds: float, cards: int = 25, rest_s: tuple[float, float] = (2.0, 60.0)) -> HandsRun:
    """A full pile left for ``seconds`` while hands rest on it and lift off in turn (each rest and
    each pause ``rest_s`` long, at random), the pads beside it polling their cards."""
    rng = random.Random(seed)
    rig = table_rig(seed)
    pile = rig.piles[PILE]
    for uid in slix_uids(rng, cards):
        rig.place_until_reported(PILE, uid)
        rig.run(300)
    rig.run(3000)
    start = len(rig.frames)
    out = HandsRun(seconds)
    end = rig.clock.ms() + seconds * 1000
    while rig.clock.ms() < end:
        rig.run_until(min(end, rig.clock.ms() + rng.uniform(*rest_s) * 1000))
        pile.rest_hand(not pile.hand)
        out.hand_changes += 1
    out.false_departures = [f"{f.channel}:{f.uid}" for f in rig.tag_frames(start) if f.event == "depart"]
    out.censuses = sum(int(dict(f.figures).get("censuses", 0)) for f in rig.frames[start:] if hasattr(f, "figures"))
    return out
