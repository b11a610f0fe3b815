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

It also states the array's **poll round** for 8 and 16 readers (hardware/polltime.py): the
firmware's own code polls the simulated field and every SPI transaction and RF exchange it makes is
counted, then timed. The SPI clock, the RF framing, the answer timer and the pad guard are exact;
MicroPython's own time per SPI transaction is *cited* (50 us, or 90 us with two 20 us Pin.value()
calls on top: the sources are in hardware/polltime.py) unless ``--access-us`` gives the figure
``companion hw check --timing`` *measured* on a Pico. Every line says which.
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
from hardware.polltime import CITED, CITED_PINS_ON_TOP, SPI_BAUD, AccessCost, count_polls, field_on_guard_s, poll_rounds  # noqa: E402
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
# The model is hardware/polltime.py's (also run by `companion hw check --timing` with the figures an
# array measured). Which figures are exact, cited or measured is said in every line it prints.


def poll_report(access_us: float | None) -> dict[str, Any]:
    """Per reader state and layout, in ms: cited low and high, and measured when ``access_us`` is given."""
    counts = count_polls()
    costs = [CITED, CITED_PINS_ON_TOP]
    if access_us is not None:
        costs.append(AccessCost(access_us * 1e-6, f"measured on a Pico: {access_us:g} us a transaction (companion hw check --timing)", True))
    return {
        "counts": counts,
        "costs": costs,
        "poll_costs": {
            state: {"spi_accesses": c.transactions, "spi_bytes": c.spi_bytes, "exchanges": c.exchanges, "timeouts": c.timeouts,
                    "ms": c.seconds(costs[0]) * 1000, **{f"ms_{i}": c.seconds(cost) * 1000 for i, cost in enumerate(costs)}}
            for state, c in counts.items()
        },
        "poll_rounds_ms": {str(i): poll_rounds(counts, cost) for i, cost in enumerate(costs)},
        "sources": {str(i): {"source": cost.source, "measured": cost.measured, "transaction_us": cost.transaction_s * 1e6}
                    for i, cost in enumerate(costs)},
    }


def report_poll_round(report: dict[str, Any]) -> None:
    costs: list[AccessCost] = report["costs"]
    guard_ms = field_on_guard_s() * 1000
    print(f"reader array poll round (SPI {SPI_BAUD / 1e6:g} MHz, 106 kbit/s RF, 1 ms answer timer, {guard_ms:g} ms pad field-on guard: "
          "exact, from the standards and the firmware's own code):")
    for i, cost in enumerate(costs):
        print(f"  [{i}] MicroPython per chip-select transaction {cost.transaction_s * 1e6:.0f} us, "
              f"{'MEASURED' if cost.measured else 'CITED, not measured'}: {cost.source}")
    print(f"  {'reader state':<32} {'SPI accesses':>12} {'bytes':>6} {'exchanges':>9} {'timed out':>9}  " + "  ".join(f"ms [{i}]" for i in range(len(costs))))
    for state, c in report["counts"].items():
        times = "  ".join(f"{c.seconds(cost) * 1000:6.2f}" for cost in costs)
        print(f"  {state:<32} {c.transactions:12.1f} {c.spi_bytes:6.1f} {c.exchanges:9.1f} {c.timeouts:9.1f}  {times}")
    rounds = report["poll_rounds_ms"]
    for layout in rounds["0"]:
        times = "  ".join(f"{rounds[str(i)][layout]:6.1f}" for i in range(len(costs)))
        print(f"  {layout:<68} {times} ms per round")
    print("  a pad's card departs after 3 missed rounds; a pile checks 2 of its cards per round, so with 20 cards "
          "each is checked every 10 rounds and departs after 2 missed checks")
    print("  not in these figures: garbage collection pauses and the USB writes of frames (the array's measured round has them: "
          "companion hw check --timing)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rate", type=float, default=2000.0, help="events per second to send (default 2000)")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--channels", type=int, default=8)
    parser.add_argument("--debounce", type=float, default=0.0, help="the table model's debounce window (default off)")
    parser.add_argument("--no-session", action="store_true", help="skip the line-in to verdict run")
    parser.add_argument("--json", action="store_true", help="print one JSON object (every run's figures) instead of the text")
    parser.add_argument("--poll-round", action="store_true", help="only the reader array's poll round for 8 and 16 readers")
    parser.add_argument("--access-us", type=float, default=None,
                        help="MicroPython's time per SPI transaction as measured on a Pico (companion hw check --timing prints it)")
    args = parser.parse_args(argv)
    polls = poll_report(args.access_us)
    costs, rounds = polls["poll_costs"], {"sources": polls["sources"], **polls["poll_rounds_ms"]}
    if args.poll_round:
        if args.json:
            print(json.dumps({"poll_costs": costs, "poll_rounds_ms": rounds}))
        else:
            report_poll_round(polls)
        return 0
    if not args.json:
        report_poll_round(polls)
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
