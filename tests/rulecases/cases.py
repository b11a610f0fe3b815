"""Reading a game's rule cases and checking one against the real engine.

A case is one line of ``companion/games/<pkg>/rule_cases.jsonl``::

    {"rule": ID, "expect": "illegal" | "legal" | "effect", "header": {...}, "moves": [...],
     "move": {...}, "then": {...}, "note": "...", "made": "generated" | "by hand"}

``header`` and the moves are the notation exactly as ``companion replay`` reads it. Every move of
``moves`` must be legal; ``move`` is then judged. ``illegal``: refused, citing ``rule``, saying why,
and the state is left as it was. ``legal``: accepted. ``effect`` (a rule that never refuses a move):
accepted, and afterwards the scoreboard shows ``then["scoreboard"]`` and the outcome shows
``then["outcome"]`` (null: the game goes on). "Shows" reads as a subset all the way down: of a
dict's keys, of a list's items (:func:`shows`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.contract.game import Game
from companion.core import Header, Move
from companion.games import get_spec
from companion.log.notation import parse_header

FILE_NAME = "rule_cases.jsonl"
EXPECTS = ("illegal", "legal", "effect")
MADE = ("generated", "by hand")
KEYS = ("rule", "expect", "header", "moves", "move", "then", "note", "made")
REQUIRED = ("rule", "expect", "header", "moves", "move", "note", "made")


@dataclass(frozen=True)
class RuleCase:
    """One line of a rule-case file, read through the game's codec."""

    line: int
    rule: str
    expect: str
    header: Header
    moves: tuple[Move, ...]
    move: Move
    note: str
    made: str
    then: Mapping[str, Any] = field(default_factory=dict)

    def where(self) -> str:
        return f"line {self.line} ({self.rule}, {self.expect})"


def cases_file(game_id: str) -> Path:
    """The rule-case file in the game's own package (its spec's ``rule_cases``)."""
    spec = get_spec(game_id)
    return spec.path(spec.rule_cases)


def read_case(game: Game[Any], line: int, obj: Any) -> RuleCase:
    """One case from its JSON object; ValueError names the line and what is wrong."""
    if not isinstance(obj, dict):
        raise ValueError(f"line {line}: a case is a JSON object")
    unknown = [k for k in obj if k not in KEYS]
    missing = [k for k in REQUIRED if k not in obj]
    if unknown or missing:
        raise ValueError(f"line {line}: unknown keys {unknown}, missing keys {missing}")
    if obj["expect"] not in EXPECTS or obj["made"] not in MADE:
        raise ValueError(f"line {line}: expect is one of {EXPECTS}, made one of {MADE}")
    if ("then" in obj) != (obj["expect"] == "effect"):
        raise ValueError(f'line {line}: an effect case, and only one, says what follows in "then"')
    header = parse_header(obj["header"])
    if header.game != game.id:
        raise ValueError(f"line {line}: the header is for {header.game}, not {game.id}")
    return RuleCase(
        line=line,
        rule=obj["rule"],
        expect=obj["expect"],
        header=header,
        moves=tuple(game.codec.from_json(m) for m in obj["moves"]),
        move=game.codec.from_json(obj["move"]),
        note=obj["note"],
        made=obj["made"],
        then=obj.get("then", {}),
    )


def read_cases(game: Game[Any], path: Path) -> list[RuleCase]:
    cases = []
    for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if text.strip():
            cases.append(read_case(game, number, json.loads(text)))
    return cases


def case_json(game: Game[Any], rule: str, expect: str, header: Header, moves: Sequence[Move], move: Move,
              note: str, made: str, then: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A case as its file line holds it, keys in the documented order."""
    out: dict[str, Any] = {
        "rule": rule,
        "expect": expect,
        "header": header.to_json(),
        "moves": [game.codec.to_json(m) for m in moves],
        "move": game.codec.to_json(move),
    }
    if then is not None:
        out["then"] = dict(then)
    out["note"] = note
    out["made"] = made
    return out


def shows(want: Any, have: Any) -> bool:
    """Does ``have`` show ``want``? A dict shows the keys named (each value shown in turn), a list
    shows every item named (each shown by one of its items), anything else is equal."""
    if isinstance(want, dict):
        return isinstance(have, dict) and all(k in have and shows(v, have[k]) for k, v in want.items())
    if isinstance(want, list):
        return isinstance(have, list) and all(any(shows(w, h) for h in have) for w in want)
    return bool(want == have) and isinstance(want, bool) == isinstance(have, bool)


def _effect_problem(game: Game[Any], after: Any, then: Mapping[str, Any]) -> str | None:
    if not then or set(then) - {"scoreboard", "outcome"}:
        return 'an effect names "scoreboard" and/or "outcome" in "then", nothing else'
    if "scoreboard" in then:
        board = game.scoreboard(after)
        for key, value in then["scoreboard"].items():
            if not shows(value, board.get(key)):
                return f"the scoreboard's {key!r} is {board.get(key)!r}, which does not show {value!r}"
    if "outcome" in then:
        outcome = game.outcome(after)
        have = None if outcome is None else outcome.to_json()
        want = then["outcome"]
        if (want is None) != (have is None) or (want is not None and not shows(want, have)):
            return f"the outcome is {have!r}, which does not show {want!r}"
    return None


def check_case(game: Game[Any], case: RuleCase) -> str | None:
    """None if the engine does what the case expects, else what went wrong."""
    state = game.new_state(case.header)
    for n, move in enumerate(case.moves, start=1):
        verdict = game.judge(state, move)
        if not verdict.ok:
            return f"move {n} of the lead-up, {game.codec.to_json(move)}, is refused: {verdict.rules} {verdict.why}"
        state = game.apply(state, move)
    verdict, after = game.play(state, case.move)
    if case.expect == "illegal":
        if verdict.ok:
            return "the move is accepted"
        if case.rule not in verdict.rules:
            return f"the move is refused citing {list(verdict.rules)}, not {case.rule}: {verdict.why}"
        if not verdict.why:
            return "the refusal says no why"
        if after is not state:
            return "the refused move changed the state"
        return None
    if not verdict.ok:
        return f"the move is refused: {list(verdict.rules)} {verdict.why}"
    if case.expect == "effect":
        return _effect_problem(game, after, case.then)
    return None
