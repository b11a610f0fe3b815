"""EV-CONFLICT: the engine's conflict check against the rulebook's definition done literally.

``conflicts.find_conflict`` (short cuts: grown reaches that do not touch, shared beginnings of
orders, roars read along the way) must answer exactly as ``conflicts.orders_differ`` (every order of
every unit, compared) on generated steps: pushes, falls, the edge, notches (both settings), roars,
snowballs, dazed yeti and yeti off the board.

``make test`` runs EVEREST_CONFLICT_STEPS steps (default 15,000, a few seconds). The full run:

    EVEREST_CONFLICT_STEPS=100000 .venv/bin/python -m pytest tests/games/test_everest_conflict_property.py -q
"""

from __future__ import annotations

import os
import random
from itertools import combinations

from companion.games.everest.conflicts import find_conflict, orders_differ, outcome
from tests.games.test_everest_step_support import random_step

STEPS = int(os.environ.get("EVEREST_CONFLICT_STEPS", "15000"))


def test_the_conflict_check_is_every_order_compared() -> None:
    rng = random.Random(17)
    seen = {True: 0, False: 0}
    only_together = 0  # conflicts that no two actions show alone (issue #17)
    for n in range(STEPS):
        step = random_step(rng)
        expected = orders_differ(step.table, step.units)
        found = find_conflict(step.table, step.units)
        assert (found is not None) == expected, (n, step.table.pos, step.table.off, step.units)
        seen[expected] += 1
        if found is not None:
            # the two orders it shows are orders of all the actions, and they do end differently
            assert sorted(found.first) == sorted(found.second) == sorted(step.units)
            assert outcome(step.table, found.first) != outcome(step.table, found.second)
        if expected and len(step.units) > 2:
            if not any(orders_differ(step.table, pair) for pair in combinations(step.units, 2)):
                only_together += 1
    assert seen[True] > STEPS // 10 and seen[False] > STEPS // 10, seen
    assert only_together > 0 or STEPS < 5000, "the generator must reach conflicts that only three actions make"
