"""Benchmark: many tables, one venue (issue 16) — N tables publish through one local Mosquitto to
one venue service; how long a move takes from the table to the venue page, and what the broker and
the venue cost as N grows.

Three kinds of process share the machine:

- the *broker*: Debian's mosquitto on a free loopback port (no TLS, anonymous: the cost of TLS is
  the handshake at connect and a cipher per message, not measured here);
- the *venue*: ``companion venue`` in its own process, as a venue machine runs it (collector,
  SQLite store, the venue page over waitress);
- the *tables*: N real sessions (Escape Master, the same replayed game at every table), each with
  its own hash-chained log and the real :class:`~companion.publish.TablePublisher` (its own paho
  client and thread), in this process. Their logs live on /dev/shm when it exists: every table has
  its own disk on its own Pi, and N tables fsyncing one shared disk would measure the disk.

This process also opens the venue page's live stream (``/events``): a move's latency is the moment
the stream says the venue stored that table's seq, minus the moment just before the table's
session was handed the move (one monotonic clock). A page then fetches ``/api/tables`` once; that
fetch is timed separately (a reader polls it throughout), and the page's p99 is at most the sum.

Two loads per N: *table rate* (each table one move every ``--interval`` seconds, with jitter, as
people play) and a *burst* (every table logs ``--burst`` moves at once, as after a reader array
reconnects). At the end every table's events must be at the venue, once and in order.

    .venv/bin/python bench/venue.py [--quick] [--tables 10 50 200] [--seconds 30] [--json]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from companion.venue.broker import BrokerConfig  # noqa: E402
from companion.core import Observation, ObservationKind  # noqa: E402
from companion.games import get_game  # noqa: E402
from companion.games.escape_master.playout import random_playout  # noqa: E402
from companion.log.store import GameLog  # noqa: E402
from companion.venue.publish import TablePublisher  # noqa: E402
from companion.referee.session import Session  # noqa: E402

VENUE = "bench"
MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
TICKS = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_port(port: int, what: str) -> None:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"{what} did not start on port {port}")


def cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def memory_mb(pid: int) -> tuple[float, float]:
    """(RSS now, peak RSS) in MB."""
    values = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(("VmRSS:", "VmHWM:")):
            values[line.split(":")[0]] = int(line.split()[1]) / 1024
    return values.get("VmRSS", 0.0), values.get("VmHWM", 0.0)


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))]


class Stream(threading.Thread):
    """The venue page's live stream: stamps when the venue stored each table's seqs."""

    def __init__(self, port: int) -> None:
        super().__init__(name="venue-stream", daemon=True)
        self.port = port
        self.seen: dict[str, int] = {}
        self.arrived: dict[tuple[str, int], float] = {}
        self.lock = threading.Lock()
        self.ready = threading.Event()
        self.stop = threading.Event()

    def run(self) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        conn.request("GET", "/events")
        response = conn.getresponse()
        self.ready.set()
        event = ""
        while not self.stop.is_set():
            line = response.readline()
            if not line:
                return
            text = line.decode().rstrip("\n")
            if text.startswith("event:"):
                event = text[6:].strip()
            elif text.startswith("data:") and event == "changed":
                now = time.monotonic()
                data = json.loads(text[5:])
                with self.lock:
                    for key, seq in data["tables"].items():
                        table = key.split("/", 1)[1]
                        for s in range(self.seen.get(table, 0) + 1, int(seq) + 1):
                            self.arrived[(table, s)] = now
                        self.seen[table] = max(self.seen.get(table, 0), int(seq))


class PageReader(threading.Thread):
    """A venue page refreshing ``/api/tables`` back to back: how long one refresh takes at this N."""

    def __init__(self, port: int) -> None:
        super().__init__(name="venue-page", daemon=True)
        self.port = port
        self.times: list[float] = []
        self.stop = threading.Event()
        self.last: Any = None

    def fetch(self) -> Any:
        """Every table, page by page (``next``), as the venue page reads them: one refresh."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        conn.request("GET", "/api/tables")
        data = json.loads(conn.getresponse().read())
        while data.get("next"):
            conn.request("GET", "/api/tables?after=" + urllib.parse.quote(data["next"]))
            page = json.loads(conn.getresponse().read())
            data = {**page, "tables": data["tables"] + page["tables"]}
        conn.close()
        return data

    def run(self) -> None:
        while not self.stop.is_set():
            t0 = time.monotonic()
            self.last = self.fetch()
            self.times.append(time.monotonic() - t0)
            self.stop.wait(0.5)


