"""The data files the scan left unclear (GAPS.md): the deck counts, the Escape Leader abilities by
tribe, and the Story cards. They ship beside this module (``deck.json``, ``leaders.json``,
``story.json``); an option names another file in the package to use instead.

Files are read once and cached: the engine stays a pure function of (state, move).
"""

from __future__ import annotations

import functools
import json
import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from importlib import resources
from typing import Any

from companion.core.errors import SetupError
from .cards import INDEXED_KINDS, RANKS, SUITS, card_problem

logger = logging.getLogger(__name__)

_FILE_NAME = re.compile(r"[a-z0-9][a-z0-9_.-]*\.json")

ABILITIES = ("fewer_cards", "teen_combos", "extra_fault", "discard_last", "fault_cap", "no_benefit")
"""The Escape Leader abilities the engine knows how to referee (leaders.json maps tribes to them)."""


@dataclass(frozen=True)
class DeckData:
    """Every card of the GAME deck, by name."""

    cards: frozenset[str]
    doom: tuple[str, ...]


@dataclass(frozen=True)
class AbilityData:
    """One Escape Leader ability and its numbers (leaders.json)."""

    key: str
    text: str = ""
    hand: int = 0
    beast_hand: int = 0
    beast_target_hand: int = 0
    suit: str = "teen"
    faults: int = 0
    extra_cards: int = 0
    beast_faults: int = 0
    beast_extra_cards: int = 0
    cards: int = 0
    beast_cards: int = 0
    cap: int | None = None
    beast_cap: int | None = None
    beast_defuse: int = 0


@dataclass(frozen=True)
class LeaderData:
    tribes: Mapping[str, str]
    """tribe -> ability key"""
    abilities: Mapping[str, AbilityData]

    def ability(self, tribe: str | None) -> AbilityData | None:
        if tribe is None:
            return None
        key = self.tribes.get(tribe)
        return self.abilities.get(key) if key else None


@dataclass(frozen=True)
class StoryData:
    """One Story card (story.json): the XP it gives once used and the effects the engine tracks."""

    number: int
    xp: int = 1
    text: str = ""
    hand: int = 0
    tribe_hand: Mapping[str, int] = field(default_factory=dict)
    others_tribe_hand: Mapping[str, int] = field(default_factory=dict)
    faults: int = 0
    tribe_faults: Mapping[str, int] = field(default_factory=dict)
    leader_change: str | None = None
    swap_draw: int = 0
    tribe_swap_draw: Mapping[str, int] = field(default_factory=dict)
    pass_cards: int = 0
    tribe_pass_cards: Mapping[str, int] = field(default_factory=dict)
    targets: int = 0
    tribe_targets: Mapping[str, int] = field(default_factory=dict)
    disable_targets: bool = False
    guess: bool = False
    discard_with_wisdom: bool = False
    beast: bool = False

    def for_tribe(self, name: str, tribe: str | None) -> int:
        """A number of this card, with the tribe's exception (``tribe_<name>``) if the player is of it."""
        base: int = getattr(self, name)
        special: Mapping[str, int] = getattr(self, f"tribe_{name}")
        if tribe is not None and tribe in special:
            return special[tribe]
        return base


def _read(name: str, what: str) -> Any:
    if not _FILE_NAME.fullmatch(name):
        raise SetupError(f'the {what} file "{name}" must be a plain file name ending in .json')
    try:
        text = resources.files(__package__).joinpath(name).read_text(encoding="utf-8")
    except (FileNotFoundError, OSError) as exc:
        raise SetupError(f'the {what} file "{name}" is not in the Escape Master package') from exc
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise SetupError(f'the {what} file "{name}" is not valid JSON ({exc.msg}, line {exc.lineno})') from exc


def _need(cond: bool, message: str) -> None:
    if not cond:
        raise SetupError(message)


@functools.lru_cache(maxsize=16)
def load_deck(name: str) -> DeckData:
    raw = _read(name, "deck")
    _need(isinstance(raw, dict), f"deck file {name}: the top level must be an object")
    suits = raw.get("suits", list(SUITS))
    ranks = raw.get("ranks", list(RANKS))
    _need(isinstance(suits, list) and all(s in SUITS for s in suits), f"deck file {name}: suits must be among {SUITS}")
    _need(isinstance(ranks, list) and all(r in RANKS for r in ranks), f"deck file {name}: ranks must be among {RANKS}")
    cards = {f"{s}-{r}" for s in suits for r in ranks}
    counts = raw.get("counts", {})
    _need(isinstance(counts, dict), f"deck file {name}: counts must be an object")
    for kind in INDEXED_KINDS:
        n = counts.get(kind.value, 0)
        _need(isinstance(n, int) and 0 <= n <= 999, f"deck file {name}: count of {kind.value} must be 0..999")
        cards.update(f"{kind.value}-{i}" for i in range(1, n + 1))
    unknown = set(counts) - {k.value for k in INDEXED_KINDS}
    _need(not unknown, f"deck file {name}: unknown count {sorted(unknown)[0] if unknown else ''}")
    if raw.get("dead_end", True):
        cards.add("dead-end")
    doom = raw.get("doom", ["J", "Q", "K"])
    _need(isinstance(doom, list) and all(d in ("J", "Q", "K") for d in doom), f"deck file {name}: doom must list J, Q, K")
    doom_cards = tuple(f"doom-{d}" for d in doom)
    cards.update(doom_cards)
    for card in cards:  # the grammar and the data must agree
        problem = card_problem(card)
        _need(problem is None, f"deck file {name}: {problem}")
    logger.debug("deck %s: %d cards", name, len(cards))
    return DeckData(frozenset(cards), doom_cards)


@functools.lru_cache(maxsize=16)
def load_leaders(name: str) -> LeaderData:
    raw = _read(name, "leaders")
    _need(isinstance(raw, dict), f"leaders file {name}: the top level must be an object")
    tribes = raw.get("tribes", {})
    abilities_raw = raw.get("abilities", {})
    _need(isinstance(tribes, dict) and isinstance(abilities_raw, dict), f"leaders file {name}: tribes and abilities must be objects")
    known = {f.name for f in fields(AbilityData)} - {"key"}
    abilities: dict[str, AbilityData] = {}
    for key, params in abilities_raw.items():
        _need(key in ABILITIES, f'leaders file {name}: unknown ability "{key}" (known: {", ".join(ABILITIES)})')
        _need(isinstance(params, dict) and set(params) <= known, f'leaders file {name}: ability "{key}" has an unknown field')
        abilities[key] = AbilityData(key=key, **params)
    for tribe, key in tribes.items():
        _need(isinstance(tribe, str) and key in abilities, f'leaders file {name}: tribe "{tribe}" names no ability in the file')
    return LeaderData(dict(tribes), abilities)


@functools.lru_cache(maxsize=16)
def load_story(name: str) -> Mapping[int, StoryData]:
    raw = _read(name, "story")
    _need(isinstance(raw, dict) and isinstance(raw.get("cards"), dict), f"story file {name}: needs an object \"cards\"")
    known = {f.name for f in fields(StoryData)} - {"number"}
    out: dict[int, StoryData] = {}
    for number, params in raw["cards"].items():
        _need(number.isdigit() and int(number) > 0, f'story file {name}: card "{number}" must be a positive number')
        _need(isinstance(params, dict) and set(params) <= known, f"story file {name}: card {number} has an unknown field")
        out[int(number)] = StoryData(number=int(number), **params)
    return out
