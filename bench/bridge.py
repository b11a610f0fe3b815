"""Benchmark: the reader-array path, serial line in -> TAG observation out (and -> logged verdict).

A simulated array writes frames into a pty at a steady rate; the real bridge reads them, the real
table model turns them into observations. Measured:

- sustained events per second with nothing lost and nothing reordered (target 2,000/s);
- latency from the moment a line is written to the moment its observation reaches the sink,
  p50 / p99 / max (target p99 < 20 ms here);
- with ``companion.referee.session`` present: the same, up to the durable log row with its verdict
  (Session.submit -> future resolved), through a real game and a real SQLite log.

    .venv/bin/python bench/bridge.py [--rate 2000] [--seconds 5] [--channels 8] [--debounce 0] [--json]
    .venv/bin/python bench/bridge.py --poll-round       # only the array's poll round (below)

Debounce holds departures by design (DESIGN: a flicker is not a move); the order check and the
latency figures are taken with it off unless ``--debounce`` is given.

It also states the array's **poll round** for 8 and 16 readers: the firmware's own code polls the
simulated field (hardware/sim/field.py) and every SPI register access and every RF exchange it makes
is counted; each is then timed from the SPI clock (main.py's SPI_BAUD) and the RF timings the
firmware uses (106 kbit/s framing, the 1 ms answer timer it programs, the 5 ms field-on guard of a
switched pad). MicroPython's own cost per register access is an estimate until measured on a Pico.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from companion.core import Observation, Zone  # noqa: E402
from companion.core.zones import PILE  # noqa: E402
from companion.table.model import TableModel  # noqa: E402
from hardware.bridge import ArrayBridge  # noqa: E402
from hardware.health import HealthBoard  # noqa: E402
from hardware.sim.array import SimulatedArray  # noqa: E402


class Cards:
    """Every bench tag is enrolled (a registry without a file): tag i is ``deck[i % len(deck)]``,
    or ``card-<uid>`` with no deck."""

    game = "bench"

    def __init__(self, deck: list[str] | None = None) -> None:
        self.deck = deck or []

    def card_for(self, uid: str) -> str | None:
        return self.deck[int(uid, 16) % len(self.deck)] if self.deck else f"card-{uid}"


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def wait(condition: Callable[[], bool], timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.005)
    return True


def script(count: int, channels: int) -> list[tuple[int, str, str]]:
    """Arrive/depart pairs, a fresh uid each, round-robin over the channels."""
    out = []
    for i in range(count // 2):
        uid = f"{i:08x}"
        channel = i % channels
        out.append((channel, uid, "arrive"))
        out.append((channel, uid, "depart"))
    return out


def send(sim: SimulatedArray, events: list[tuple[int, str, str]], rate: float, sent_at: list[float]) -> None:
    """Write the events at ``rate`` per second, catching up in bursts as the scheduler allows."""
    start = time.perf_counter()
    i = 0
    while i < len(events):
        due = min(len(events), int((time.perf_counter() - start) * rate) + 1)
        while i < due:
            channel, uid, event = events[i]
            sent_at[i] = time.perf_counter()
            (sim.arrive if event == "arrive" else sim.depart)(channel, uid)
            i += 1
        time.sleep(0.0005)


def run_once(
    rate: float, seconds: float, channels: int, debounce: float, sink_factory: Callable[[Callable[[int, float], None]], Any]
) -> dict[str, Any]:
    events = script(int(rate * seconds) // 2 * 2, channels)
    index = {(uid, event): i for i, (_, uid, event) in enumerate(events)}
    sent_at = [0.0] * len(events)
    got_at: list[float] = [0.0] * len(events)
    order: list[int] = []
    lock = threading.Lock()

    def arrived(i: int, at: float) -> None:
        with lock:
            got_at[i] = at
            order.append(i)

    zones = [Zone(f"slot-{ch}", PILE, index=ch + 1, reader=f"array:{ch}") for ch in range(channels)]
    sink, finish, cards = sink_factory(arrived)

    def to_index(observation: Observation) -> int:
        return index[(observation.payload["uid"], observation.payload["event"])]

    with tempfile.TemporaryDirectory() as tmp:
        health = HealthBoard()
        sim = SimulatedArray(channels, link=Path(tmp) / "array", heartbeat_s=0.5)
        sim.plug()
        table = TableModel(zones, cards, lambda obs: sink(obs, to_index(obs)), health=health, debounce_s=debounce)
        bridge = ArrayBridge(sim.port, table.reader_event, health)
        bridge.start()
        try:
            if not wait(lambda: health.status("array")["status"] == "ok", 10):
                raise SystemExit("the bridge did not open the pty")
            sim.heartbeat()
            time.sleep(0.2)  # the clock map learns the offset from a heartbeat first
            sender = threading.Thread(target=send, args=(sim, events, rate, sent_at))
            t0 = time.perf_counter()
            sender.start()
            sender.join()
            complete = wait(lambda: len(order) >= len(events), 30 + debounce)
            rows = finish()
            elapsed = (max(got_at) if order else time.perf_counter()) - t0
        finally:
            bridge.stop()
            table.stop()
            sim.close()
    latencies = [(got_at[i] - sent_at[i]) * 1000 for i in order]
    return {
        "events": len(events),
        "received": len(order),
        "complete": complete,
        "in_order": order == sorted(order),
        "rate": len(order) / elapsed if elapsed > 0 else 0.0,
        "p50": percentile(latencies, 50) if latencies else float("nan"),
        "p99": percentile(latencies, 99) if latencies else float("nan"),
        "max": max(latencies) if latencies else float("nan"),
        "mean": statistics.fmean(latencies) if latencies else float("nan"),
        "bad_frames": health.status("array")["bad_frames"],
        "gaps": health.status("array")["gaps"],
        "dropped_by_sim": sim.dropped,
        **({"rows": rows} if rows is not None else {}),
    }


Sink = tuple[Callable[[Observation, int], None], Callable[[], dict[str, int] | None], Cards]


def observation_sink(arrived: Callable[[int, float], None]) -> Sink:
    def sink(observation: Observation, i: int) -> None:
        arrived(i, time.perf_counter())

    return sink, lambda: None, Cards()


def session_sink(arrived: Callable[[int, float], None]) -> Sink:
    """Observations into a real Session (escape-master, a real SQLite log); done = the row is durable.

    Tags are enrolled as the game's own cards, so arrivals at piles become plays the engine judges
    (most are illegal here: nobody dealt; an illegal verdict is a verdict all the same)."""
    from companion.core import Header
    from companion.games import get_game
    from companion.log.store import GameLog
    from companion.referee.session import Session

    tmp = tempfile.TemporaryDirectory()
    game_log = GameLog(Path(tmp.name) / "bench.sqlite")
    session = Session(get_game("escape-master"), game_log, Header("escape-master", ("anna", "ben"), {}, {"dealer": "anna"}))
    session.start()
    outcomes: dict[str, int] = {"verdict": 0, "alert": 0, "error": 0, "none": 0}

    def sink(observation: Observation, i: int) -> None:
        future = session.submit(observation)

        def done(f: Future[Any], i: int = i) -> None:
            at = time.perf_counter()
            row = f.result()
            key = "verdict" if row.verdict is not None else "alert" if row.alert else "error" if row.error else "none"
            outcomes[key] += 1
            arrived(i, at)

        future.add_done_callback(done)

    def finish() -> dict[str, int]:
        session.stop()
        game_log.close()
        tmp.cleanup()
        return outcomes

    deck = sorted(getattr(getattr(session.state, "table", None), "cards", {}) or [])
    return sink, finish, Cards(deck)


def report(title: str, r: dict[str, Any]) -> None:
    ok = "no loss" if r["received"] == r["events"] else f"LOST {r['events'] - r['received']}"
    order = "in order" if r["in_order"] else "REORDERED"
    print(f"  {title}")
    print(f"    {r['received']}/{r['events']} events, {ok}, {order}; sustained {r['rate']:.0f} events/s")
    print(f"    latency ms: p50 {r['p50']:.2f}  p99 {r['p99']:.2f}  max {r['max']:.2f}  (mean {r['mean']:.2f})")
    print(f"    bad frames {r['bad_frames']}, gaps {r['gaps']}, dropped by the simulator {r['dropped_by_sim']}")
    if "rows" in r:
        print(f"    rows: {r['rows']}")


# -- the poll round ---------------------------------------------------------------------------

SPI_BAUD = 1_000_000
"""firmware/main.py's SPI clock."""
MICROPYTHON_PER_ACCESS_S = 25e-6
"""Estimate: two chip-select toggles, an spi.write/read call and a bytes object per register access
(one chip-select transaction) in MicroPython on a 125 MHz RP2040 (not measured on hardware yet)."""
RF_BIT_S = 128 / 13.56e6
"""One bit at 106 kbit/s (ISO/IEC 14443-2): 9.44 us."""
FDT_S = 1172 / 13.56e6
"""Frame delay time before a tag answers (ISO/IEC 14443-3, last bit 0): 86 us."""
TIMEOUT_S = 40 * 25e-6
"""mfrc522.py: TReload 40 ticks of 25 us: 1 ms waited for an answer that never comes."""
FIELD_ON_GUARD_S = 5e-3
"""mfrc522.py FIELD_ON_GUARD_MS: a switched pad's field is on 5 ms before its first REQA."""