TABLES_PER_PROCESS = 50
"""paho's network loop uses select(), which cannot watch a descriptor past 1024: 200 tables' logs
(3 files each) and sockets in one process would pass it. A real table is its own process anyway."""


def table_worker(names: list[str], port: int, folder: str, header_json: dict[str, Any], pipe: Any) -> None:
    """N real sessions with real publishers in one process, driven by the parent over ``pipe``;
    ``sent`` stamps each (table, seq) just before its move goes in."""
    from companion.core import Header

    game = get_game("escape-master")
    _, moves = random_playout(seed=7, max_moves=400)
    notation = [game.codec.to_json(m) for m in moves]
    header = Header(
        game=header_json["game"], players=tuple(header_json["players"]),
        options=header_json.get("options", {}), setup=header_json.get("setup", {}),
    )
    sessions = {n: Session(game, GameLog(Path(folder) / f"{n}.sqlite"), header) for n in names}
    publishers = {
        n: TablePublisher(s, BrokerConfig(host="127.0.0.1", port=port, venue=VENUE, table=n)).start() for n, s in sessions.items()
    }
    played = dict.fromkeys(names, 0)
    sent: dict[str, float] = {}

    def play(name: str) -> None:
        session = sessions[name]
        sent[f"{name}/{session.log.last_seq + 1}"] = time.monotonic()
        session.process(Observation("bench", float(played[name]), ObservationKind.MOVE, notation[played[name]]))
        played[name] += 1

    pipe.send("ready")
    while True:
        command, arg = pipe.recv()
        if command == "rate":
            seconds, interval, seed = arg
            rng = random.Random(seed)
            start = time.monotonic()
            due = {n: start + rng.uniform(0, interval) for n in names}
            while time.monotonic() - start < seconds:
                now = time.monotonic()
                for n in names:
                    if due[n] <= now:
                        play(n)
                        due[n] = now + interval * rng.uniform(0.5, 1.5)
                time.sleep(0.005)
            pipe.send(dict(sent))
            sent.clear()
        elif command == "burst":
            for _ in range(arg):
                for n in names:
                    play(n)
            pipe.send(dict(sent))
            sent.clear()
        elif command == "report":
            pipe.send({
                "last": {n: s.log.last_seq for n, s in sessions.items()},
                "connected": sum(p._connected.is_set() for p in publishers.values()),
                "behind": sum(p.acked < sessions[n].log.last_seq for n, p in publishers.items()),
                "counters": {c: sum(p.counters[c] for p in publishers.values()) for c in ("published", "dropped", "replays", "errors")},
                "rss_mb": memory_mb(os.getpid())[1],
            })
        else:
            for p in publishers.values():
                p.stop()
            for s in sessions.values():
                s.log.close()
            pipe.send("stopped")
            return


class Tables:
    """The N tables, spread over worker processes of :data:`TABLES_PER_PROCESS` tables each."""

    def __init__(self, n: int, port: int, folder: Path, header: Any) -> None:
        import multiprocessing

        ctx = multiprocessing.get_context("spawn")
        names = [f"t{i:03d}" for i in range(n)]
        self.names = names
        self.workers: list[tuple[Any, Any]] = []
        for i in range(0, n, TABLES_PER_PROCESS):
            parent, child = ctx.Pipe()
            proc = ctx.Process(target=table_worker, args=(names[i : i + TABLES_PER_PROCESS], port, str(folder), header.to_json(), child), daemon=True)
            proc.start()
            self.workers.append((proc, parent))
        for _, pipe in self.workers:
            assert pipe.recv() == "ready"

    def ask(self, command: str, arg: Any = None) -> list[Any]:
        for _, pipe in self.workers:
            pipe.send((command, arg))
        return [pipe.recv() for _, pipe in self.workers]

    def stamps(self, command: str, arg: Any) -> dict[tuple[str, int], float]:
        out: dict[tuple[str, int], float] = {}
        for part in self.ask(command, arg):
            for key, t in part.items():
                table, seq = key.split("/")
                out[(table, int(seq))] = t
        return out

    def report(self) -> dict[str, Any]:
        parts = self.ask("report")
        return {
            "last": {k: v for p in parts for k, v in p["last"].items()},
            "connected": sum(p["connected"] for p in parts),
            "behind": sum(p["behind"] for p in parts),
            "counters": {c: sum(p["counters"][c] for p in parts) for c in parts[0]["counters"]},
            "rss_mb": sum(p["rss_mb"] for p in parts),
            "processes": len(parts),
        }

    def stop(self) -> None:
        self.ask("stop")
        for proc, _ in self.workers:
            proc.join(10)


