"""Entering a notation move by taps through the move builder, as a person on the page would.

The same walk the browser tests make through the DOM, made against :mod:`companion.entry.builder`
directly: it proves every move of a game file can be tapped in, and counts the taps.
A tap is: a one-tap move button, a verb, a value, "finish" on a list, "skip" on an optional field,
"show every value" (to enter a move illegal on purpose), or the referee's choice of who acts.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.contract.game import Game
from companion.core import Move
from companion.entry.builder import Builder, Draft, move_form

MAX_TAPS = 200


class Unreachable(AssertionError):
    """The move cannot be entered by taps."""


class Alike:
    """Copies of one card as a person sees them: one value (issue 22). The page offers each card once,
    naming a copy the builder picks; so a move is tapped in when it names the same cards, whichever copies."""

    def __init__(self, game: Game[Any], state: Any) -> None:
        self.twins = lambda card: game.copies(state, card)

    def key(self, value: Any) -> Any:
        if isinstance(value, str):
            same = self.twins(value)
            return same[0] if same else value
        if isinstance(value, (list, tuple)):
            return [self.key(v) for v in value]
        if isinstance(value, dict):
            return {k: self.key(v) for k, v in value.items()}
        return value

    def same(self, a: Any, b: Any) -> bool:
        return bool(self.key(plain(a)) == self.key(plain(b)))

    def offered(self, choices: list[Mapping[str, Any]], wanted: Any) -> Any:
        """The value of the button that stands for ``wanted``, or None."""
        return next((c["value"] for c in choices if self.same(c["value"], wanted)), None)


def plain(value: Any) -> Any:
    """A JSON value with tuples as lists and absent (None) fields left out, for comparing moves."""
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items() if v is not None}
    return value


def _per_player_tap(nxt: Mapping[str, Any], want: Mapping[str, list[Any]], fields: dict[str, Any], closed: set[str], alike: Alike) -> None:
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
        wanted = want[key][len(nxt["so_far"])]
        tapped = alike.offered(nxt["choices"], wanted)
        mapping[key] = list(nxt["so_far"]) + [wanted if tapped is None else tapped]
    fields[name] = mapping


def target_of(move: Mapping[str, Any]) -> dict[str, Any]:
    """The move as the builder produces it: no table time."""
    return {k: v for k, v in move.items() if k != "t"}


def tap_in(builder: Builder, move: Mapping[str, Any] | Move, referee: bool = False) -> tuple[dict[str, Any], int]:
    """The move the taps produce and how many taps it took (:func:`_tap_in`). A step with no value on
    the way to a legal move is left as it stands for the person (companion.entry.only); so a move
    illegal on purpose there is entered with every value shown from its first step (one tap more)."""
    try:
        return _tap_in(builder, move, referee, every=False)
    except Unreachable as first:
        try:
            built, taps = _tap_in(builder, move, referee, every=True)
        except Unreachable:
            raise first from None
        return built, taps + 1


def _tap_in(builder: Builder, move: Mapping[str, Any] | Move, referee: bool, every: bool) -> tuple[dict[str, Any], int]:
    """The move the taps produce (notation; it equals ``move`` without ``t``, but for which copy of a
    card it names: :func:`same_cards`) and how many taps it took.

    Fields are matched by their own names (:func:`move_form`), as the page builds them."""
    alike = Alike(builder.game, builder.state)
    parsed = move if isinstance(move, Move) else builder.game.codec.from_json(dict(move))
    target = plain(move_form(parsed))
    wanted_notation = plain(target_of(builder.game.codec.to_json(parsed)))
    by = parsed.by
    taps = 1 if referee else 0  # the referee first says who acts ("table" for nobody)
    fields: dict[str, Any] = {}
    closed: set[str] = set()
    verb: str | None = None
    while taps <= MAX_TAPS:
        offer = builder.offer(Draft(by, verb, dict(fields), frozenset(closed), every)).to_json()
        if offer["move"] is not None:  # the page sends a finished move at once
            if not alike.same(offer["move"], wanted_notation):
                raise Unreachable(f"the taps built {offer['move']}, not {wanted_notation}")
            return offer["move"], taps
        for quick in offer["quick"]:
            if alike.same(quick["form"], target):
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
                if alike.offered(nxt["choices"], want[key][len(part)]) is None:
                    if every or not nxt["hidden_choices"]:
                        raise Unreachable(f"{name}/{key}: {want[key][len(part)]!r} is not offered")
                    every = True
                    taps += 1
                    continue
            _per_player_tap(nxt, want, fields, closed, alike)
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
        tapped = alike.offered(nxt["choices"], wanted)
        if tapped is None:
            if every or not nxt["hidden_choices"]:
                raise Unreachable(f"{name}: {wanted!r} is not among {[c['value'] for c in nxt['choices']]}")
            every = True
            taps += 1
            continue
        taps += 1
        if nxt["many"]:
            fields[name] = list(nxt["so_far"]) + [tapped]
        else:
            fields[name] = tapped
    raise Unreachable(f"more than {MAX_TAPS} taps for {target}")


def same_cards(builder: Builder, a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """Whether two moves are the same to a person: the same values, a copy of a card for any other."""
    return Alike(builder.game, builder.state).same(a, b)


def assert_as_meant(builder: Builder, built: Mapping[str, Any], move: Move) -> None:
    """The tapped-in move is ``move`` as the session records a page's entry: made with a copy that
    makes the move meant (:meth:`Game.settle`), the same cards, judged as ``move`` itself is."""
    game, state = builder.game, builder.state
    made = game.settle(state, game.codec.from_json(dict(built)))
    assert same_cards(builder, game.codec.to_json(made), game.codec.to_json(move.replace(t=None))), (made, move)
    assert game.judge(state, made).ok == game.judge(state, move).ok, (made, move)
