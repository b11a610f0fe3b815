"""How the search recognises what a rule that never refuses does: per rule id, a finder (each game's
in :mod:`tests.rulecases.games`) that looks at a legal move with the states before and after it and,
where the rule shows, returns the case's ``then`` (the scoreboard keys and the outcome that show it;
see :mod:`tests.rulecases.cases`). The helpers the finders share are here.

Each finder reads only the public scoreboard and outcome (and the move), so what it finds is what
the case's test asserts.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .search import Step

Then = dict[str, Any]


def changed(was: Mapping[str, Any], now: Mapping[str, Any], keys: Iterable[str]) -> dict[str, Any]:
    return {k: now[k] for k in keys if k in now and was.get(k) != now[k]}


def ended(step: Step, contains: str = "") -> dict[str, Any] | None:
    outcome = step.game.outcome(step.after)
    if outcome is None or contains not in str(outcome.to_json()):
        return None
    return dict(outcome.to_json())
