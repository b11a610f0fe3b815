"""Benchmark: tap -> updated page, with eight phones open (issue 22).

A whole seeded game (the spec's playout, legal moves only) is tapped in over HTTP, one move at a time,
as the pages do it:

- the *service* runs in its own process: the real Session on a SQLite log in a temporary folder, the
  real Flask app under waitress (``start_web``), as ``companion serve`` has them;
- the *phones*: eight, each with its own connections and cookies: one per seated player on that
  player's link (its page, its live stream on ``/events``), the rest watching the scoreboard. A move
  by a player is POSTed from that player's phone (``/api/p/<player>/<token>/move``, with the page's
  CSRF token); a move by nobody from the referee's console, logged in with the PIN;
- *updated* means what a page does on the stream's ``board`` event: a player's phone fetches its own
  view and its builder's offer (``/view``, ``/offer``) at once, on two connections, as
  ``web/static/player.js`` does (``refresh()`` and ``builder.refresh()``, neither awaiting the other); a
  scoreboard phone draws the board the event carries (``web/static/scoreboard.js``), with no fetch.

A tap's time runs from just before its POST to the moment the last of the eight phones has its
update (time.monotonic(), one clock). The service's CPU per tap is its process's CPU time (every
thread, ``time.process_time``, asked of it before the first tap and after the last) over the taps:
on a shared machine it moves far less with other people's load than the wall clock does. The next tap waits ``--pause`` seconds (a person does not tap
within a millisecond of the page settling). The phones are threads of this process, sharing the
machine with the service: on a real table they are other devices, so these figures are an upper bound.
The per-link rate limit is off here (a whole game at machine speed is not a person's pace; it has
its own test, tests/web/test_security_limits.py).

    .venv/bin/python bench/tap_page.py [--game escape-master] [--moves 150] [--phones 8] [--pause 0.05] [--json]
    .venv/bin/python bench/tap_page.py --game escape-house --moves 60 --profile /tmp/eh.prof   # where the CPU goes

Target (issue 22): p99 tap -> page under 100 ms with eight phones.
"""

from __future__ import annotations

import argparse
import http.client
import itertools
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import tap_trace  # noqa: E402  (after the path: run as a script)

TARGET_P99_MS = 100.0
PIN = "24681357"
TIMEOUT_S = 30.0


def serve_main(game_id: str, seed: int, moves: int, folder: str, profile: str | None = None, trace: bool = False) -> None:
    """The service process: a session of the seeded game's header, served; prints its address, the
    players' links and the moves, then serves until its standard input closes. Each ``cpu`` line it
    reads is answered with its CPU seconds so far (every thread: ``time.process_time``). With
    ``profile``, every thread started from here on is profiled (cProfile, one per thread) and the
    merged statistics are written there at the end."""
    profiles = _profile_threads() if profile else []
    from companion.app.config import WebConfig
    from companion.app.service import start_web
    from companion.games import get_spec
    from companion.log.store import GameLog
    from companion.referee.session import Session
    from web.links import player_link

    spec = get_spec(game_id)
    header, played = spec.playout(seed, max_moves=moves, illegal_every=0)
    session = Session(spec.game, GameLog(Path(folder) / "tap.sqlite"), header)
    session.start()
    web = start_web(session, WebConfig(host="127.0.0.1", port=0, threads=32), pin=PIN)
    web.app.config["RATE_LIMITS_OFF"] = True
    traced = tap_trace.install(web) if trace else None
    print(json.dumps({
        "port": int(web.server.effective_port),
        "links": {p: player_link(web.app, p) for p in header.players},
        "moves": [{"move": spec.game.codec.to_json(m), "by": m.by} for m in played],  # by: the actor as the game reads it
    }), flush=True)
    for line in sys.stdin:
        if line.strip() == "cpu":
            times = os.times()
            print(json.dumps({"cpu_s": time.process_time(), "sys_s": times.system}), flush=True)
        elif line.strip() == "trace" and traced is not None:
            print(json.dumps(traced.dump()), flush=True)
    web.close()
    session.stop()
    if profile:
        import pstats

        threading.setprofile(None)  # type: ignore[arg-type, unused-ignore]
        for each in profiles:
            each.disable()
        pstats.Stats(*profiles).dump_stats(profile)


