"""What the rule-case search knows of Horrible Mountain 2: the settings its playouts run in, the
settings hunted with many more seeds, and the finder of each rule that never refuses a move."""

from __future__ import annotations

from companion.core import Header, Move
from companion.games.horrible_mountain_2 import playout as horrible_mountain_2
from companion.games.horrible_mountain_2.moves import Dealt

from ..effects import Then, ended
from ..search import EffectFinder, Step
from . import GameKnowledge, Playout


def _hm2(variant: bool, live: bool) -> Playout:
    def playout(seed: int, n: int) -> tuple[Header, list[Move]]:
        header, moves = horrible_mountain_2.random_playout(seed, n, illegal_every=3, variant=variant)
        return _hm2_live(header, moves) if live else (header, moves)

    return playout


def _hm2_live(header: Header, moves: list[Move]) -> tuple[Header, list[Move]]:
    """The same game at a live table: the hands left out of the setup, each card tapped in (``dealt``)."""
    setup = {k: v for k, v in header.setup.items() if k != "hands"}
    dealt: list[Move] = [Dealt(by=p, card=c) for p in header.players for c in header.setup["hands"][p]]
    return Header(header.game, header.players, header.options, setup), dealt + moves


def _hm2_setup(keys: tuple[str, ...], phase: str) -> EffectFinder:
    """The setup shows on the scoreboard once the placing it leads to is done."""

    def find(step: Step) -> Then | None:
        was, now = step.was, step.now
        if step.move.verb == "place" and now["phase"] == phase and was["phase"] == "place":
            return {"scoreboard": {k: now[k] for k in keys}}
        return None

    return find


def _hm2_cube_stays(verb: str) -> EffectFinder:
    def find(step: Step) -> Then | None:
        if step.move.verb != verb:
            return None
        was, now = step.was, step.now
        for old, new in zip(was["table"], now["table"]):
            if old["card"] != new["card"] and new["cube"] is not None and old["cube"] == new["cube"]:
                return {"scoreboard": {"table": [new]}}
        return None

    return find


def _hm2_end(what: str) -> EffectFinder:
    def find(step: Step) -> Then | None:
        outcome = ended(step)
        if outcome is None:
            return None
        now = step.now
        scores = now["scores"]
        if what == "end":
            shown = {"exhausted": now["exhausted"], "phase": now["phase"]}
            return {"scoreboard": shown, "outcome": {"reason": outcome["reason"]}}
        if what == "short":
            short = {p: {k: s[k] for k in ("hand", "hand_name")} for p, s in scores.items() if s["hand_size"] < 5}
            return {"scoreboard": {"scores": short}} if short else None
        if what == "tie":
            return {"outcome": outcome} if outcome["reason"] != "most points" else None
        if what == "winner":
            if outcome["reason"] != "most points":
                return None
            return {"outcome": outcome, "scoreboard": {"scores": {p: {"total": s["total"]} for p, s in scores.items()}}}
        field = {"hand": ("hand", "hand_name"), "cubes": ("cubes", "control_cubes")}[what]
        return {"scoreboard": {"scores": {p: {k: s[k] for k in field} for p, s in scores.items()}}}

    return find


KNOWLEDGE = GameKnowledge(
    settings={
        "plain": _hm2(False, False),
        "variant": _hm2(True, False),
        "live": _hm2(False, True),
    },
    hunts=("plain",),
    effects={
        "HM2-SETUP-TABLE": _hm2_setup(("table",), "place"),
        "HM2-SETUP-CUBES": _hm2_setup(("cube_pile", "table"), "place"),
        "HM2-SETUP-ROLES": _hm2_setup(("evil_master", "turn", "phase"), "play"),
        "HM2-CUBE-SLOT": _hm2_cube_stays("take_table"),
        "HM2-GAP-CUBE": _hm2_cube_stays("swap"),
        "HM2-GAME-END": _hm2_end("end"),
        "HM2-SCORE-HAND": _hm2_end("hand"),
        "HM2-SCORE-CUBES": _hm2_end("cubes"),
        "HM2-WINNER": _hm2_end("winner"),
        "HM2-TIE": _hm2_end("tie"),
        "HM2-GAP-HAND": _hm2_end("short"),
    },
)
