"""Setting up the house from a notation header (NOTATION.md "Escape House", rules EH-SETUP-*)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from companion.core.errors import SetupError
from .cards import DECK_KINDS, HAND_KINDS, PENALTY_KINDS, CardSet, Kind, kinds_of
from .cardset import load_card_set
from .options import EscapeHouseOptions
from .state import CLOCKS_TO_LOSE, MAIN_ROOM, Phase, State

SETUP_KEYS = ("card_set", "main", "rooms", "hands", "penalties")
LIVE_KEYS = ("card_set", "main", "rooms")
"""A live table's setup: only what lies face up. Without ``hands``, each player taps the four cards
dealt to them (``dealt``); the room decks, the face-down puzzles and the penalty deck's order stay
unknown until a card is drawn, flipped or cleared, so nobody types a face-down card."""
ROOM_NAMES = ("library", "kitchen", "cellar", "study", "attic", "parlour", "chapel", "nursery")
"""The side rooms of a live table, in order (a setup may name its own)."""
BASE_PLAYERS = 6
BASE_MAIN = 7
BASE_ROOMS = 6
DEALT_PER_PLAYER = 3
_MAIN_KINDS = frozenset({Kind.MAIN})
_SIDE_KINDS = frozenset({Kind.SIDE})


def main_count(players: int) -> int:
    """EH-SETUP-MAIN: 7 main obstacles, one more per player over 6."""
    return BASE_MAIN + max(0, players - BASE_PLAYERS)


def room_count(players: int) -> int:
    """EH-SETUP-ROOMS: 6 side rooms, one more per player over 6."""
    return BASE_ROOMS + max(0, players - BASE_PLAYERS)


class _Dealt:
    """Checks the cards of a setup as they are read: each known, of the right kind, used once."""

    def __init__(self, card_set: CardSet) -> None:
        self.card_set = card_set
        self.kinds = kinds_of(card_set)
        self.seen: dict[str, str] = {}

    def ids(self, value: Any, where: str) -> tuple[str, ...]:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise SetupError(f"setup {where} must be a list of card ids")
        return tuple(value)

    def take(self, card: str, kinds: frozenset[Kind], where: str) -> None:
        kind = self.kinds.get(card)
        if kind is None:
            raise SetupError(f'setup {where} names "{card[:40]}", which is not a card of the set "{self.card_set.name}"')
        if kind not in kinds:
            wanted = " or ".join(sorted(k.value for k in kinds))
            article = "an" if kind.value[0] in "aeiou" else "a"
            raise SetupError(f'setup {where}: "{card}" is {article} {kind.value} card, not {wanted}')
        if card in self.seen:
            raise SetupError(f'setup {where}: "{card}" is already dealt to {self.seen[card]}')
        self.seen[card] = where


def _fields(setup: Mapping[str, Any], known: tuple[str, ...], needed: tuple[str, ...], which: str) -> None:
    """Every field of ``setup`` is one of ``known``, and every one of ``needed`` is there."""
    for key in setup:
        if key not in known:
            raise SetupError(f'{which} an unknown field "{str(key)[:40]}" (fields: {", ".join(known)})')
    for key in needed:
        if key not in setup:
            raise SetupError(f'setup is missing "{key}"')


def build_state(players: tuple[str, ...], options: EscapeHouseOptions, setup: Mapping[str, Any]) -> State:
    """The state before the first move, or :class:`SetupError` with one sentence naming the problem."""
    if "hands" not in setup:
        return build_live_state(players, options, setup)
    _fields(setup, SETUP_KEYS, SETUP_KEYS, "setup has")
    card_set = load_card_set(setup["card_set"])
    dealt = _Dealt(card_set)
    n = len(players)

    # EH-SETUP-MAIN
    main = dealt.ids(setup["main"], '"main"')
    if len(main) != main_count(n):
        raise SetupError(f"setup \"main\" has {len(main)} main puzzles; {n} players need {main_count(n)}")
    for card in main:
        dealt.take(card, _MAIN_KINDS, "the main room")

    # EH-SETUP-ROOMS
    rooms_raw = setup["rooms"]
    if not isinstance(rooms_raw, Mapping):
        raise SetupError('setup "rooms" must be an object: room name -> [side puzzle, deck cards top first]')
    if len(rooms_raw) != room_count(n):
        raise SetupError(f'setup "rooms" has {len(rooms_raw)} side rooms; {n} players need {room_count(n)}')
    puzzles: dict[str, str] = {}
    decks: dict[str, tuple[str, ...]] = {}
    for room, raw in rooms_raw.items():
        if not isinstance(room, str) or not room.strip() or room == MAIN_ROOM or len(room) > 40:
            raise SetupError(f'setup "rooms": {json.dumps(str(room)[:40])} cannot name a side room ("main" is the main room)')
        cards = dealt.ids(raw, f'room "{room}"')
        if not cards:
            raise SetupError(f'setup room "{room}" needs its side puzzle first')
        dealt.take(cards[0], _SIDE_KINDS, f'room "{room}"')
        for card in cards[1:]:
            dealt.take(card, DECK_KINDS, f'the deck of room "{room}"')
        puzzles[room] = cards[0]
        decks[room] = cards[1:]

    # EH-SETUP-HANDS
    hands_raw = setup["hands"]
    if not isinstance(hands_raw, Mapping) or set(hands_raw) != set(players):
        raise SetupError('setup "hands" must give a hand to each player, and only to the players')
    hands: dict[str, tuple[str, ...]] = {}
    for player in players:
        hand = dealt.ids(hands_raw[player], f"hand of {player}")
        betrays = [c for c in hand if dealt.kinds.get(c) is Kind.BETRAY]
        if len(betrays) != 1 or len(hand) != 1 + DEALT_PER_PLAYER:
            raise SetupError(f"setup: {player} must be dealt one Betray card and {DEALT_PER_PLAYER} more, not {len(hand)} cards")
        for card in hand:
            dealt.take(card, HAND_KINDS, f"the hand of {player}")
        hands[player] = hand

    # EH-SETUP-DECKS: the whole draw deck is dealt, the rest split evenly over the side rooms.
    for card in card_set.ids(*DECK_KINDS):
        if card not in dealt.seen:
            raise SetupError(f'setup: "{card}" of the draw deck is in no hand and no room')
    sizes = [len(d) for d in decks.values()]
    if options.check_even_split and max(sizes) - min(sizes) > 1:
        raise SetupError(f"setup: the side rooms' decks hold {min(sizes)} to {max(sizes)} cards; split them evenly")

    # EH-SETUP-PENALTIES
    penalties = dealt.ids(setup["penalties"], '"penalties"')
    for card in penalties:
        dealt.take(card, PENALTY_KINDS, "the penalty deck")
    missing = [c for c in card_set.ids(*PENALTY_KINDS) if c not in penalties]
    if missing:
        raise SetupError(f'setup "penalties" must hold every penalty card; "{missing[0]}" is missing')
    clocks = sum(1 for c in penalties if card_set.kind_of(c) is Kind.CLOCK)
    if clocks < CLOCKS_TO_LOSE:
        raise SetupError(f"the penalty deck has {clocks} clock cards; it needs {CLOCKS_TO_LOSE}")

    return State(
        cards=card_set,
        options=options,
        players=players,
        rooms=tuple(puzzles),
        puzzles=puzzles,
        main=main,
        decks=decks,
        hands=hands,
        penalties=penalties,
        where={p: MAIN_ROOM for p in players},
        alive=players,
    )


def _room_names(raw: Any, n: int) -> tuple[str, ...]:
    """A live table's side rooms: a list of names, or a count's worth of :data:`ROOM_NAMES`."""
    if raw is None:
        return ROOM_NAMES[: room_count(n)]
    if not isinstance(raw, list) or not all(isinstance(r, str) for r in raw):
        raise SetupError('setup "rooms" of a live table must be a list of room names (their decks are face down)')
    if len(raw) != room_count(n):
        raise SetupError(f'setup "rooms" has {len(raw)} side rooms; {n} players need {room_count(n)}')
    for room in raw:
        if not room.strip() or room == MAIN_ROOM or len(room) > 40:
            raise SetupError(f'setup "rooms": {json.dumps(room[:40])} cannot name a side room ("main" is the main room)')
    if len(set(raw)) != len(raw):
        raise SetupError('setup "rooms" names a room twice')
    return tuple(raw)


def build_live_state(players: tuple[str, ...], options: EscapeHouseOptions, setup: Mapping[str, Any]) -> State:
    """A live table (no ``hands``): the face-up main puzzle (or the first few, top first) and the room
    names are all the setup knows. The rest of the draw deck is split evenly over the side rooms
    (EH-SETUP-DECKS: the first rooms in order take the odd cards), unknown card by card."""
    _fields(setup, LIVE_KEYS, ("card_set", "main"), "a live table's setup (no \"hands\") has")
    card_set = load_card_set(setup["card_set"])
    dealt = _Dealt(card_set)
    n = len(players)
    main = dealt.ids(setup["main"], '"main"')
    if not 1 <= len(main) <= main_count(n):
        raise SetupError(f'setup "main" names the face-up main puzzle (1 to {main_count(n)} cards top first, the rest stay face down)')
    for card in main:
        dealt.take(card, _MAIN_KINDS, "the main room")
    if len(card_set.ids(Kind.MAIN)) < main_count(n):
        raise SetupError(f'the card set "{card_set.name}" has {len(card_set.ids(Kind.MAIN))} main puzzles; {n} players need {main_count(n)}')
    rooms = _room_names(setup.get("rooms"), n)
    if len(card_set.ids(Kind.SIDE)) < len(rooms):
        raise SetupError(f'the card set "{card_set.name}" has {len(card_set.ids(Kind.SIDE))} side puzzles; {len(rooms)} rooms need one each')
    if len(card_set.ids(Kind.BETRAY)) < n:
        raise SetupError(f'the card set "{card_set.name}" has {len(card_set.ids(Kind.BETRAY))} Betray cards; {n} players need one each')
    left = len(card_set.ids(*DECK_KINDS)) - DEALT_PER_PLAYER * n
    if left < len(rooms):
        raise SetupError(f'the card set "{card_set.name}" has too few draw cards for {n} hands and {len(rooms)} room decks')
    sizes = {room: left // len(rooms) + (1 if i < left % len(rooms) else 0) for i, room in enumerate(rooms)}
    penalties = card_set.ids(*PENALTY_KINDS)
    clocks = sum(1 for c in penalties if card_set.kind_of(c) is Kind.CLOCK)
    if clocks < CLOCKS_TO_LOSE:
        raise SetupError(f"the penalty deck has {clocks} clock cards; it needs {CLOCKS_TO_LOSE}")
    named = set(main) | set(penalties)
    return State(
        cards=card_set,
        options=options,
        players=players,
        rooms=rooms,
        puzzles={},
        main=main,
        decks={room: () for room in rooms},
        hands={p: () for p in players},
        penalties=tuple(penalties),
        where={p: MAIN_ROOM for p in players},
        alive=players,
        phase=Phase.DEAL,
        live=True,
        hidden_in=sizes,
        main_hidden=main_count(n) - len(main),
        unseen=frozenset(c for c in card_set.cards if c not in named),
    )