def _air_s(tx_bits: int, rx_bits: int | None) -> float:
    """One exchange on the air: the reader's frame (a parity bit per byte, SOF/EOF), then the answer or the timer."""
    tx = (tx_bits + tx_bits // 8 + 2) * RF_BIT_S
    if rx_bits is None:
        return tx + TIMEOUT_S
    return tx + FDT_S + (rx_bits + rx_bits // 8 + 2) * RF_BIT_S


def poll_costs(rounds: int = 40) -> dict[str, dict[str, float]]:
    """Per reader state: SPI accesses, exchanges, time-outs and seconds of one poll, averaged."""
    from hardware.sim.field import FieldSettings
    from hardware.sim.firmware import FirmwareRig

    def measure(kind: str, cards: int, landing: bool) -> dict[str, float]:
        rig = FirmwareRig(1, kinds=[kind], settings=FieldSettings(detune_depth=cards + rounds + 1))
        rig.firmware.boot()
        chip, bus = rig.chips[0], rig.field.bus
        for n in range(cards):
            chip.place(bytes([0x04, 0x10 + n, 0x22, 0x30, n, 0x5A, 0xA5]))
            rig.firmware.step()
        for _ in range(5):
            rig.firmware.step()
        accesses = exchanges = timeouts = clocked = 0
        air = guard = 0.0
        for r in range(rounds):
            if landing:
                chip.place(bytes([0x04, 0x77, r, 0x30, 0x01, 0x02, 0x03]))  # a new card every poll
            chip.airlog.clear()
            before, bytes_before = bus.transactions, bus.bytes
            ch = rig.firmware.channels[0]
            rig.firmware._poll(0, ch)
            accesses += bus.transactions - before
            clocked += bus.bytes - bytes_before
            exchanges += len(chip.airlog)
            timeouts += sum(1 for _, rx in chip.airlog if rx is None)
            air += sum(_air_s(tx, rx) for tx, rx in chip.airlog)
            guard += FIELD_ON_GUARD_S if kind == "pad" else 0.0
        spi = clocked * 8 / SPI_BAUD + accesses * MICROPYTHON_PER_ACCESS_S
        return {
            "spi_accesses": accesses / rounds,
            "spi_bytes": clocked / rounds,
            "exchanges": exchanges / rounds,
            "timeouts": timeouts / rounds,
            "ms": (spi + air + guard) / rounds * 1000,
        }

    return {
        "pad, empty": measure("pad", 0, False),
        "pad, one card": measure("pad", 1, False),
        "pile, 20 cards, nothing new": measure("pile", 20, False),
        "pile, 20 cards, a card landing": measure("pile", 20, True),
    }


def poll_rounds(costs: dict[str, dict[str, float]]) -> dict[str, float]:
    """Round times (ms) of two table layouts, from the per-reader costs."""
    c = {k: v["ms"] for k, v in costs.items()}
    return {
        "8 readers: 4 piles of 20, 4 pads empty": 4 * c["pile, 20 cards, nothing new"] + 4 * c["pad, empty"],
        "8 readers: 4 piles of 20 (one card landing), 4 pads with a card": 3 * c["pile, 20 cards, nothing new"]
        + c["pile, 20 cards, a card landing"] + 4 * c["pad, one card"],
        "16 readers: 10 piles of 20, 6 pads empty": 10 * c["pile, 20 cards, nothing new"] + 6 * c["pad, empty"],
        "16 readers: 10 piles of 20 (one card landing), 6 pads with a card": 9 * c["pile, 20 cards, nothing new"]
        + c["pile, 20 cards, a card landing"] + 6 * c["pad, one card"],
    }


def report_poll_round(costs: dict[str, dict[str, float]], rounds: dict[str, float]) -> None:
    print(f"reader array poll round (SPI {SPI_BAUD / 1e6:g} MHz, {MICROPYTHON_PER_ACCESS_S * 1e6:.0f} us MicroPython per access, "
          f"106 kbit/s RF, 1 ms timer, 5 ms pad field-on guard):")
    for state, v in costs.items():
        print(f"  {state:<34} {v['spi_accesses']:6.1f} SPI accesses ({v['spi_bytes']:5.1f} bytes) {v['exchanges']:5.1f} exchanges "
              f"({v['timeouts']:.1f} timed out)  {v['ms']:6.2f} ms")
    for layout, ms in rounds.items():
        print(f"  {layout:<68} {ms:6.1f} ms per round")
    print("  a pad's card departs after 3 missed rounds; a pile checks 2 of its cards per round, so with 20 cards "
          "each is checked every 10 rounds and departs after 2 missed checks")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rate", type=float, default=2000.0, help="events per second to send (default 2000)")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--channels", type=int, default=8)
    parser.add_argument("--debounce", type=float, default=0.0, help="the table model's debounce window (default off)")
    parser.add_argument("--no-session", action="store_true", help="skip the line-in to verdict run")
    parser.add_argument("--json", action="store_true", help="print one JSON object (every run's figures) instead of the text")
    parser.add_argument("--poll-round", action="store_true", help="only the reader array's poll round for 8 and 16 readers")
    args = parser.parse_args(argv)
    costs = poll_costs()
    rounds = poll_rounds(costs)
    if args.poll_round:
        if args.json:
            print(json.dumps({"poll_costs": costs, "poll_rounds_ms": rounds}))
        else:
            report_poll_round(costs, rounds)
        return 0
    if not args.json:
        report_poll_round(costs, rounds)
    say = (lambda *_: None) if args.json else print  # --json: the figures only, as one object at the end
    show = (lambda *_: None) if args.json else report
    say(f"bridge bench: {args.rate:.0f} events/s for {args.seconds:g} s over {args.channels} channels")
    results = {"observation": run_once(args.rate, args.seconds, args.channels, args.debounce, observation_sink)}
    show("serial line in -> TAG observation out", results["observation"])
    results["observation-200"] = run_once(200, 2, args.channels, args.debounce, observation_sink)
    show("the same at 200 events/s (latency without load)", results["observation-200"])
    if not args.no_session:
        try:
            import companion.referee.session  # noqa: F401
        except ImportError:
            say("  line in -> verdict: companion.referee.session is not there yet; skipped")
        else:
            results["verdict"] = run_once(args.rate, args.seconds, args.channels, args.debounce, session_sink)
            show("serial line in -> durable log row with verdict (Session.submit)", results["verdict"])
            results["verdict-200"] = run_once(200, 2, args.channels, args.debounce, session_sink)
            show("the same at 200 events/s (latency without load)", results["verdict-200"])
    failed = any(r["received"] != r["events"] or not r["in_order"] for r in results.values())
    if args.json:
        print(json.dumps({"rate": args.rate, "seconds": args.seconds, "channels": args.channels, "debounce": args.debounce, "runs": results,
                          "poll_costs": costs, "poll_rounds_ms": rounds}))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
