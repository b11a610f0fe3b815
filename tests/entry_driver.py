"""Entering a notation move by taps through the move builder, as a person on the page would.

The same walk the browser tests make through the DOM, made against :mod:`companion.entry.builder`
directly: it proves every move of a game file can be tapped in, and counts the taps.
A tap is: a one-tap move button, a verb, a value, "finish" on a list, "skip" on an optional field,
"show every value" (to enter a move illegal on purpose), or the referee's choice of who acts.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.core import Move
from companion.entry.builder import Builder, Draft, move_form

MAX_TAPS = 200


class Unreachable(AssertionError):
    """The move cannot be entered by taps."""


def _same(a: Any, b: Any) -> bool:
    return plain(a) == plain(b)


def plain(value: Any) -> Any:
    """A JSON value with tuples as lists and absent (None) fields left out, for comparing moves."""
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items() if v is not None}
    return value


def _per_player_tap(nxt: Mapping[str, Any], want: Mapping[str, list[Any]], fields: dict[str, Any], closed: set[str]) -> None:
    """One tap on a mapping of players to values (a deal): whose part, a value of it, or "done"."""
    name, key = nxt["field"], nxt["key"]
    mapping = {k: list(v) for k, v in nxt["mapping"].items()}
    if key is None:
        missing = [p for p in want if p not in mapping]
        if missing:
            mapping[missing[0]] = []
        else:
            closed.add(name)
    elif len(nxt["so_far"]) == len(want[key]):
        closed.add(f"{name}/{key}")
    else:
        mapping[key] = list(nxt["so_far"]) + [want[key][len(nxt["so_far"])]]
    fields[name] = mapping


def target_of(move: Mapping[str, Any]) -> dict[str, Any]:
    """The move as the builder produces it: no table time."""
    return {k: v for k, v in move.items() if k != "t"}


def tap_in(builder: Builder, move: Mapping[str, Any] | Move, referee: bool = False) -> tuple[dict[str, Any], int]:
    """The move the taps produce (notation; it equals ``move`` without ``t``) and how many taps it took.

    Fields are matched by their own names (:func:`move_form`), as the page builds them."""
    parsed = move if isinstance(move, Move) else builder.game.codec.from_json(dict(move))
    target = plain(move_form(parsed))
    wanted_notation = plain(target_of(builder.game.codec.to_json(parsed)))
    by = parsed.by
    taps = 1 if referee else 0  # the referee first says who acts ("table" for nobody)
    fields: dict[str, Any] = {}
    closed: set[str] = set()
    every = False
    verb: str | None = None
    while taps <= MAX_TAPS:
        offer = builder.offer(Draft(by, verb, dict(fields), frozenset(closed), every)).to_json()
        if offer["move"] is not None:  # the page sends a finished move at once
            if not _same(offer["move"], wanted_notation):
                raise Unreachable(f"the taps built {offer['move']}, not {wanted_notation}")
            return offer["move"], taps
        for quick in offer["quick"]:
            if _same(quick["form"], target):
                return quick["move"], taps + 1
        if verb is None and offer["verb"] == target["do"]:
            verb = target["do"]  # the only legal verb, chosen already
        if verb is None or offer["verb"] != verb:
            if not any(v["verb"] == target["do"] for v in offer["verbs"]):
                raise Unreachable(f"verb {target['do']} is not offered")
            verb = target["do"]
            taps += 1
            continue
        nxt = offer["next"]
        name = nxt["field"]
        want = target.get(name)
        if nxt.get("per_player") and want is not None:
            key, part = nxt["key"], nxt["so_far"]
            if key is not None and len(part) < len(want[key]):
                if not any(_same(c["value"], want[key][len(part)]) for c in nxt["choices"]):
                    if every or not nxt["hidden_choices"]:
                        raise Unreachable(f"{name}/{key}: {want[key][len(part)]!r} is not offered")
                    every = True
                    taps += 1
                    continue
            _per_player_tap(nxt, want, fields, closed)
            taps += 1
            continue
        if want is None:
            if not nxt["can_finish"]:
                raise Unreachable(f"{name} cannot be left out")
            fields[name] = None
            taps += 1
            continue
        if nxt["many"]:
            so_far = nxt["so_far"]
            if len(so_far) == len(want):
                if not nxt["can_finish"]:
                    raise Unreachable(f"{name} cannot be finished at {so_far}")
                fields[name] = list(so_far)
                closed.add(name)
                taps += 1
                continue
            wanted = want[len(so_far)]
        else:
            wanted = want
        if not any(_same(c["value"], wanted) for c in nxt["choices"]):
            if every or not nxt["hidden_choices"]:
                raise Unreachable(f"{name}: {wanted!r} is not among {[c['value'] for c in nxt['choices']]}")
            every = True
            taps += 1
            continue
        taps += 1
        if nxt["many"]:
            fields[name] = list(nxt["so_far"]) + [wanted]
        else:
            fields[name] = wanted
    raise Unreachable(f"more than {MAX_TAPS} taps for {target}")
