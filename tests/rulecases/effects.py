"""How the search recognises what a rule that never refuses does: per rule id, a finder that looks
at a legal move with the states before and after it and, where the rule shows, returns the case's
``then`` (the scoreboard keys and the outcome that show it; see :mod:`tests.rulecases.cases`).

Each finder reads only the public scoreboard and outcome (and the move), so what it finds is what
the case's test asserts.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .search import EffectFinder, Step

Then = dict[str, Any]


def _changed(was: Mapping[str, Any], now: Mapping[str, Any], keys: Iterable[str]) -> dict[str, Any]:
    return {k: now[k] for k in keys if k in now and was.get(k) != now[k]}


def _ended(step: Step, contains: str = "") -> dict[str, Any] | None:
    outcome = step.game.outcome(step.after)
    if outcome is None or contains not in str(outcome.to_json()):
        return None
    return dict(outcome.to_json())


# -- The Mountain ---------------------------------------------------------------------------------


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
        outcome = _ended(step)
        if outcome is None or outcome["won"] is not won:
            return None
        now = step.now
        keys = ("threats_left",) if won else ("health", "result")
        return {"outcome": {"won": won}, "scoreboard": {k: now[k] for k in keys}}

    return find


def _tm_score(step: Step) -> Then | None:
    outcome = _ended(step)
    if outcome is None:
        return None
    now = step.now
    shown = {k: now[k] for k in ("score", "threats_left", "health")}
    return {"outcome": {"score": outcome["score"]}, "scoreboard": shown}


# -- Horrible Mountain 2 --------------------------------------------------------------------------


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
        outcome = _ended(step)
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


# -- Escape Master --------------------------------------------------------------------------------


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
        outcome = _ended(step, reason)
        if outcome is None:
            return None
        now = step.now
        return {"outcome": outcome, "scoreboard": {k: now[k] for k in keys}}

    return find


# -- Everest --------------------------------------------------------------------------------------


def _new_events(step: Step) -> list[str]:
    was, now = step.was, step.now
    old = list(was["events"])
    events = list(now["events"])
    return events[len(old):] if events[: len(old)] == old else events


def _ev_event(rule: str) -> EffectFinder:
    """The scoreboard's events name the rule that moved each yeti: the line the move added."""

    def find(step: Step) -> Then | None:
        lines = [e for e in _new_events(step) if e.startswith(rule + ":")]
        return {"scoreboard": {"events": lines[:1]}} if lines else None

    return find


def _ev_push_fall(step: Step) -> Then | None:
    """No line names the free push: it shows as a push by a yeti whose very next line is its fall."""
    lines = _new_events(step)
    for line, then in zip(lines, lines[1:]):
        if " is pushed " in line and " by " in line:  # pushed to a square, off a cliff or off the edge
            pusher = line.split(" by ", 1)[1].split("'s", 1)[0]
            if then.startswith(f"EV-FALL: {pusher}'s yeti falls off the cliff"):
                return {"scoreboard": {"events": [line, then]}}
    return None


def _ev_board(step: Step) -> Then | None:
    now = step.now
    return {"scoreboard": {"heights": now["heights"], "peak_tile": now["peak_tile"]}}


def _ev_home(step: Step) -> Then | None:
    if step.move.verb != "end_round":
        return None
    was, now = step.was, step.now
    for name, home in now["homes"].items():
        if now["positions"][name] == home and was["positions"][name] != home:
            return {"scoreboard": {"positions": {name: home}, "homes": {name: home}}}
    return None


def _ev_simultaneous(step: Step) -> Then | None:
    lines = _new_events(step)
    if not lines or not lines[0].startswith("EV-SECRET:"):
        return None
    acts = [e for e in lines[1:] if e.startswith(("EV-MOVE:", "EV-ROAR:", "EV-SNOWBALL:", "EV-DAZED:"))]
    actors = [e.split(": ", 1)[1].split("'s ", 1)[0] for e in acts]
    if len(set(actors[:2])) == 2 and len(acts) >= 3 and actors[2] in actors[:2]:
        return {"scoreboard": {"events": acts[:3]}}
    return None


