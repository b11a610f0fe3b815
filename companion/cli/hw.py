"""``companion hw``: check the reader array on the bench (hardware/check.py), measure how deep a pile
reader reads (hardware/stack.py), play the referee's sounds (hardware/soundcheck.py), and wait for the clock before the service starts (hardware/timesync.py)."""

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
    s = hwsub.add_parser(
        "stack",
        help="measure how deep a stack one pile reader reads: lay cards one at a time, press Enter after each; "
        "writes the stack table the simulator reads",
    )
    s.add_argument("--port", default=DEFAULT_PORT, help=f"the array's serial port (default {DEFAULT_PORT})")
    s.add_argument("--channel", type=int, required=True, help="the reader's channel (array:N)")
    s.add_argument("--out", default="stack-table.json", help="where to write the table (default stack-table.json)")
    s.add_argument("--cards", type=int, default=40, help="lay at most this many cards (default 40)")
    s.add_argument("--wait", type=float, default=3.0, help="seconds a card has to be reported (default 3)")
    s.add_argument(
        "--iso15693",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="an ISO 15693 pile: after each card, listen this long to how often it answers (e.g. 60); the rates become "
        "the table's iso15693 answers",
    )
    s.set_defaults(run=stack)
    a = hwsub.add_parser(
        "sound",
        help="play each of the referee's tones and one spoken ruling through the audio out, naming each first",
    )
    a.add_argument("--device", default="default", help='"default" or an ALSA device such as plughw:CARD=Headphones,DEV=0')
    a.add_argument("--volume", type=int, default=80, help="0-100 (default 80)")
    a.add_argument("--language", default="en", help="an espeak-ng voice with the referee's words: en, en-us, de (default en)")
    a.set_defaults(run=sound)
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


def stack(args: argparse.Namespace) -> int:
    from pathlib import Path

    from hardware.stack import ArrayFrames, measure_stack  # pyserial only for this command

    if args.cards < 1 or args.wait <= 0 or not 0 <= args.channel < 16:
        raise SystemExit("companion hw stack: --channel must be 0 to 15, --cards at least 1 and --wait more than 0")
    frames = ArrayFrames(args.port)
    try:
        table = measure_stack(frames, args.channel, input, print, cards=args.cards, wait_s=args.wait, listen_s=args.iso15693)
    finally:
        frames.close()
    out = Path(args.out)
    table.save(out)
    print(f"wrote {out}: depth {table.depth}. Set depth = {table.depth} on the zone of array:{args.channel} in the table "
          f"config; the simulator reads the table with FieldSettings.from_stack_table (replace "
          f"hardware/sim/stack-table.json to make it the default)")
    return 0


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


def sound(args: argparse.Namespace) -> int:
    from companion.app.feedback_config import parse_feedback
    from companion.core.errors import ConfigError
    from companion.table.speech import load_speech
    from hardware.soundcheck import sound_check

    try:  # the same checks as the table config's [feedback]
        parse_feedback({"volume": args.volume, "language": args.language, "audio_device": args.device})
    except ConfigError as exc:
        raise SystemExit(f"companion hw sound: {exc}") from None
    said = load_speech(args.language).phrases["sound_check"]  # in the table's language
    return sound_check(args.device, args.volume, args.language, said=said)


def wait_clock(args: argparse.Namespace) -> int:
    """Always 0: an unsynchronised clock is said, then the service starts all the same."""
    from hardware.timesync import wait_for_clock

    if args.within < 0:
        raise SystemExit("companion hw wait-clock: --within must be 0 or more")
    print(wait_for_clock(args.within).sentence(), flush=True)
    return 0
