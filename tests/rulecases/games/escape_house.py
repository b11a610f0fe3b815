"""What the rule-case search knows of Escape House: the settings its playouts run in, the
settings hunted with many more seeds, and the finder of each rule that never refuses a move."""

from __future__ import annotations

import random

from companion.core import Header, Move
from companion.games.escape_house import playout as escape_house

from ..effects import Then, changed, ended
from ..search import EffectFinder, Step
from . import GameKnowledge, Playout


def _eh(players: int, live: bool) -> Playout:
    def playout(seed: int, n: int) -> tuple[Header, list[Move]]:
        header, moves = escape_house.random_playout(seed, n, illegal_every=3, players=players, teamwork=0.9)
        return escape_house.as_live_table(header, moves, random.Random(seed)) if live else (header, moves)

    return playout


def _eh_setup(keys: tuple[str, ...]) -> EffectFinder:
    """The dealt house shows on the scoreboard after the first move of the game."""

    def find(step: Step) -> Then | None:
        was, now = step.was, step.now
        if step.move.verb != "move" or was["round"] != 1 or any(was["rooms"][r] for r in was["rooms"] if r != "main"):
            return None
        return {"scoreboard": {k: now[k] for k in keys}}

    return find


def _eh_trap(step: Step) -> Then | None:
    kind = step.before.cards.kind_of(getattr(step.move, "card", ""))
    if step.move.verb != "draw" or kind is None or kind.value != "trap":
        return None
    was, now = step.was, step.now
    shown = changed(was, now, ("penalties_due", "clocks", "penalties_left"))
    return {"scoreboard": shown} if shown else None


def _ehchanged(verb: str, keys: tuple[str, ...], need: str) -> EffectFinder:
    def find(step: Step) -> Then | None:
        if step.move.verb != verb:
            return None
        was, now = step.was, step.now
        shown = changed(was, now, keys)
        return {"scoreboard": shown} if need in shown else None

    return find


def _eh_instructions(step: Step) -> Then | None:
    if step.move.verb != "clear" or not step.before.cards.cards[getattr(step.move, "puzzle")].effects:
        return None
    was, now = step.was, step.now
    shown = changed(was, now, ("penalties_due", "cleared_now", "cleared_rooms"))
    return {"scoreboard": shown} if "penalties_due" in shown else None


def _eh_end(won: bool) -> EffectFinder:
    def find(step: Step) -> Then | None:
        outcome = ended(step)
        now = step.now
        if outcome is None or outcome["won"] is not won or (not won and now["clocks"] < 3):
            return None
        return {"outcome": outcome, "scoreboard": {"main_left": now["main_left"]} if won else {"clocks": now["clocks"]}}

    return find


KNOWLEDGE = GameKnowledge(
    settings={
        "six": _eh(6, False),
        "live": _eh(6, True),
    },
    hunts=("six",),
    effects={
        "EH-SETUP-MAIN": _eh_setup(("main_left", "main_puzzle")),
        "EH-SETUP-ROOMS": _eh_setup(("rooms",)),
        "EH-SETUP-DECKS": _eh_setup(("deck_sizes",)),
        "EH-SETUP-PENALTIES": _eh_setup(("penalties_left", "clocks")),
        "EH-TRAP": _eh_trap,
        "EH-SACRIFICE": _ehchanged("resolve", ("sacrificed", "alive"), "sacrificed"),
        "EH-INSTRUCTIONS": _eh_instructions,
        "EH-TO-DISCARD": _ehchanged("end_round", ("discard_size",), "discard_size"),
        "EH-CLOCKS": _eh_end(False),
        "EH-ESCAPE": _eh_end(True),
    },
)
