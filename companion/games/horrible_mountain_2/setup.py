"""Reading the dealt table from a notation header (NOTATION.md "Horrible Mountain 2").

Every problem is a :class:`SetupError` with one sentence that starts with the rule id it breaks.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from companion.core.errors import SetupError
from . import rules as R
from .cards import CENTRE_SLOT, COLOURS, DECK_SET, SLOTS, card_problem, rank, setup_rank
from .options import Options
from .state import ADVENTURER, EVIL, Phase, State

KEYS = ("evil_master", "table", "hands", "cubes", "centre")
LIVE_KEYS = ("evil_master", "table", "cubes", "centre")
"""A live table's setup: what lies face up or is chosen. Without ``hands``, each player taps the three
cards dealt to them (``dealt``) before the cubes are placed; nobody types a face-down card."""
HAND_SIZE = 3


def _fail(rule: str, sentence: str) -> SetupError:
    return SetupError(f"{rule}: {sentence}")


def _card(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise _fail(R.SETUP_CARDS, f"{where} must be a card name like \"4H\", not {json.dumps(value)}")
    problem = card_problem(value)
    if problem:
        raise _fail(R.SETUP_CARDS, f"{where}: {problem}")
    return value


def _per_player(setup: Mapping[str, Any], key: str, players: tuple[str, ...], rule: str) -> Mapping[str, Any]:
    value = setup[key]
    if not isinstance(value, dict):
        raise _fail(rule, f'setup "{key}" must be an object with an entry for each player')
    for name in value:
        if name not in players:
            raise _fail(rule, f'setup "{key}" names "{name}", who is not playing')
    for name in players:
        if name not in value:
            raise _fail(rule, f'setup "{key}" has no entry for {name}')
    return value


def build_state(players: tuple[str, ...], options: Options, setup: Mapping[str, Any]) -> State:
    """The table after setup step 8, before the cubes are placed (setup steps 5-6 are moves)."""
    for key in setup:
        if key not in KEYS:
            raise SetupError(f'the setup has an unknown field "{key}" (expected {", ".join(KEYS)})')
    for key in LIVE_KEYS:
        if key not in setup:
            raise SetupError(f'the setup is missing "{key}"')
    live = "hands" not in setup

    evil = setup["evil_master"]
    if evil not in players:
        raise _fail(R.SETUP_ROLES, f"the Evil Master {json.dumps(evil)} is not one of the players")
    adventurer = next(p for p in players if p != evil)
    names = (str(evil), adventurer)

    raw_table = setup["table"]
    if not isinstance(raw_table, list) or len(raw_table) != len(SLOTS):
        raise _fail(R.SETUP_TABLE, "the table must list five Table Cards, one per slot 1 to 5")
    table = tuple(_card(c, f"table slot {i + 1}") for i, c in enumerate(raw_table))
    for slot, card in zip(SLOTS, table):
        if rank(card) != setup_rank(slot):
            raise _fail(
                R.SETUP_TABLE,
                f"slot {slot} must hold a {setup_rank(slot)} (one of each rank 2 to 6, in order), not {card}",
            )

    raw_hands = {name: [] for name in names} if live else _per_player(setup, "hands", players, R.SETUP_HANDS)
    hands: list[frozenset[str]] = []
    for name in names:
        cards = raw_hands[name]
        if not isinstance(cards, list) or len(cards) != (0 if live else HAND_SIZE):
            raise _fail(R.SETUP_HANDS, f"{name} must start with a hand of three cards")
        hands.append(frozenset(_card(c, f"{name}'s hand") for c in cards))

    dealt = list(table) + [c for name in names for c in raw_hands[name]]
    seen: set[str] = set()
    for card in dealt:
        if card in seen:
            raise _fail(R.SETUP_CARDS, f"{card} is dealt twice; each of the 20 cards exists once")
        seen.add(card)

    raw_cubes = _per_player(setup, "cubes", players, R.SETUP_CUBES)
    colours: list[tuple[str, str]] = []
    taken: set[str] = set()
    for name in names:
        pair = raw_cubes[name]
        if not isinstance(pair, list) or len(pair) != 2 or any(c not in COLOURS for c in pair):
            raise _fail(R.SETUP_CUBES, f"{name} must get two colours out of {', '.join(COLOURS)}")
        if pair[0] == pair[1]:
            raise _fail(R.SETUP_CUBES, f"{name} must get two different colours, not {pair[0]} twice")
        for colour in pair:
            if colour in taken:
                raise _fail(R.SETUP_CUBES, f"{colour} is given to both players; each colour goes to one place")
            taken.add(colour)
        colours.append((pair[0], pair[1]))
    centre = setup["centre"]
    if centre not in COLOURS or centre in taken:
        left = next(c for c in COLOURS if c not in taken)
        raise _fail(R.SETUP_CUBES, f"the centre colour must be the one left over, {left}, not {json.dumps(centre)}")

    slot_cubes: list[str | None] = [None] * len(SLOTS)
    slot_cubes[CENTRE_SLOT - 1] = str(centre)
    return State(
        names=names,
        players=players,
        options=options,
        colours=(colours[EVIL], colours[ADVENTURER]),
        table=table,
        slot_cubes=tuple(slot_cubes),
        control=(frozenset(colours[EVIL]), frozenset(colours[ADVENTURER])),
        cube_pile=frozenset({str(centre)}),
        hands=(hands[EVIL], hands[ADVENTURER]),
        draw_pile=DECK_SET.difference(dealt),
        discard=(),
        discard_unordered=frozenset(),
        exhausted=0,
        phase=Phase.DEAL if live else Phase.PLACE,
        turn=ADVENTURER,
        must_discard=False,
        used_once=frozenset(),
        examined=None,
        turns=0,
    )
