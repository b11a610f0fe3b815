"""From a notation header to the state before the first move (NOTATION.md "Escape Master" setup)."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from companion.core.errors import SetupError
from .cards import SUITS, card_problem, parse_card
from .data import load_deck, load_leaders, load_story
from .options import EscapeMasterOptions
from .state import Mods, Phase, RoundState, State, Table

logger = logging.getLogger(__name__)

SETUP_KEYS = ("dealer", "hands", "leaders")


def _check_options(players: tuple[str, ...], options: EscapeMasterOptions) -> tuple[int, ...] | None:
    if options.breaking_point < 1:
        raise SetupError("options.breaking_point must be at least 1")
    if options.hand_size < 0:
        raise SetupError("options.hand_size cannot be negative")
    if options.fixed_rounds is not None and options.fixed_rounds < 1:
        raise SetupError("options.fixed_rounds must be at least 1 (or null to play to the Breaking Point)")
    for name in ("beaten_window_s", "combo_window_s", "out_window_s"):
        if getattr(options, name) < 0:
            raise SetupError(f"options.{name} cannot be negative")
    if options.xp_cap < 0 or options.beast_cost_xp < 0:
        raise SetupError("options.xp_cap and options.beast_cost_xp cannot be negative")
    if options.teams is None:
        return None
    team: dict[str, int] = {}
    for k, pair in enumerate(options.teams):
        for name in pair:
            if name not in players:
                raise SetupError(f'options.teams names "{name}", who is not a player')
            if name in team:
                raise SetupError(f'options.teams names "{name}" twice')
            team[name] = k
        if pair[0] == pair[1]:
            raise SetupError(f'options.teams pairs "{pair[0]}" with themselves')
    left = [p for p in players if p not in team]
    if left:
        raise SetupError(f"options.teams leaves {', '.join(left)} without a team (Escape Alliance is teams of two)")
    if len(options.teams) < 2:
        raise SetupError("options.teams needs at least two teams")
    return tuple(team[p] for p in players)


def _cards(where: str, raw: Any) -> tuple[str, ...]:
    if not isinstance(raw, list):
        raise SetupError(f"{where} must be a list of card names")
    for card in raw:
        problem = card_problem(card)
        if problem:
            raise SetupError(f"{where}: {problem}")
    return tuple(raw)


def build_state(players: tuple[str, ...], options: EscapeMasterOptions, setup: Mapping[str, Any]) -> State:
    unknown = [k for k in setup if k not in SETUP_KEYS]
    if unknown:
        raise SetupError(f'setup has an unknown field "{unknown[0]}" (known: {", ".join(SETUP_KEYS)})')
    team = _check_options(players, options)
    deck = load_deck(options.deck_file)
    leader_data = load_leaders(options.leaders_file)
    stories = load_story(options.story_file)
    table = Table(
        players=players,
        seat={p: i for i, p in enumerate(players)},
        options=options,
        deck=deck,
        cards={c: parse_card(c) for c in deck.cards},
        leader_data=leader_data,
        stories=stories,
        team=team,
    )
    n = len(players)
    dealer = setup.get("dealer")
    if not isinstance(dealer, str) or dealer not in table.seat:
        raise SetupError('setup.dealer must name one of the players (the first dealer)')
    leaders_raw = setup.get("leaders", {})
    if not isinstance(leaders_raw, dict):
        raise SetupError("setup.leaders must be an object: player -> tribe")
    leaders: list[str | None] = [None] * n
    for name, tribe in leaders_raw.items():
        if name not in table.seat:
            raise SetupError(f'setup.leaders names "{name}", who is not a player')
        if tribe not in SUITS or tribe not in leader_data.tribes:
            raise SetupError(f'setup.leaders.{name}: "{tribe}" is not a tribe with a leader card ({", ".join(SUITS)})')
        leaders[table.seat[name]] = tribe
    hands_raw = setup.get("hands")
    hands: list[frozenset[str]] = [frozenset()] * n
    if hands_raw is not None:
        if not isinstance(hands_raw, dict):
            raise SetupError("setup.hands must be an object: player -> list of cards")
        seen: dict[str, str] = {}
        for name, raw in hands_raw.items():
            if name not in table.seat:
                raise SetupError(f'setup.hands names "{name}", who is not a player')
            cards = _cards(f"setup.hands.{name}", raw)
            for card in cards:
                if card not in deck.cards:
                    raise SetupError(f"setup.hands.{name}: {card} is not a card of this deck ({options.deck_file})")
                if card in seen:
                    raise SetupError(f"setup.hands: {card} is dealt to both {seen[card]} and {name}")
                seen[card] = name
            hands[table.seat[name]] = frozenset(cards)
        missing = [p for p in players if p not in hands_raw]
        if missing:
            raise SetupError(f"setup.hands has no hand for {', '.join(missing)}")
    dealt = frozenset().union(*hands)
    rnd = RoundState.fresh(n, tuple(hands), deck.cards - dealt)
    logger.debug("escape master: %d players, %d cards in the deck", n, len(deck.cards))
    return State(
        table=table,
        phase=Phase.WAITING if hands_raw is not None else Phase.DEALING,
        round_no=1,
        dealer=table.seat[dealer],
        players_in=tuple(range(n)),
        faults=(0,) * n,
        round_faults=(0,) * n,
        rounds=(),
        xp=(0,) * n,
        leaders=tuple(leaders),
        story_eligible=(),
        story_why="",
        story_drawn=False,
        doom_pile=(),
        tiebreak=False,
        result=None,
        mods=Mods.fresh(n),
        rnd=rnd,
    )