def run_n(n: int, args: argparse.Namespace, header: Any) -> dict[str, Any]:
    root = Path("/dev/shm") if Path("/dev/shm").is_dir() else None
    folder = Path(tempfile.mkdtemp(prefix="tc-venue-bench-", dir=root))
    bport, vport = free_port(), free_port()
    conf = folder / "mosquitto.conf"
    user = "root" if os.getuid() == 0 else os.environ.get("USER", "nobody")
    conf.write_text(f"user {user}\nlistener {bport} 127.0.0.1\nallow_anonymous true\npersistence false\nmax_queued_messages 100000\n")
    broker = subprocess.Popen([MOSQUITTO, "-c", str(conf)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    venue = subprocess.Popen(
        [sys.executable, "-m", "companion", "venue", "--broker", f"127.0.0.1:{bport}", "--venue", VENUE,
         "--db", str(folder / "venue.sqlite"), "--host", "127.0.0.1", "--port", str(vport)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=str(HERE.parent),
    )
    tables: Tables | None = None
    try:
        wait_port(bport, "mosquitto")
        wait_port(vport, "the venue")
        stream = Stream(vport)
        stream.start()
        stream.ready.wait(10)
        tables = Tables(n, bport, folder, header)
        cpu0 = {"broker": cpu_s(broker.pid), "venue": cpu_s(venue.pid)}
        reader = PageReader(vport)
        reader.start()

        # Table rate: each table a move every --interval seconds (jittered), for --seconds.
        t_start = time.monotonic()
        sent = tables.stamps("rate", (args.seconds, args.interval, n))
        rate_keys = sorted(sent)
        rate_s = time.monotonic() - t_start
        cpu1 = {"broker": cpu_s(broker.pid), "venue": cpu_s(venue.pid)}

        def settle(keys: list[tuple[str, int]]) -> None:
            deadline = time.monotonic() + args.settle
            while time.monotonic() < deadline:
                with stream.lock:
                    if all(k in stream.arrived for k in keys):
                        return
                time.sleep(0.05)

        settle(rate_keys)
        # Burst: every table logs --burst moves at once.
        t_burst = time.monotonic()
        burst = tables.stamps("burst", args.burst)
        sent.update(burst)
        burst_keys = sorted(burst)
        burst_logged_s = max(burst.values()) - t_burst  # the table processes hand in their moves one after another
        settle(burst_keys)
        burst_s = time.monotonic() - t_burst
        cpu2 = {"broker": cpu_s(broker.pid), "venue": cpu_s(venue.pid)}
        reader.stop.set()
        reader.join(30)
        final = reader.fetch()

        def latencies(keys: list[tuple[str, int]]) -> tuple[list[float], int]:
            with stream.lock:
                got = [stream.arrived[k] - sent[k] for k in keys if k in stream.arrived]
            return got, len(keys) - len(got)

        rate_lat, rate_missing = latencies(rate_keys)
        burst_lat, burst_missing = latencies(burst_keys)
        stored = {t["table"]: t["stored"] for t in final["tables"]}
        at_tables = tables.report()
        complete = all(stored.get(name) == last for name, last in at_tables["last"].items())
        return {
            "tables": n,
            "rate": {
                "events": len(rate_keys), "events_per_s": len(rate_keys) / rate_s,
                "p50_ms": 1000 * pct(rate_lat, 0.5), "p99_ms": 1000 * pct(rate_lat, 0.99), "max_ms": 1000 * max(rate_lat or [0.0]),
                "missing": rate_missing,
                "broker_cpu_pct": 100 * (cpu1["broker"] - cpu0["broker"]) / rate_s,
                "venue_cpu_pct": 100 * (cpu1["venue"] - cpu0["venue"]) / rate_s,
            },
            "burst": {
                "events": len(burst_keys), "drain_s": burst_s, "logged_s": burst_logged_s,
                "p50_ms": 1000 * pct(burst_lat, 0.5), "p99_ms": 1000 * pct(burst_lat, 0.99), "missing": burst_missing,
                "broker_cpu_s": cpu2["broker"] - cpu1["broker"], "venue_cpu_s": cpu2["venue"] - cpu1["venue"],
            },
            "page_fetch_p99_ms": 1000 * pct(reader.times, 0.99),
            "page_fetches": len(reader.times),
            "broker_mb": memory_mb(broker.pid),
            "venue_mb": memory_mb(venue.pid),
            "tables_mb": at_tables["rss_mb"],
            "complete": complete,
            "venue_status": final.get("status"),
            "publishers": {k: at_tables[k] for k in ("connected", "behind", "counters", "processes")},
        }
    finally:
        if tables is not None:
            tables.stop()
        for proc in (venue, broker):
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
        shutil.rmtree(folder, ignore_errors=True)


def report(results: list[dict[str, Any]], args: argparse.Namespace) -> None:
    head = (f"{'tables':>6} {'ev/s':>6} {'rate p50':>9} {'rate p99':>9} {'burst ev':>9} {'drain s':>8} {'burst p99':>10}"
            f" {'page p99':>9} {'broker %':>9} {'venue %':>8} {'broker MB':>10} {'venue MB':>9} {'complete':>9}")
    print(head)
    print("-" * len(head))
    for r in results:
        a, b = r["rate"], r["burst"]
        print(f"{r['tables']:>6} {a['events_per_s']:>6.1f} {a['p50_ms']:>7.1f}ms {a['p99_ms']:>7.1f}ms {b['events']:>9} {b['drain_s']:>8.2f}"
              f" {b['p99_ms']:>8.0f}ms {r['page_fetch_p99_ms']:>7.1f}ms {a['broker_cpu_pct']:>8.1f}% {a['venue_cpu_pct']:>7.1f}%"
              f" {r['broker_mb'][1]:>10.1f} {r['venue_mb'][1]:>9.1f} {'yes' if r['complete'] else 'NO':>9}")
    print()
    for r in results:
        b = r["burst"]
        print(f"N={r['tables']}: the tables took {b['logged_s']:.2f} s to log the burst (the last move handed in);"
              f" burst CPU s — broker {b['broker_cpu_s']:.2f}, venue {b['venue_cpu_s']:.2f};"
              f" missing at the stream: rate {r['rate']['missing']}, burst {b['missing']}; tables' processes peak RSS {r['tables_mb']:.0f} MB;"
              f" venue counters {json.dumps(r['venue_status'], sort_keys=True)}; publishers {json.dumps(r['publishers'])}")
    print(f"table rate: one move per table every {args.interval:.1f} s (x0.5-1.5 jitter) for {args.seconds:.0f} s; burst: {args.burst} moves"
          " at every table at once. Latency: table session handed the move -> the venue page's /events says stored"
          " (one monotonic clock); page p99: one /api/tables fetch; MB: peak RSS (VmHWM); % of one core.")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[10, 50, 200])
    parser.add_argument("--seconds", type=float, default=30.0, help="length of the table-rate run per N (default 30)")
    parser.add_argument("--interval", type=float, default=3.0, help="seconds between a table's moves (default 3)")
    parser.add_argument("--burst", type=int, default=20, help="moves every table logs at once (default 20)")
    parser.add_argument("--settle", type=float, default=120.0, help="how long to wait for the venue to have everything")
    parser.add_argument("--quick", action="store_true", help="10 s per N (about two minutes in all on 2 cores)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.quick:
        args.seconds = 10.0
    if not Path(MOSQUITTO).exists():
        print("mosquitto is not installed: run 'make broker'", file=sys.stderr)
        return 2
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # 200 tables: a socket and a log (3 files) each
    header, moves = random_playout(seed=7, max_moves=400)  # each table process replays the same game
    need = int(args.seconds / (args.interval * 0.5)) + args.burst + 2
    if len(moves) < need:
        print(f"the replayed game has {len(moves)} moves; this run needs {need}", file=sys.stderr)
        return 2
    results = [run_n(n, args, header) for n in args.tables]
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        report(results, args)
    return 0 if all(r["complete"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
