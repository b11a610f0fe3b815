"""Verdict -> LED: how long from the referee's verdict to the light at the zone (issue 25).

The real Session (Escape Master, a log on disk) judges TAG observations of pile 1 as the table model
makes them: ben's 2 laid on the pile's 7 (illegal: red, held) and taken back (dark), in turn. The
zones' lights (companion/app/lights.py) go to the real bridge, which writes L frames down a pty to
the real firmware (tcarray.py, tcleds.py) polling simulated readers, whose LED chain records each
write. Three moments per verdict:

- verdict: the session's listener is told of the row (written durably, published to the screens);
- written: the bridge's writer thread has written the L frame to the port;
- seen: the simulated array's LED chain shows it (the firmware read it between polling rounds).

    .venv/bin/python bench/lights.py [--count 200] [--json]

Each verdict waits for its light before the next: this is latency, not throughput.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from companion.app.lights import TableLights
from companion.app.readers import TableReaders
from companion.app.config import ArrayConfig
from companion.core import Header, Observation, ObservationKind, Zone
from companion.core.seen import TagEvent, TagSeen
from companion.core.zones import HAND_PAD, PILE
from companion.demo.rig import uid_of
from companion.games import get_game
from companion.log.store import GameLog
from companion.referee.session import Session
from companion.table.registry import TagRegistry
from hardware.sim.firmware_array import FirmwareArray

HANDS = {
    "anna": ["start-1", "teen-8", "teen-9", "robot-10", "joe-J", "teen-3", "teen-4", "trap-up-1", "escape-1", "wisdom-1"],
    "ben": ["start-2", "robot-6", "robot-5", "mouse-8", "robot-8", "doom-K", "joe-2", "escape-discard-1", "dead-end", "ninja-Q"],
}
ZONES = (
    Zone("pile-1", PILE, index=1, reader="array:0"),
    Zone("hand-anna", HAND_PAD, player="anna", reader="array:1"),
    Zone("hand-ben", HAND_PAD, player="ben", reader="array:2"),
)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q / 100 * (len(ordered) - 1))))]


def tag(card: str, event: TagEvent) -> Observation:
    return TagSeen(ZONES[0].ref(), event, uid_of(card), card, time.time()).observation("array:0")


def run(count: int) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="bench-lights-"))
    registry = TagRegistry(folder / "tags.json", "escape-master")
    game = get_game("escape-master")
    session = Session(game, GameLog(folder / "game.sqlite"), Header("escape-master", ("anna", "ben"), {}, {"dealer": "anna", "hands": HANDS}))
    verdicts: list[float] = []
    told = threading.Event()

    def stamp(rows: Any, board: Any) -> None:
        if any(row.payload.get("card") == "joe-2" for row in rows):
            verdicts.append(time.monotonic())
            told.set()

    session.subscribe(stamp)  # before the lights: told first, as any screen is
    session.start()
    array = FirmwareArray(3, kinds=["pile", "pad", "pad"], link=folder / "array-tty", heartbeat_ms=1000, leds=True)
    array.plug()
    readers = TableReaders(ZONES, registry, session.submit, arrays={"": ArrayConfig(str(folder / "array-tty"))})
    readers.start()
    bridge = readers.context.links["array"].link
    lights = TableLights.for_readers(ZONES, readers)
    lights.attach(session)
    written: list[float] = []
    seen: list[float] = []
    try:
        deadline = time.monotonic() + 15
        while bridge.lights.leds != 3:
            if time.monotonic() > deadline:
                raise SystemExit("the simulated array never said it drives 3 LEDs")
            time.sleep(0.01)
        session.submit(Observation("bench", time.time(), ObservationKind.MOVE, {"by": "anna", "do": "start"})).result(10)
        session.submit(tag("start-1", TagEvent.ARRIVE)).result(10)
        array.wait_colour(0, lambda c: c == (0, 0, 0))
        for i in range(count):
            event, colour = (TagEvent.ARRIVE, (255, 0, 0)) if i % 2 == 0 else (TagEvent.DEPART, (0, 0, 0))
            before_writes, before_lit = len(bridge.lights.written), len(array.lit())
            told.clear()
            session.submit(tag("joe-2", event)).result(10)
            told.wait(10)
            array.wait_colour(0, lambda c, want=colour: c == want)
            while len(bridge.lights.written) == before_writes:  # the writer notes the time just after its write
                time.sleep(0.0005)
            sent = [at for channel, _, at in list(bridge.lights.written)[before_writes:] if channel == 0]
            lit = [w.at for w in array.lit()[before_lit:] if w.colours[0] == colour]
            written.append(sent[0])
            seen.append(lit[0])
    finally:
        lights.detach()
        readers.stop()
        array.close()
        session.stop()
    to_written = [(w - v) * 1000 for v, w in zip(verdicts[-count:], written)]
    to_seen = [(s - v) * 1000 for v, s in zip(verdicts[-count:], seen)]
    return {
        "verdicts": count,
        "written_p50_ms": percentile(to_written, 50),
        "written_p99_ms": percentile(to_written, 99),
        "seen_p50_ms": percentile(to_seen, 50),
        "seen_p99_ms": percentile(to_seen, 99),
        "seen_mean_ms": statistics.mean(to_seen),
        "superseded": bridge.lights.queue.superseded,
        "refused": readers.health.status("array").get("led_refused", 0),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=200, help="verdicts (alternately red and dark), default 200")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    figures = run(args.count)
    if args.json:
        print(json.dumps(figures))
        return 0
    print(f"verdict -> LED over {figures['verdicts']} verdicts (real Session, bridge over a pty, the firmware's own code):")
    print(f"  L frame written by the bridge   p50 {figures['written_p50_ms']:6.2f} ms   p99 {figures['written_p99_ms']:6.2f} ms")
    print(f"  lit by the simulated array      p50 {figures['seen_p50_ms']:6.2f} ms   p99 {figures['seen_p99_ms']:6.2f} ms")
    print(f"  lights superseded before sent: {figures['superseded']}; frames refused by the array: {figures['refused']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