def _ev_snowballs_together(step: Step) -> Then | None:
    if step.move.verb != "order":
        return None
    lines = _new_events(step)
    throws = [e for e in lines if e.startswith("EV-SNOWBALL:") and "'s snowball" in e]
    throwers = {e.split(": ", 1)[1].split("'s snowball", 1)[0] for e in throws}
    if len(throwers) >= 2:
        return {"scoreboard": {"events": [lines[0], *throws]}}
    return None


def _ev_win(step: Step) -> Then | None:
    outcome = _ended(step)
    if outcome is None:
        return None
    lines = [e for e in _new_events(step) if e.startswith("EV-WIN:")]
    return {"outcome": outcome, "scoreboard": {"events": lines}}


# -- Escape House ---------------------------------------------------------------------------------


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
    shown = _changed(was, now, ("penalties_due", "clocks", "penalties_left"))
    return {"scoreboard": shown} if shown else None


def _eh_changed(verb: str, keys: tuple[str, ...], need: str) -> EffectFinder:
    def find(step: Step) -> Then | None:
        if step.move.verb != verb:
            return None
        was, now = step.was, step.now
        shown = _changed(was, now, keys)
        return {"scoreboard": shown} if need in shown else None

    return find


def _eh_instructions(step: Step) -> Then | None:
    if step.move.verb != "clear" or not step.before.cards.cards[getattr(step.move, "puzzle")].effects:
        return None
    was, now = step.was, step.now
    shown = _changed(was, now, ("penalties_due", "cleared_now", "cleared_rooms"))
    return {"scoreboard": shown} if "penalties_due" in shown else None


def _eh_end(won: bool) -> EffectFinder:
    def find(step: Step) -> Then | None:
        outcome = _ended(step)
        now = step.now
        if outcome is None or outcome["won"] is not won or (not won and now["clocks"] < 3):
            return None
        return {"outcome": outcome, "scoreboard": {"main_left": now["main_left"]} if won else {"clocks": now["clocks"]}}

    return find


EFFECTS: dict[str, dict[str, EffectFinder]] = {
    "the-mountain": {
        "TM-LAYOUT": _tm_layout,
        "TM-ATTACK": _tm_attack,
        "TM-LOSE": _tm_end(False),
        "TM-WIN": _tm_end(True),
        "TM-SCORE": _tm_score,
    },
    "horrible-mountain-2": {
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
    "escape-master": {
        "EM-FAULTS": _em_faults,
        "EM-XP": _em_xp,
        "EM-BREAKING-POINT": _em_end("Breaking Point", ("faults", "breaking_point")),
        "EM-FIXED-ROUNDS": _em_end("fixed rounds", ("round",)),
    },
    "everest": {
        "EV-BOARD": _ev_board,
        "EV-HOME": _ev_home,
        "EV-SIMULTANEOUS": _ev_simultaneous,
        "EV-SNOWBALL-TOGETHER": _ev_snowballs_together,
        "EV-PUSH-FALL": _ev_push_fall,
        "EV-WIN": _ev_win,
        **{
            rule: _ev_event(rule)
            for rule in (
                "EV-DAZED", "EV-SECRET", "EV-CONFLICT", "EV-MOVE", "EV-CLIFF-UP", "EV-FALL", "EV-EDGE", "EV-PUSH",
                "EV-PUSH-BLOCKED", "EV-SNOWBALL", "EV-SNOWBALL-SPLAT", "EV-ROAR", "EV-ROAR-REACT",
                "EV-ROAR-BACK", "EV-RUNAWAY", "EV-HEAL", "EV-FORCED-HOME",
            )
        },
    },
    "escape-house": {
        "EH-SETUP-MAIN": _eh_setup(("main_left", "main_puzzle")),
        "EH-SETUP-ROOMS": _eh_setup(("rooms",)),
        "EH-SETUP-DECKS": _eh_setup(("deck_sizes",)),
        "EH-SETUP-PENALTIES": _eh_setup(("penalties_left", "clocks")),
        "EH-TRAP": _eh_trap,
        "EH-SACRIFICE": _eh_changed("resolve", ("sacrificed", "alive"), "sacrificed"),
        "EH-INSTRUCTIONS": _eh_instructions,
        "EH-TO-DISCARD": _eh_changed("end_round", ("discard_size",), "discard_size"),
        "EH-CLOCKS": _eh_end(False),
        "EH-ESCAPE": _eh_end(True),
    },
}
"""Per game, the finder of each rule that never refuses a step.move."""
