"""What the rule-case search knows of Everest: the settings its playouts run in, the
settings hunted with many more seeds, and the finder of each rule that never refuses a move."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from companion.core import Header, Move
from companion.games import get_game
from companion.games.everest import playout as everest

from ..effects import Then, ended
from ..search import EffectFinder, Step
from . import TWO, GameKnowledge, Playout


def _ev(options: Mapping[str, Any]) -> Playout:
    return lambda seed, n: everest.random_playout(seed, n, illegal_every=3, options=options)


def _ev_two(seed: int, n: int) -> tuple[Header, list[Move]]:
    """Everest's playout for two yeti (``random_playout`` seats four): shorter rounds, shorter cases."""
    rng = random.Random(seed)
    game = get_game("everest")
    header = Header("everest", TWO, {}, {})
    state = game.new_state(header)
    moves: list[Move] = []
    while len(moves) < n and game.outcome(state) is None:
        if len(moves) % 3 == 2:
            bad = everest.illegal_move(state, rng)
            if bad is not None:
                moves.append(bad)
                continue
        move = everest.legal_move(state, rng)
        verdict, state = game.play(state, move)
        if not verdict.ok:
            raise AssertionError(f"everest's playout chose a move the engine refuses: {move} ({verdict.why})")
        moves.append(move)
    return header, moves


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
    outcome = ended(step)
    if outcome is None:
        return None
    lines = [e for e in _new_events(step) if e.startswith("EV-WIN:")]
    return {"outcome": outcome, "scoreboard": {"events": lines}}


KNOWLEDGE = GameKnowledge(
    settings={
        "two": _ev_two,
        "plain": _ev({}),
        "notches": _ev({"notches": "table"}),
    },
    hunts=("two", "plain"),
    effects={
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
)
