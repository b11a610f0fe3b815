"""By hand, not a test: one real table service cut off from a real Mosquitto for a wall-clock minute
while its game goes on, then reconnected; prints how long the venue took to hold every row, and its
counters. The tests model the same outage by the rows logged during it (no sleeping).

    .venv/bin/python bench/venue_outage.py [--seconds 60] [--seed 4]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.venue.conftest import Broker, free_port  # noqa: E402
from tests.venue.tables import start_table, start_venue, wait_for  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="how long the table is cut off (default 60)")
    parser.add_argument("--seed", type=int, default=4, help="the Horrible Mountain 2 playout the table plays")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="tc-venue-outage-"))
    broker = Broker(tmp, free_port())
    broker.start()
    table = start_table(tmp, "t1", broker.port, seed=args.seed)
    venue = start_venue(tmp, broker.port)
    try:
        table.start_game()
        table.play(5)
        if not wait_for(lambda: venue.store.seqs("cafe", "t1") == list(range(1, table.service.log.last_seq + 1))):
            print("the venue never caught up before the outage", file=sys.stderr)
            return 1
        table.cut_off()
        start, n = time.monotonic(), 5
        while n < len(table.moves) - 2:  # the rest of the game, spread over the outage
            n += 1
            table.play(n)
            time.sleep(args.seconds / (len(table.moves) - 8))
        offline = time.monotonic() - start
        print(f"cut off for {offline:.1f} s; the table logged up to row {table.service.log.last_seq}; "
              f"the venue had {len(venue.store.seqs('cafe', 't1'))}")
        table.reconnect()
        table.play(len(table.moves))
        back = time.monotonic()
        ok = wait_for(lambda: venue.store.seqs("cafe", "t1") == list(range(1, table.service.log.last_seq + 1)))
        print(f"every row at the venue: {ok}, {time.monotonic() - back:.2f} s after reconnecting; rows {table.service.log.last_seq}; "
              f"collector {venue.collector.counters}; store {venue.store.counts()}")
        return 0 if ok else 1
    finally:
        venue.stop()
        table.service.stop()
        broker.kill()


if __name__ == "__main__":
    sys.exit(main())
