"""What the rule-case search knows of The Mountain: the settings its playouts run in, the
settings hunted with many more seeds, and the finder of each rule that never refuses a move."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.the_mountain import playout as the_mountain

from ..effects import Then, ended
from ..search import EffectFinder, Step
from . import GameKnowledge, Playout


def _tm(options: Mapping[str, Any]) -> Playout:
    return lambda seed, n: the_mountain.random_playout(seed, n, illegal_every=3, options=options)


def _tm_layout(step: Step) -> Then | None:
    was, now = step.was, step.now
    shown = {s: v for s, v in now["slots"].items() if v != was["slots"][s] and v in ("exposed", "empty")}
    if "exposed" in shown.values() and "empty" in shown.values():
        return {"scoreboard": {"slots": shown}}
    return None


def _tm_attack(step: Step) -> Then | None:
    was, now = step.was, step.now
    if step.move.verb == "end_turn" and now["last_damage"] and now["health"] < was["health"]:
        return {"scoreboard": {"attack": now["attack"], "last_damage": now["last_damage"], "health": now["health"]}}
    return None


def _tm_end(won: bool) -> EffectFinder:
    def find(step: Step) -> Then | None:
        outcome = ended(step)
        if outcome is None or outcome["won"] is not won:
            return None
        now = step.now
        keys = ("threats_left",) if won else ("health", "result")
        return {"outcome": {"won": won}, "scoreboard": {k: now[k] for k in keys}}

    return find


def _tm_score(step: Step) -> Then | None:
    outcome = ended(step)
    if outcome is None:
        return None
    now = step.now
    shown = {k: now[k] for k in ("score", "threats_left", "health")}
    return {"outcome": {"score": outcome["score"]}, "scoreboard": shown}


KNOWLEDGE = GameKnowledge(
    settings={
        "plain": _tm({}),
        "nightmare": _tm({"nightmare": True}),
    },
    hunts=("plain", "nightmare"),
    effects={
        "TM-LAYOUT": _tm_layout,
        "TM-ATTACK": _tm_attack,
        "TM-LOSE": _tm_end(False),
        "TM-WIN": _tm_end(True),
        "TM-SCORE": _tm_score,
    },
)
