"""Loading and validating an Escape House card set (a JSON file in this package, or an inline object).

The loader is a validator first: whatever it is given (a name, an object from a header, hostile
input from a property test) it either returns a :class:`CardSet` or raises :class:`SetupError` with
one sentence naming the card and the problem. It never raises anything else.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Mapping
from importlib import resources
from typing import Any

from companion.core.errors import SetupError
from .cards import (
    PLAYED_EFFECT_KINDS,
    Card,
    CardSet,
    Cond,
    Condition,
    Do,
    Effect,
    Kind,
    Who,
)

log = logging.getLogger(__name__)

MAX_COPIES = 50
MAX_CARDS = 2000
_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}")
_SET_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,40}")

_COMMON_FIELDS = frozenset({"id", "kind", "name", "text", "copies"})
_FIELDS: dict[Kind, frozenset[str]] = {
    Kind.MAIN: _COMMON_FIELDS | {"clear", "effects"},
    Kind.SIDE: _COMMON_FIELDS | {"clear", "effects"},
    Kind.PENALTY: _COMMON_FIELDS | {"effects"},
    Kind.CLOCK: _COMMON_FIELDS,
    Kind.ITEM: _COMMON_FIELDS | {"item"},
    Kind.ACTION: _COMMON_FIELDS | {"effects"},
    Kind.TRAP: _COMMON_FIELDS | {"effects"},
    Kind.BETRAY: _COMMON_FIELDS | {"effects"},
}
_NEEDS_EFFECTS = frozenset({Kind.PENALTY, Kind.ACTION, Kind.TRAP, Kind.BETRAY})

# Which effects each kind of card may carry, and whom they may touch (the first is the default).
_EFFECT_KINDS: dict[Do, frozenset[Kind]] = {
    Do.SACRIFICE: PLAYED_EFFECT_KINDS,
    Do.PROTECT: PLAYED_EFFECT_KINDS,
    Do.NO_MOVE: frozenset({Kind.TRAP, Kind.ACTION, Kind.BETRAY, Kind.PENALTY, Kind.MAIN, Kind.SIDE}),
    Do.NO_PLAY: frozenset({Kind.TRAP, Kind.ACTION, Kind.BETRAY, Kind.PENALTY, Kind.MAIN, Kind.SIDE}),
    Do.DISCARD: frozenset({Kind.TRAP, Kind.ACTION, Kind.BETRAY, Kind.PENALTY, Kind.MAIN, Kind.SIDE}),
    Do.DRAW_DISCARD: frozenset({Kind.ACTION, Kind.BETRAY, Kind.PENALTY, Kind.MAIN, Kind.SIDE}),
    Do.PENALTY: frozenset({Kind.TRAP, Kind.PENALTY, Kind.MAIN, Kind.SIDE}),
    Do.NO_PENALTY: PLAYED_EFFECT_KINDS,
}
_WHO: dict[Kind, tuple[Who, ...]] = {
    Kind.TRAP: (Who.SELF,),
    Kind.ACTION: (Who.TARGET, Who.SELF, Who.ROOM, Who.ALL),
    Kind.BETRAY: (Who.TARGET, Who.SELF, Who.ROOM, Who.ALL),
    Kind.PENALTY: (Who.ALL,),
    Kind.MAIN: (Who.ROOM, Who.ALL),
    Kind.SIDE: (Who.ROOM, Who.ALL),
}
_EFFECT_FIELDS: dict[Do, frozenset[str]] = {
    Do.SACRIFICE: frozenset({"do", "same_room", "votes"}),
    Do.PROTECT: frozenset({"do"}),
    Do.NO_MOVE: frozenset({"do", "who"}),
    Do.NO_PLAY: frozenset({"do", "who"}),
    Do.DISCARD: frozenset({"do", "who", "count"}),
    Do.DRAW_DISCARD: frozenset({"do", "who", "count"}),
    Do.PENALTY: frozenset({"do", "count"}),
    Do.NO_PENALTY: frozenset({"do"}),
}
_COND_FIELDS: dict[Cond, frozenset[str]] = {
    Cond.ITEMS: frozenset({"if", "items"}),
    Cond.ANY_ITEMS: frozenset({"if", "of", "count"}),
    Cond.SACRIFICE: frozenset({"if"}),
}


def _show(value: Any) -> str:
    """A short, safe spelling of a bad value for a message."""
    if isinstance(value, str):
        return json.dumps(value[:40])
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, (int, float)):
        return str(value) if abs(value) < 1e12 else "a huge number"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, Mapping):
        return "an object"
    return f"a {type(value).__name__}"


def _choices(enum_type: Any) -> str:
    return ", ".join(m.value for m in enum_type)


def _int(value: Any, low: int, high: int) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool) and low <= value <= high:
        return value
    return None


class _Reader:
    """Reads one card entry; ``fail`` raises a SetupError naming the card."""

    def __init__(self, where: str) -> None:
        self.where = where

    def fail(self, problem: str) -> SetupError:
        return SetupError(f"card set: {self.where}: {problem}")

    def text(self, entry: Mapping[Any, Any], key: str, required: bool) -> str | None:
        if key not in entry:
            if required:
                raise self.fail(f'is missing "{key}"')
            return None
        value = entry[key]
        if not isinstance(value, str) or (key != "text" and not value.strip()):
            raise self.fail(f'"{key}" must be a non-empty string, not {_show(value)}')
        return value

    def item_names(self, value: Any, key: str) -> tuple[str, ...]:
        if not isinstance(value, list) or not value or not all(isinstance(v, str) and v for v in value):
            raise self.fail(f'"{key}" must be a non-empty list of item names')
        return tuple(value)

    def condition(self, raw: Any, kind: Kind) -> Condition:
        if not isinstance(raw, Mapping):
            raise self.fail(f"a clear condition must be an object, not {_show(raw)}")
        name = raw.get("if")
        if not isinstance(name, str) or name not in Cond._value2member_map_:
            raise self.fail(f"unknown condition {_show(name)} (conditions: {_choices(Cond)})")
        cond = Cond(name)
        self.only(raw, _COND_FIELDS[cond], f'the "{name}" condition')
        if cond is Cond.SACRIFICE:
            if kind is not Kind.MAIN:
                raise self.fail("side puzzles can only be cleared with items, not a sacrifice")
            return Condition(cond)
        if cond is Cond.ITEMS:
            return Condition(cond, self.item_names(raw.get("items"), "items"))
        names = self.item_names(raw.get("of"), "of")
        count = _int(raw.get("count"), 1, len(names))
        if count is None:
            raise self.fail(f'the "any_items" condition needs "count" from 1 to {len(names)}')
        return Condition(cond, names, count)

    def effect(self, raw: Any, kind: Kind) -> Effect:
        if not isinstance(raw, Mapping):
            raise self.fail(f"an effect must be an object, not {_show(raw)}")
        name = raw.get("do")
        if not isinstance(name, str) or name not in Do._value2member_map_:
            raise self.fail(f"unknown effect {_show(name)} (effects: {_choices(Do)})")
        do = Do(name)
        if kind not in _EFFECT_KINDS[do]:
            raise self.fail(f'a {kind.value} card cannot have the "{name}" effect')
        self.only(raw, _EFFECT_FIELDS[do], f'the "{name}" effect')
        allowed = _WHO[kind]
        who = allowed[0]
        if do in (Do.SACRIFICE, Do.PROTECT):
            who = Who.TARGET
        elif do is Do.DRAW_DISCARD and Who.SELF in allowed:
            who = Who.SELF
        if "who" in raw:
            spelled = raw["who"]
            if not isinstance(spelled, str) or spelled not in {w.value for w in allowed}:
                choices = ", ".join(w.value for w in allowed)
                raise self.fail(f'the "{name}" effect of a {kind.value} card has "who" {_show(spelled)} (allowed: {choices})')
            who = Who(spelled)
        count = 1
        if "count" in raw:
            got = _int(raw["count"], 1, 10)
            if got is None:
                raise self.fail(f'the "{name}" effect needs "count" from 1 to 10, not {_show(raw["count"])}')
            count = got
        same_room = raw.get("same_room", True)
        if not isinstance(same_room, bool):
            raise self.fail(f'"same_room" must be true or false, not {_show(same_room)}')
        votes = _int(raw.get("votes", 1), 1, 8)
        if votes is None:
            raise self.fail(f'"votes" must be a whole number from 1 to 8, not {_show(raw.get("votes"))}')
        return Effect(do, who, count, same_room, votes)

    def only(self, raw: Mapping[Any, Any], allowed: frozenset[str], what: str) -> None:
        for key in raw:
            if key not in allowed:
                raise self.fail(f"{what} has an unknown field {_show(key)}")


def _read_card(raw: Any, index: int) -> list[Card]:
    """One entry of ``cards``: one card, or its copies."""
    reader = _Reader(f"card #{index + 1}")
    if not isinstance(raw, Mapping):
        raise reader.fail(f"must be an object, not {_show(raw)}")
    card_id = raw.get("id")
    if not isinstance(card_id, str):
        raise reader.fail('is missing "id"' if "id" not in raw else f'"id" must be a string, not {_show(card_id)}')
    if not _ID.fullmatch(card_id):
        raise reader.fail(f"id {_show(card_id)} must be letters, digits, '-', '_', '.' or ':' (at most 64)")
    reader = _Reader(f'card "{card_id}"')
    kind_name = raw.get("kind")
    if not isinstance(kind_name, str) or kind_name not in Kind._value2member_map_:
        if "kind" not in raw:
            raise reader.fail('is missing "kind"')
        raise reader.fail(f"unknown kind {_show(kind_name)} (kinds: {_choices(Kind)})")
    kind = Kind(kind_name)
    reader.only(raw, _FIELDS[kind], f"a {kind.value} card")
    name = reader.text(raw, "name", required=True) or card_id
    text = reader.text(raw, "text", required=False) or ""
    copies = _int(raw.get("copies", 1), 1, MAX_COPIES)
    if copies is None:
        raise reader.fail(f'"copies" must be a whole number from 1 to {MAX_COPIES}, not {_show(raw.get("copies"))}')
    item = None
    if kind is Kind.ITEM:
        item = reader.text(raw, "item", required=False) or name
    clear: tuple[Condition, ...] = ()
    if kind in (Kind.MAIN, Kind.SIDE):
        raw_clear = raw.get("clear", [])
        if not isinstance(raw_clear, list):
            raise reader.fail(f'"clear" must be a list of conditions, not {_show(raw_clear)}')
        clear = tuple(reader.condition(c, kind) for c in raw_clear)
        if kind is Kind.SIDE and not clear:
            raise reader.fail('a side puzzle needs at least one "clear" condition (with items)')
        if kind is Kind.MAIN and not any(c.kind is Cond.SACRIFICE for c in clear):
            # "All main puzzle cards have 'sacrifice 1 player' as a clear option" (EH-CLEAR-SACRIFICE).
            clear = clear + (Condition(Cond.SACRIFICE),)
    effects: tuple[Effect, ...] = ()
    raw_effects = raw.get("effects", [])
    if not isinstance(raw_effects, list):
        raise reader.fail(f'"effects" must be a list, not {_show(raw_effects)}')
    effects = tuple(reader.effect(e, kind) for e in raw_effects)
    if kind in _NEEDS_EFFECTS and not effects:
        raise reader.fail(f'a {kind.value} card needs at least one entry in "effects"')
    ids = [card_id] if copies == 1 else [f"{card_id}-{n}" for n in range(1, copies + 1)]
    return [Card(i, kind, name, text, item, clear, effects) for i in ids]


def card_set_from_json(obj: Any, default_name: str = "inline") -> CardSet:
    """Validate a card set object and build it. Raises :class:`SetupError` naming the card."""
    if not isinstance(obj, Mapping):
        raise SetupError(f"a card set must be a JSON object or the name of a shipped set, not {_show(obj)}")
    for key in obj:
        if key not in ("name", "title", "cards"):
            raise SetupError(f"card set: unknown field {_show(key)} (fields: name, title, cards)")
    name = obj.get("name", default_name)
    title = obj.get("title", name)
    if not isinstance(name, str) or not name or not isinstance(title, str):
        raise SetupError('card set: "name" and "title" must be non-empty strings')
    raw_cards = obj.get("cards")
    if not isinstance(raw_cards, list) or not raw_cards:
        raise SetupError('card set: "cards" must be a non-empty list of cards')
    cards: dict[str, Card] = {}
    for index, raw in enumerate(raw_cards):
        for card in _read_card(raw, index):
            if card.id in cards:
                raise SetupError(f'card set: card "{card.id}" is listed twice (ids must be unique)')
            cards[card.id] = card
            if len(cards) > MAX_CARDS:
                raise SetupError(f"card set: more than {MAX_CARDS} cards")
    items = {c.item for c in cards.values() if c.kind is Kind.ITEM}
    for card in cards.values():
        for cond in card.clear:
            for needed in cond.items:
                if needed not in items:
                    raise SetupError(f'card set: card "{card.id}" needs the item "{needed[:40]}", but no item card is one')
    return CardSet(name, title, cards)


_loaded: dict[str, CardSet] = {}


def shipped_sets() -> list[str]:
    """Names of the card sets shipped in this package (files ``<name>_set.json``)."""
    folder = resources.files(__package__ or "companion.games.escape_house")
    return sorted(p.name[: -len("_set.json")].replace("_", "-") for p in folder.iterdir() if p.name.endswith("_set.json"))


def load_card_set(name_or_obj: Any) -> CardSet:
    """A card set by name (a shipped ``<name>_set.json``) or from an inline object.

    Raises :class:`SetupError` (and nothing else) naming the card and the problem.
    """
    if not isinstance(name_or_obj, str):
        return card_set_from_json(name_or_obj)
    name = name_or_obj
    cached = _loaded.get(name)
    if cached is not None:
        return cached
    if not _SET_NAME.fullmatch(name) or name not in shipped_sets():
        raise SetupError(f"no card set named {_show(name)} (shipped: {', '.join(shipped_sets())})")
    path = resources.files(__package__ or "companion.games.escape_house") / f"{name.replace('-', '_')}_set.json"
    try:
        obj = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise SetupError(f'the card set "{name}" cannot be read: {exc}') from exc
    card_set = card_set_from_json(obj, name)
    log.debug("loaded card set %s (%d cards)", name, len(card_set.cards))
    _loaded[name] = card_set
    return card_set
