"""Benchmark: the web loop's per-client connection check (``WebServer._trim_connections``), per call.

The loop runs the check after every event it handles (about 170 a tap with eight phones open, counted
by cProfile in ``bench/tap_page.py --profile``). It walks every connection only when the set of
connections changed since the last walk; otherwise it compares one list. This prints both, in CPU
microseconds per call, for a map of ``--connections`` connections as waitress keeps them (each with its
``addr``, ``requests`` and ``last_activity``; all from one loopback client, which is never trimmed).

    .venv/bin/python bench/trim_connections.py [--connections 35] [--calls 20000]
"""

from __future__ import annotations

import argparse
import sys
import time
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from companion.app.service import WebServer  # noqa: E402  (after the path: run as a script)


class Channel:
    def __init__(self, port: int) -> None:
        self.addr = ("127.0.0.1", port)
        self.requests: list[object] = []
        self.last_activity = 0.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--connections", type=int, default=35)
    parser.add_argument("--calls", type=int, default=20000)
    opts = parser.parse_args(argv)
    server = types.SimpleNamespace(trigger=object())
    server._map = {fd: Channel(40000 + fd) for fd in range(opts.connections)}
    server._map[-1], server._map[-2] = server, server.trigger
    web = WebServer.__new__(WebServer)  # the check alone: no listening socket, no loop thread
    web.server, web._trimmed = server, []
    spare = Channel(50000)
    for label, changed in (("same connections (the skip)", False), ("a connection came or went (the walk)", True)):
        began = time.thread_time()
        for n in range(opts.calls):
            if changed:  # one connection comes, the next call it goes
                if n % 2:
                    server._map.pop(opts.connections, None)
                else:
                    server._map[opts.connections] = spare
            web._trim_connections()
        print(f"{label}: {(time.thread_time() - began) / opts.calls * 1e6:.2f} us per call, {opts.connections} connections")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
