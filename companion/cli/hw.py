"""``companion hw``: check the reader array on the bench (hardware/check.py), and wait for the
clock before the service starts (hardware/timesync.py)."""

from __future__ import annotations

import argparse
from typing import Any

DEFAULT_PORT = "/dev/table-array"


def add_parser(sub: Any) -> None:
    p = sub.add_parser("hw", help="check the table's hardware")
    hwsub = p.add_subparsers(dest="hw_command", metavar="ACTION")
    hwsub.required = True
    c = hwsub.add_parser(
        "check",
        help="listen to the reader array and report, per reader: health, tags present, reads/s, collisions, errors",
    )
    c.add_argument("--port", default=DEFAULT_PORT, help=f"the array's serial port (default {DEFAULT_PORT}, the udev name)")
    c.add_argument("--seconds", type=float, default=10.0, help="how long to listen (default 10)")
    c.set_defaults(run=check)
    w = hwsub.add_parser(
        "wait-clock",
        help="wait until the system clock is synchronised, at most until --within seconds after boot (the unit's ExecStartPre)",
    )
    w.add_argument("--within", type=float, default=90.0, help="give up this many seconds after boot (default 90)")
    w.set_defaults(run=wait_clock)


def check(args: argparse.Namespace) -> int:
    from hardware.check import check_array  # pyserial only for this command

    if args.seconds <= 0:
        raise SystemExit("companion hw check: --seconds must be more than 0")
    print(f"listening to {args.port} for {args.seconds:g} s ...", flush=True)
    result = check_array(args.port, args.seconds)
    for line in result.report():
        print(line)
    if result.healthy:
        print("every reader answers, with no errors")
        return 0
    print("PROBLEMS: a reader that does not answer, read errors or bad frames (docs/hardware.md, 'Checking the wiring')")
    return 1


def wait_clock(args: argparse.Namespace) -> int:
    """Always 0: an unsynchronised clock is said, then the service starts all the same."""
    from hardware.timesync import wait_for_clock

    if args.within < 0:
        raise SystemExit("companion hw wait-clock: --within must be 0 or more")
    print(wait_for_clock(args.within).sentence(), flush=True)
    return 0
