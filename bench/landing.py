"""Benchmark: cards landing together on one pile reader, read by the firmware's own anticollision.

Runs the firmware (``firmware/``) against the simulated field (:mod:`hardware.sim.field`, with
NXP's reading of CollPos) and counts, over ``--trials`` random sets of NTAG-like 7-byte UIDs (04,
then a second byte shared by half of them), how often every one of ``k`` cards landing within one
poll is read within ``--rounds`` polling rounds. ``--max-answers`` is how many different answers
the simulated reader still decodes as a collision (beyond: a time-out; the public reports give 2).

    .venv/bin/python bench/landing.py [--cards 2 3 4] [--trials 20] [--rounds 3] [--max-answers 4]

Simulated, not measured: the figures say what the firmware's logic does with the field's rules.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hardware.sim.field import FieldSettings  # noqa: E402
from hardware.sim.firmware import FirmwareRig  # noqa: E402


def ntag_uids(rng: random.Random, k: int) -> list[bytes]:
    out: list[bytes] = []
    while len(out) < k:
        uid = bytes([0x04, rng.choice((0x11, 0x22))]) + bytes(rng.randrange(256) for _ in range(5))
        if uid not in out:
            out.append(uid)
    return out


def trial(rng: random.Random, k: int, rounds: int, max_answers: int) -> bool:
    rig = FirmwareRig(1, kinds=["pile"], settings=FieldSettings(max_answers=max_answers, seed=rng.randrange(1 << 30)))
    rig.firmware.boot()
    cards = ntag_uids(rng, k)
    for uid in cards:
        rig.chips[0].place(uid)
    for _ in range(rounds):
        rig.firmware.step()
    return sorted(rig.known(0)) == sorted(cards)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--trials", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--max-answers", type=int, default=4)
    parser.add_argument("--seed", type=int, default=24)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    print(f"simulated pile, NXP's CollPos, max_answers={args.max_answers}, {args.rounds} poll rounds per trial")
    for k in args.cards:
        read = sum(trial(rng, k, args.rounds, args.max_answers) for _ in range(args.trials))
        print(f"{k} cards landing together: all read in {read} of {args.trials} trials")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
