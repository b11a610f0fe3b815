"""The nouns every part of the companion shares.

An :class:`Observation` is anything seen or entered at the table; a game turns it into a
:class:`Move`; ``check`` answers with a :class:`Verdict`; the end of a game is an :class:`Outcome`.
These are plain frozen values: they cross threads, go into the log and come back out unchanged.
"""

from __future__ import annotations

import dataclasses
import enum
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, TypeAlias

from companion.core.picks import FieldSpec
from companion.core.zones import Zone, ZoneKind

__all__ = [
    "JsonValue",
    "JsonObject",
    "canonical_json",
    "ObservationKind",
    "Observation",
    "Verdict",
    "Rule",
    "RuleBook",
    "Termination",
    "GameResult",
    "Outcome",
    "Move",
    "Header",
    "ZoneKind",
    "Zone",
    "Unexplained",
    "Prompt",
]

JsonValue: TypeAlias = Any
"""A value that ``json.dumps`` accepts (dict, list, str, int, float, bool, None)."""

JsonObject: TypeAlias = dict[str, Any]


_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def canonical_json(value: JsonValue) -> str:
    """The one byte-stable JSON spelling used for hashing and the notation.

    One encoder, made once: ``json.dumps`` with arguments builds a new encoder on every call, and
    every log row needs about a dozen of these.
    """
    return _CANONICAL.encode(value)


class ObservationKind(str, enum.Enum):
    """What an observation says. A fixed, documented vocabulary (docs/architecture.md)."""

    MOVE = "move"
    """A notation move, entered by a person (CLI, web console) or read from a file."""
    TAG = "tag"
    """An NFC tag arrived at or departed from a zone. Payload: the zone's fields (:meth:`Zone.payload`:
    ``zone``, ``zone_kind``, ``player``, ``index``) plus ``event`` (``"arrive"`` | ``"depart"``),
    ``uid`` (hex) and ``card`` (the enrolled card id, or None for a tag no one enrolled).
    Read as :class:`companion.core.seen.TagSeen`."""
    VISION = "vision"
    """The camera's settled view of a zone. Payload: the zone's fields plus ``state``, one of
    ``{"occupied": bool}`` (a card zone), ``{"occupied": bool, "card": "QS" | None}`` (a card
    read by its face), ``{"cubes": [colour, ...]}``, ``{"pawns": {player: [x, y]}}`` with
    ``"unseen_pawns": [player, ...]`` when glare may hide some, or ``{"unseen": why}``; which one
    follows from what the camera watches in the zone's kind (:class:`companion.core.zones.Watch`).
    Read as :class:`companion.core.seen.VisionSeen`."""
    PRESS = "press"
    """A button at the table was pressed (a call button on a player's pad, wired to the reader
    array: firmware/PROTOCOL.md, ``P``). Payload: the button's zone fields (:meth:`Zone.payload`).
    Read as :class:`companion.core.seen.PressSeen`."""
    UNDO = "undo"
    """The referee takes back the last applied move."""
    CORRECTION = "correction"
    """The referee replaces the last applied move with another (``{"move": {...}}``)."""
    NOTE = "note"
    """A remark for the record (a dispute, a reader fault); changes no state."""


@dataclass(frozen=True)
class Observation:
    """One thing seen or entered at the table, on its way into the log.

    ``source`` names where it came from, and so who entered it (:mod:`companion.core.sources`:
    ``"web:referee"``, ``"web:player:anna"``, ``"cli"``, ``"nfc:pile-1"``,
    ``"array:3"``, ``"camera"``, ``"notation"``); ``table_time`` is the table clock in seconds
    (the reader's own clock mapped to the table, or the Pi's clock for a person's entry).
    """

    source: str
    table_time: float
    kind: ObservationKind
    payload: Mapping[str, JsonValue] = field(default_factory=dict)

    def to_json(self) -> JsonObject:
        return {
            "source": self.source,
            "table_time": self.table_time,
            "kind": self.kind.value,
            "payload": dict(self.payload),
        }


@dataclass(frozen=True)
class Verdict:
    """The answer to "may this move be made here?": legal, or the rules it breaks and why.

    ``why`` is one plain sentence a player understands ("a 9 cannot go on a 7; play 6 or 8, or a
    Wisdom"); ``fix`` says what to do at the table to undo it ("take the 9 back into your hand").
    """

    ok: bool
    rules: tuple[str, ...] = ()
    why: str = ""
    fix: str = ""

    @classmethod
    def legal(cls) -> "Verdict":
        return _LEGAL

    @classmethod
    def illegal(cls, rule: str | tuple[str, ...], why: str, fix: str = "") -> "Verdict":
        rules = (rule,) if isinstance(rule, str) else tuple(rule)
        if not rules:
            raise ValueError("an illegal verdict names at least one rule id")
        return cls(False, rules, why, fix)

    def to_json(self) -> JsonObject:
        if self.ok:
            return {"ok": True}
        out: JsonObject = {"ok": False, "rules": list(self.rules), "why": self.why}
        if self.fix:
            out["fix"] = self.fix
        return out

    @classmethod
    def from_json(cls, obj: Mapping[str, JsonValue]) -> "Verdict":
        if obj.get("ok"):
            return _LEGAL
        return cls(False, tuple(obj.get("rules", ())), str(obj.get("why", "")), str(obj.get("fix", "")))


