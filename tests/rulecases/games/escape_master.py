"""What the rule-case search knows of Escape Master: the settings its playouts run in, the
settings hunted with many more seeds, and the finder of each rule that never refuses a move."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.escape_master import playout as escape_master

from ..effects import Then, ended
from ..search import EffectFinder, Step
from . import FOUR, THREE, TWO, GameKnowledge, Playout


def _em(players: tuple[str, ...], options: Mapping[str, Any] | None) -> Playout:
    return lambda seed, n: escape_master.random_playout(seed, n, illegal_every=3, players=players, options=options)


def _em_faults(step: Step) -> Then | None:
    was, now = step.was, step.now
    if len(now["rounds"]) > len(was["rounds"]) and any(now["round_faults"].values()):
        return {"scoreboard": {"round_faults": now["round_faults"], "faults": now["faults"]}}
    return None


def _em_xp(step: Step) -> Then | None:
    was, now = step.was, step.now
    more = {p: xp for p, xp in now["xp"].items() if xp > was["xp"].get(p, 0)}
    return {"scoreboard": {"xp": more}} if more else None


def _em_end(reason: str, keys: tuple[str, ...]) -> EffectFinder:
    def find(step: Step) -> Then | None:
        outcome = ended(step, reason)
        if outcome is None:
            return None
        now = step.now
        return {"outcome": outcome, "scoreboard": {k: now[k] for k in keys}}

    return find


KNOWLEDGE = GameKnowledge(
    settings={
        "two": _em(TWO, None),
        "bp8": _em(TWO, {"breaking_point": 8}),
        "fixed1": _em(TWO, {"fixed_rounds": 1}),
        "strict": _em(TWO, {"wisdom_on_wisdom": False, "early_end_doom_pile": True, "breaking_point": 100}),
        "three": _em(THREE, None),
        "three-fixed2": _em(THREE, {"fixed_rounds": 2}),
        "teams": _em(FOUR, {"teams": [["anna", "carl"], ["ben", "dora"]], "breaking_point": 100}),
    },
    hunts=("bp8", "fixed1"),
    effects={
        "EM-FAULTS": _em_faults,
        "EM-XP": _em_xp,
        "EM-BREAKING-POINT": _em_end("Breaking Point", ("faults", "breaking_point")),
        "EM-FIXED-ROUNDS": _em_end("fixed rounds", ("round",)),
    },
)