def _profile_threads() -> list[Any]:
    """One cProfile profiler per thread started after this call (cProfile sees only its own thread)."""
    import cProfile

    profiles: list[cProfile.Profile] = []

    def start(frame: Any, event: str, arg: Any) -> None:
        sys.setprofile(None)
        each = cProfile.Profile(time.thread_time)  # CPU, not waiting: what a tap costs
        profiles.append(each)
        each.enable()

    threading.setprofile(start)
    return profiles


_REQUESTS = itertools.count()


class Client:
    """One device's keep-alive connection and its cookies."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT_S)
        self.cookies: dict[str, str] = {}
        self.last: dict[str, Any] = {}
        """The last request: its X-Bench-Id, path, and when it was sent and answered (for --trace)."""

    def request(self, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
        ident = f"{id(self)}-{next(_REQUESTS)}"
        sent = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items()), "Origin": f"http://127.0.0.1:{self.port}",
                "X-Bench-Id": ident, **(headers or {})}
        began = time.monotonic()
        self.conn.request(method, path, body=body, headers=sent)
        resp = self.conn.getresponse()
        data = resp.read()
        self.last = {"id": ident, "path": path, "sent": began, "answered": time.monotonic()}
        for name, value in resp.getheaders():
            if name.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                self.cookies[key.strip()] = rest.split(";", 1)[0]
        return resp.status, data

    def csrf(self, path: str) -> str:
        status, page = self.request("GET", path)
        found = re.search(rb'name="csrf" (?:content|value)="([^"]+)"', page)
        if status != 200 or found is None:
            raise SystemExit(f"bench/tap_page.py: {path} answered {status} with no CSRF token")
        return found.group(1).decode()


@dataclass
class Phone:
    """A phone with a page open: its live stream, and the fetches its page makes on each board."""

    port: int
    name: str
    page: str
    fetches: tuple[str, ...]
    client: Client = field(init=False)
    tapper: Client = field(init=False)
    """The connection taps go on (a browser opens another while the page's fetches are under way)."""
    fetchers: list[Client] = field(init=False)
    """One connection per fetch the page makes at once (the first is ``client``)."""
    token: str = ""
    updated: dict[int, float] = field(default_factory=dict)
    timeline: dict[int, dict[str, Any]] = field(default_factory=dict)
    """Per row: when its board event arrived, and the fetches it made (for --trace)."""
    seen: threading.Condition = field(default_factory=threading.Condition)
    failed: list[str] = field(default_factory=list)

    def open(self) -> None:
        self.client = Client(self.port)
        if self.page.startswith("/p/"):  # a player's page carries the token its taps send
            self.token = self.client.csrf(self.page)
        else:
            self.client.request("GET", self.page)
        self.tapper = Client(self.port)
        self.tapper.cookies = self.client.cookies
        self.fetchers = [self.client] + [Client(self.port) for _ in self.fetches[1:]]
        for other in self.fetchers[1:]:
            other.cookies = self.client.cookies
        threading.Thread(target=self._listen, name=f"phone-{self.name}", daemon=True).start()

    def _listen(self) -> None:
        stream = http.client.HTTPConnection("127.0.0.1", self.port, timeout=TIMEOUT_S * 10)
        stream.request("GET", "/events", headers={"Cookie": "; ".join(f"{k}={v}" for k, v in self.client.cookies.items())})
        resp = stream.getresponse()
        event = ""
        while True:
            line = resp.readline()
            if not line:
                return
            text = line.decode().rstrip("\n")
            if text.startswith("event: "):
                event = text[7:]
            elif text.startswith("data: ") and event == "board":
                arrived = time.monotonic()
                seq = int(json.loads(text[6:]).get("seq", 0))
                fetched: list[dict[str, Any]] = [{} for _ in self.fetches]
                # The page's fetches go out at once, each on its own connection, as a browser sends them.
                others = [threading.Thread(target=self._fetch, args=(i, fetched), daemon=True) for i in range(1, len(self.fetches))]
                for other in others:
                    other.start()
                if self.fetches:
                    self._fetch(0, fetched)
                for other in others:
                    other.join()
                with self.seen:
                    self.updated[seq] = time.monotonic()
                    self.timeline[seq] = {"event": arrived, "fetches": [f for f in fetched if f], "done": self.updated[seq]}
                    self.seen.notify_all()
            elif not text:
                event = ""

    def _fetch(self, i: int, into: list[dict[str, Any]]) -> None:
        client, path = self.fetchers[i], self.fetches[i]
        try:
            status, _ = client.request("GET", path)
            into[i] = client.last
            if status != 200:
                self.failed.append(f"{path}: {status}")
        except (OSError, http.client.HTTPException) as exc:
            self.failed.append(f"{self.name}: {exc}")

    def wait_for(self, seq: int, deadline: float) -> tuple[float, dict[str, Any]]:
        """When the page first showed row ``seq`` (or a later one), and that update's timeline."""
        with self.seen:
            while True:
                done = [(t, s) for s, t in self.updated.items() if s >= seq]
                if done:
                    at, shown = min(done)
                    return at, self.timeline[shown]
                left = deadline - time.monotonic()
                if left <= 0:
                    raise SystemExit(f"bench/tap_page.py: {self.name}'s page never showed row {seq}")
                self.seen.wait(left)


def run(game_id: str, moves: int, phones: int, pause: float, seed: int, profile: str | None = None,
        trace: bool = False) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        server = subprocess.Popen([sys.executable, __file__, "--serve", game_id, str(seed), str(moves), folder,
                                   profile or "", "trace" if trace else ""],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT)

        def service_cpu_s() -> tuple[float, float]:
            """The service process's CPU seconds so far (all its threads), and the part in the kernel."""
            assert server.stdin is not None and server.stdout is not None
            server.stdin.write("cpu\n")
            server.stdin.flush()
            said = json.loads(server.stdout.readline())
            return float(said["cpu_s"]), float(said["sys_s"])

        try:
            assert server.stdout is not None
            started = json.loads(server.stdout.readline())
            port, links, played = started["port"], started["links"], started["moves"]
            seated = list(links)[:phones]
            devices = [Phone(port, p, links[p], (links[p].replace("/p/", "/api/p/", 1) + "/view", links[p].replace("/p/", "/api/p/", 1) + "/offer"))
                       for p in seated]
            # The scoreboard draws the board the event carries (web/static/scoreboard.js): no fetch.
            devices += [Phone(port, f"scoreboard-{k + 1}", "/", ()) for k in range(phones - len(devices))]
            for device in devices:
                device.open()
            referee = Client(port)
            token = referee.csrf("/referee/login")
            status, _ = referee.request("POST", "/referee/login", urlencode({"pin": PIN, "csrf": token}).encode(),
                                        {"Content-Type": "application/x-www-form-urlencoded"})
            if status != 303:
                raise SystemExit(f"bench/tap_page.py: the referee login answered {status}")
            referee_token = referee.csrf("/referee")
            by_player = {d.name: d for d in devices if d.name in links}
            latencies: list[float] = []
            timelines: list[dict[str, Any]] = []
            refused = 0
            cpu_before = service_cpu_s()
            for entry in played:
                time.sleep(pause)
                move, who = entry["move"], entry["by"]
                if who in by_player:
                    device = by_player[who]
                    client, path, token = device.tapper, links[who].replace("/p/", "/api/p/", 1) + "/move", device.token
                else:
                    client, path, token = referee, "/api/referee/move", referee_token
                t0 = time.monotonic()
                status, body = client.request("POST", path, json.dumps({"move": move}).encode(),
                                              {"Content-Type": "application/json", "X-CSRF-Token": token})
                if status not in (200, 201, 409):
                    raise SystemExit(f"bench/tap_page.py: {path} answered {status}: {body[:200]!r}")
                refused += status == 409
                seq = int(json.loads(body)["board"]["seq"])
                deadline = t0 + TIMEOUT_S
                posted = client.last
                shown = {d.name: d.wait_for(seq, deadline) for d in devices}
                done = max(at for at, _ in shown.values())
                latencies.append(done - t0)
                timelines.append({"t0": t0, "post": posted, "done": done, "phones": {n: tl for n, (_, tl) in shown.items()}})
            cpu_after = service_cpu_s()
            if trace:
                assert server.stdin is not None and server.stdout is not None
                server.stdin.write("trace\n")
                server.stdin.flush()
                traced = tap_trace.report(timelines, json.loads(server.stdout.readline()))
            cpu_s, sys_s = cpu_after[0] - cpu_before[0], cpu_after[1] - cpu_before[1]
            failed = [f for d in devices for f in d.failed]
        finally:
            if server.stdin is not None:
                server.stdin.close()
            server.wait(30)
    ms = sorted(1000 * x for x in latencies)
    return {
        "game": game_id, "phones": phones, "taps": len(ms), "refused": refused, "failed_fetches": failed,
        "p50_ms": round(statistics.median(ms), 1), "p99_ms": round(ms[min(len(ms) - 1, int(0.99 * len(ms)))], 1),
        "max_ms": round(ms[-1], 1),
        "service_cpu_ms_per_tap": round(1000 * cpu_s / max(1, len(ms)), 2),
        "service_sys_ms_per_tap": round(1000 * sys_s / max(1, len(ms)), 2),
        "load_average": [round(x, 2) for x in os.getloadavg()],
        **({"trace": traced} if trace else {}),
    }


def main(argv: list[str] | None = None) -> int:
    args = argv if argv is not None else sys.argv[1:]
    if args[:1] == ["--serve"]:
        serve_main(args[1], int(args[2]), int(args[3]), args[4], args[5] or None, args[6] == "trace")
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="escape-master")
    parser.add_argument("--moves", type=int, default=150)
    parser.add_argument("--phones", type=int, default=8)
    parser.add_argument("--pause", type=float, default=0.05, help="seconds between one tap's update and the next tap")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--profile", metavar="FILE", help="cProfile every thread of the service into FILE (pstats); slows it")
    parser.add_argument("--trace", action="store_true", help="lay out where the slowest taps waited (bench/tap_trace.py)")
    opts = parser.parse_args(args)
    result = run(opts.game, opts.moves, opts.phones, opts.pause, opts.seed, opts.profile, opts.trace)
    if opts.json:
        print(json.dumps(result))
    else:
        print(f"{result['game']}: {result['taps']} taps, {result['phones']} phones open ({result['refused']} refused by the rules)")
        ok = "ok" if result["p99_ms"] < TARGET_P99_MS else "SLOW"
        print(f"tap -> every page updated: p50 {result['p50_ms']} ms, p99 {result['p99_ms']} ms {ok}, max {result['max_ms']} ms")
        print(f"service CPU per tap (the move and every phone's update): {result['service_cpu_ms_per_tap']} ms "
              f"({result['service_sys_ms_per_tap']} ms of it in the kernel); "
              f"load average {result['load_average']}")
        if result["failed_fetches"]:
            print(f"failed fetches: {result['failed_fetches'][:5]}")
        print(f"target: p99 < {TARGET_P99_MS:.0f} ms")
        for line in result.get("trace", []):
            print(line)
    return 0 if not result["failed_fetches"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
