"""By hand, not a test: the attacks of issue 26 (items 1 and 5) on a real Mosquitto, set up as
docs/venue.md says, against the real venue service; prints what they cost the venue.

- item 5: table t1, with its own credentials, publishes 40 boards with made-up game instances, an
  outcome and 20,000 players each, no events behind them; then 60 small made-up finished boards.
  Printed: ``/api/tables`` in bytes and the time to answer it (best of 5), before and after; the
  venue process's resident memory before and after; the collector's and store's counts.
- item 1: t1 publishes 120 KB of nested brackets to its board topic; printed: whether the venue
  still stores another table's rows, and its health.

    .venv/bin/python bench/venue_flood.py
"""

from __future__ import annotations

import gc
import json
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.venue.attack import NESTED, attacked_venue, made_up_board  # noqa: E402
from tests.venue.tables import get_json, wait_for  # noqa: E402


def rss_mb() -> float:
    gc.collect()
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def overview(url: str) -> tuple[int, float]:
    """``/api/tables``: its size in bytes, and the best of 5 answers in ms."""
    times, size = [], 0
    for _ in range(5):
        t0 = time.perf_counter()
        with urllib.request.urlopen(url + "api/tables", timeout=60) as response:
            size = len(response.read())
        times.append(time.perf_counter() - t0)
    return size, min(times) * 1000


def main() -> int:
    tmp = Path(tempfile.mkdtemp(prefix="tc-venue-flood-"))
    with attacked_venue(tmp, seed=1) as attack:
        venue, t2, t1 = attack.venue, attack.t2, attack.t1
        t2.start_game()
        t2.play(len(t2.moves))
        if not wait_for(lambda: venue.store.seqs("cafe", "t2") == list(range(1, t2.service.log.last_seq + 1))):
            print("the venue never held t2's game", file=sys.stderr)
            return 1
        size, ms = overview(venue.url)
        memory = rss_mb()
        print(f"before: /api/tables {size} B in {ms:.1f} ms; process {memory:.1f} MB")
        crowd = [f"p{j}" for j in range(20_000)]
        for i in range(40):
            t1.publish("venue/cafe/t1/board", made_up_board(f"{i:016x}", crowd), qos=1).wait_for_publish(60)
        for i in range(60):
            t1.publish("venue/cafe/t1/board", made_up_board(f"f{i:015x}", ["anna", "ben"]), qos=1).wait_for_publish(60)
        wait_for(lambda: venue.collector.counters["bad"] >= 40 and venue.store.counts()["forgotten_games"] >= 10)
        del crowd
        size, ms = overview(venue.url)
        print(f"after 40 boards of 20,000 players and 60 made-up finished games: /api/tables {size} B in {ms:.1f} ms; "
              f"process {rss_mb():.1f} MB (+{rss_mb() - memory:.1f})")
        standing = get_json(venue.url + "api/standings")
        print(f"standings: {standing['games_total']} finished game(s), from tables {sorted({g['table'] for g in standing['games']})}")
        t1.publish("venue/cafe/t1/board", NESTED, qos=1).wait_for_publish(60)
        t2.start_game()
        t2.play(12)
        ok = wait_for(lambda: venue.store.seqs("cafe", "t2") == list(range(1, t2.service.log.last_seq + 1)), 60)
        health = get_json(venue.url + "healthz")
        print(f"after 120 KB of nested brackets: t2's next game stored whole: {ok}; health {json.dumps(health)}")
        return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
