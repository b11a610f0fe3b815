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
    c.add_argument(
        "--timing",
        action="store_true",
        help="also print what the array measured of itself (an SPI access, a Pin.value(), its polling rounds) and the "
        "poll-round model with that figure instead of the cited one",
    )
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
    from hardware.usbnames import tty_identity

    identity = tty_identity(args.port)
    if identity is not None:  # a USB serial port: say which board it is (the udev rule's name needs boot.py)
        print(identity.sentence())
    print(f"listening to {args.port} for {args.seconds:g} s ...", flush=True)
    result = check_array(args.port, args.seconds)
    for line in result.report():
        print(line)
    if args.timing and not timing(result):
        return 1
    if result.healthy:
        print("every reader answers, with no errors")
        return 0
    print("PROBLEMS: a reader that does not answer, read errors or bad frames (docs/hardware.md, 'Checking the wiring')")
    return 1


def timing(result: Any) -> bool:
    """Print the array's own timing and the poll-round model with it; False if the array sent none."""
    from hardware.polltime import CITED, count_polls, measured_cost, poll_rounds

    lines = result.timing_report()
    if not lines:
        print("no timing from the array: its firmware is older than tc-array-2.1 (flash firmware/*.py), or no heartbeat came")
        return False
    for line in lines:
        print(line)
    cost = measured_cost(result.timing)
    if cost is None:
        return True
    counts = count_polls()
    measured, cited = poll_rounds(counts, cost), poll_rounds(counts, CITED)
    print(f"poll round model (bench/bridge.py --poll-round --access-us {cost.transaction_s * 1e6:.1f}): "
          f"{cost.transaction_s * 1e6:.1f} us of MicroPython a transaction measured, {CITED.transaction_s * 1e6:.0f} us cited")
    for layout, ms in measured.items():
        print(f"  {layout:<68} {ms:6.1f} ms measured  ({cited[layout]:.1f} ms cited)")
    return True


def wait_clock(args: argparse.Namespace) -> int:
    """Always 0: an unsynchronised clock is said, then the service starts all the same."""
    from hardware.timesync import wait_for_clock

    if args.within < 0:
        raise SystemExit("companion hw wait-clock: --within must be 0 or more")
    print(wait_for_clock(args.within).sentence(), flush=True)
    return 0