_LEGAL = Verdict(True)


@dataclass(frozen=True)
class Rule:
    """A rule id and the rulebook passage it rests on, quoted, for the rules catalogue and disputes."""

    id: str
    title: str
    source: str
    """The rulebook file in ``shared/rules`` (or ``GAPS.md``) the passage comes from."""
    passage: str
    """The words of the rulebook, quoted (translated for the German Escape Master rules)."""
    refuses: bool = True
    """Can a move be refused citing this rule? False for a rule that only says what happens (scoring,
    the end of a game or a round, the setup, an option): its tests show its effect instead."""


class RuleBook(Mapping[str, Rule]):
    """A game's rules, by id. Ids are stable: a log from last year still cites the same rule."""

    def __init__(self, rules: list[Rule]) -> None:
        self._rules: dict[str, Rule] = {}
        for rule in rules:
            if rule.id in self._rules:
                raise ValueError(f"rule id {rule.id} is defined twice")
            self._rules[rule.id] = rule

    def __getitem__(self, key: str) -> Rule:
        return self._rules[key]

    def __iter__(self) -> Any:
        return iter(self._rules)

    def __len__(self) -> int:
        return len(self._rules)


class Termination(str, enum.Enum):
    """How a game ended (python-chess's ``Termination``): the ways the games end, each at its rule."""

    GOAL = "goal"
    """The goal is reached: The Mountain's last threat falls (a win); an Everest yeti holds the peak
    alone for a whole round."""
    ESCAPED = "escaped"
    """Escape House: every main puzzle is cleared and the players still alive escape."""
    OVERRUN = "overrun"
    """The game beats the table: The Mountain's threats attack and find no health to discard;
    Escape House's third clock brings the cultists back."""
    ALL_SACRIFICED = "all_sacrificed"
    """Escape House: every player has been sacrificed."""
    DRAW_PILE_SPENT = "draw_pile_spent"
    """Horrible Mountain 2: the turn ends in which the Draw Pile runs out for the third time, and
    the scores decide (points, then the tie-breaks)."""
    BREAKING_POINT = "breaking_point"
    """Escape Master: a player (or team) has reached the Breaking Point; the fewest faults win."""
    DOOM_PILE = "doom_pile"
    """Escape Master, early end: the Doom pile holds every Doom Master card."""
    LAST_ROUND = "last_round"
    """Escape Master with fixed rounds: the last of them is played."""
    TIE_ROUND = "tie_round"
    """Escape Master: the extra round that a tie for the fewest faults called for is played."""


class GameResult(Protocol):
    """A game's own typed end result (a frozen dataclass in the game's package)."""

    def to_json(self) -> JsonObject:
        """The game's outcome object exactly as NOTATION.md spells it for that game."""
        ...


@dataclass(frozen=True)
class Outcome:
    """How a game ended (python-chess's ``Outcome(termination, winner)``).

    ``winners`` empty means nobody won (everybody loses); ``result`` is the game's own typed result,
    whose JSON is the outcome object of NOTATION.md (``{"winner": "anna", "reason": "..."}``,
    ``{"won": true, "score": 17}``, ...): logs, the scoreboard and exports carry that.
    """

    termination: Termination
    winners: tuple[str, ...]
    result: GameResult

    def to_json(self) -> JsonObject:
        return self.result.to_json()


@dataclass(frozen=True, kw_only=True)
class Move:
    """Base of every game's moves: a frozen dataclass per verb.

    Subclasses set ``verb`` and declare their fields with types; the notation module reads and
    writes them generically (``{"by": P, "do": verb, ...fields, "t": seconds}``).
    """

    verb: ClassVar[str] = ""
    hidden_fields: ClassVar[tuple[str, ...]] = ()
    """Fields the public scoreboard and log never show (a card drawn into a hand)."""
    picks: ClassVar[Mapping[str, FieldSpec]] = {}
    """What each field's values are drawn from (:mod:`companion.core.picks`), so that a page can
    offer them to tap; every field but ``by`` and ``t`` declares one."""
    by: str | None = None
    """The player who acts; None where no player acts (a penalty draw, the start of a round)."""
    t: float | None = None
    """Table time of the observation, in seconds; orders near-simultaneous plays."""

    def replace(self, **changes: Any) -> "Move":
        return dataclasses.replace(self, **changes)


@dataclass(frozen=True)
class Header:
    """The first line of a notation file: which game, who plays, options and the dealt setup."""

    game: str
    players: tuple[str, ...]
    options: Mapping[str, JsonValue] = field(default_factory=dict)
    setup: Mapping[str, JsonValue] = field(default_factory=dict)

    def to_json(self) -> JsonObject:
        return {
            "game": self.game,
            "players": list(self.players),
            "options": dict(self.options),
            "setup": dict(self.setup),
        }


@dataclass(frozen=True)
class Unexplained:
    """The table shows something no legal move explains. Raised as an alert naming the zone and the fix."""

    zone: str
    what: str
    fix: str


@dataclass(frozen=True)
class Prompt:
    """Something the session needs from a person before the game can go on (a die roll, a plan)."""

    who: str | None
    """The player asked, or None for the referee / anyone at the table."""
    verb: str
    """The notation verb that answers it."""
    text: str
