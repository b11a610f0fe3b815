"""Escape House by tapping: the moves worth offering, and each field's values as a seat sees them.

A player's values come from what that player may see: their own hand, their own face-down played
card, the cards turned up on the table, the main puzzle and the side puzzle of the room they stand
in. The room decks, the discard pile and the penalty deck are face down, so a draw from them
(:attr:`Pick.UNSEEN_CARD`) offers a player every card they can neither hold nor see.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from functools import lru_cache
from itertools import combinations
from math import comb
from typing import Any

from companion.core import Move
from companion.core.picks import Choice, FieldSpec, Pick
from companion.core.setup_form import SetupField, SetupForm
from companion.core.errors import SetupError
from companion.contract.game import Narrowed
from . import live
from .cards import DECK_KINDS, HAND_KINDS, CardSet, Kind, alike
from .cardset import load_card_set, shipped_sets
from .moves import (
    Clear,
    Dealt,
    Discard,
    Draw,
    DrawDiscard,
    EndExplore,
    EndRound,
    Flip,
    Follow,
    MoveTo,
    Penalty,
    Play,
    Resolve,
    Reveal,
    Stash,
    Trade,
)
from .picks import ROOM
from .state import HAND_LIMIT, MAIN_ROOM, SEEN_PER_DRAW, Phase, State

log = logging.getLogger(__name__)

WHOLE_DRAWS = 120
"""A draw from the discard pile is listed whole while the draft leaves at most this many ways to make
it; a 21-card pile has 3,990 (every three cards seen, each kept), too many to judge on every tap."""


# -- labels ----------------------------------------------------------------------------------------


@lru_cache(maxsize=16)
def _names(cards: CardSet) -> Counter[str]:
    """How many cards of the set bear each name (a set never changes; it is hashed by identity)."""
    return Counter(c.name for c in cards.cards.values())


def card_label(state: State, card: str) -> str:
    """A card as the table names it: "Key", or "Key 3" when the set has several Keys that differ;
    identical copies ("Betray") read alike, and the builder offers them as one card."""
    name = state.cards.name_of(card)
    if _names(state.cards)[name] < 2 or card in alike(state.cards):
        return name
    copy = card.rsplit("-", 1)[-1]
    return f"{name} {copy}" if copy.isdigit() else f"{name} ({card})"


def room_label(room: str) -> str:
    return "main room" if room == MAIN_ROOM else room


def _cards(state: State, cards: Iterable[str]) -> list[Choice]:
    # A played card says who played it where: two Keys played are two things at the table (and two
    # buttons), where copies of a card in one place are one.
    where = {p.card: f"{p.by}, {room_label(p.room)}" for p in state.played}
    return [Choice(c, f"{card_label(state, c)} ({where[c]})" if c in where else card_label(state, c), c) for c in cards]


# -- what the engine proposes ------------------------------------------------------------------------


def candidates(state: State, by: str | None) -> Iterator[Move]:
    """Every move ``by`` could make now (None: the table's moves); draws range over the real decks."""
    if state.phase is Phase.OVER:
        return
    if by is None:
        yield from _table_moves(state)
        return
    if by not in state.where:
        return
    if state.phase is Phase.DEAL:
        for card in state.cards.ids(*HAND_KINDS):
            yield Dealt(by=by, card=card)
        return
    hand = state.hands[by]
    here = state.where[by]
    if state.owed(by):
        for card in hand:
            yield Discard(by=by, card=card)
    if may_draw_discard(state, by):
        yield from discard_draws(state, by, {}).moves  # a wide verb: narrowed tap by tap
    if state.phase in (Phase.EXPLORE, Phase.ACTION):
        for room in (MAIN_ROOM,) + state.rooms:
            yield MoveTo(by=by, room=room)
    if state.phase is Phase.EXPLORE:
        if here != MAIN_ROOM:
            for card in _in_deck(state, here):
                yield Draw(by=by, room=here, card=card)
        for other in state.in_room(here):
            for card in hand:
                if other != by:
                    yield Trade(by=by, to=other, card=card)
        if len(hand) > HAND_LIMIT:
            size = len(state.discard) if here == MAIN_ROOM else state.deck_size(here)
            for card in hand:
                for position in range(size + 1):
                    yield Stash(by=by, card=card, room=here, position=position)
    if state.phase is Phase.ACTION:
        for other in state.alive:
            if other != by:
                yield Follow(by=by, target=other)
        for card in hand:
            for target in state.alive:
                yield Play(by=by, card=card, target=target)
        mine = state.played_by(by)
        if mine is not None:
            yield Reveal(by=by, card=mine.card)


def _table_moves(state: State) -> Iterator[Move]:
    """The moves no player makes: phase ends, reveals, clears, penalty cards and a live table's flips."""
    if state.needs_flip():
        for card in _unnamed(state, Kind.MAIN):
            yield Flip(card=card)
        return
    for card in state.penalties:
        yield Penalty(card=card)
    if state.phase is Phase.EXPLORE:
        yield EndExplore()
    elif state.phase is Phase.ACTION:
        for played in state.played:
            yield Reveal(card=played.card)
        yield Resolve()
    else:
        yield from _clears(state)
        yield EndRound()


def _clears(state: State) -> Iterator[Clear]:
    """Each open puzzle with each set of played cards that could count for it (items in its room, or
    a card whose sacrifice worked)."""
    kinds = state.cards.kind_of
    for puzzle, room in state.open_puzzles():
        counted = sorted(
            p.card for p in state.played if p.card in state.killers or kinds(p.card) is Kind.ITEM and p.room == room
        )
        for size in range(1, len(counted) + 1):
            for cards in combinations(counted, size):
                yield Clear(puzzle=puzzle, cards=cards)
    for room in state.rooms if state.live else ():  # a face-down side puzzle, named as it is cleared
        if room in state.puzzles or room in state.cleared:
            continue
        items = sorted(p.card for p in state.played if kinds(p.card) is Kind.ITEM and p.room == room)
        for size in range(1, len(items) + 1):
            for cards in combinations(items, size):
                for puzzle in _unnamed(state, Kind.SIDE):
                    yield Clear(puzzle=puzzle, cards=cards)


def _in_deck(state: State, room: str) -> list[str]:
    """The cards a draw from ``room``'s deck may name: those put back, and at a live table any draw
    card nobody has named yet while the deck still holds unnamed cards."""
    out = list(state.decks[room])
    return out + [c for c in state.cards.ids(*DECK_KINDS) if c not in out and live.may_draw_unnamed(state, room, c)]


def _unnamed(state: State, *kinds: Kind) -> list[str]:
    """A live table's cards of ``kinds`` nobody has named yet, in the set's order."""
    return [c for c in state.cards.ids(*kinds) if c in state.unseen]


def may_draw_discard(state: State, by: str) -> bool:
    """Worth proposing draws from the discard pile (an effect's draw, or the explore draw in its room)."""
    if state.draw_credit.get(by, 0):
        return True
    here_ok = state.where[by] == MAIN_ROOM or state.options.discard_draw_anywhere
    return state.phase is Phase.EXPLORE and here_ok and state.draws.get(by, 0) < state.options.draws_per_explore


def discard_draws(state: State, by: str, given: Mapping[str, Any]) -> Narrowed:
    """The draws from the discard pile that agree with a draft's ``seen`` (so far) and ``keep``.

    Every way to look at three cards (all of them if fewer) and keep one, while that leaves at most
    :data:`WHOLE_DRAWS`; until the cards tapped so far narrow it that far, one draw for each card
    that may be looked at next (the builder marks the next tap from them, and asks again)."""
    pile = sorted(set(state.discard) - state.credit_seen.get(by, frozenset()))
    seen, keep = given.get("seen", []), given.get("keep")
    if not isinstance(seen, list) or not all(isinstance(c, str) for c in seen) or not isinstance(keep, (str, type(None))):
        return Narrowed((), whole=True)  # a page's draft of the wrong shape: nothing agrees with it
    want = min(SEEN_PER_DRAW, len(pile))
    if len(set(seen)) != len(seen) or len(seen) > want or not set(seen) <= set(pile) or keep is not None and keep not in pile:
        return Narrowed((), whole=True)
    rest = [c for c in pile if c not in seen]
    need = want - len(seen)

    def draw(cards: tuple[str, ...], kept: str) -> DrawDiscard:
        return DrawDiscard(by=by, seen=cards, keep=kept)

    if comb(len(rest), need) * (1 if keep is not None else want) <= WHOLE_DRAWS:
        return Narrowed([
            draw(tuple(seen) + more, kept)
            for more in combinations(rest, need)
            for kept in ((keep,) if keep is not None else tuple(seen) + more)
            if kept in seen or kept in more
        ], whole=True)
    witnesses = []
    for card in rest:
        cards = [*seen, card] + ([keep] if keep is not None and keep not in seen and keep != card else [])
        cards += [c for c in rest if c not in cards][: want - len(cards)]
        witnesses.append(draw(tuple(cards), keep if keep is not None else card))
    return Narrowed(witnesses, whole=False)


# -- each field's values -----------------------------------------------------------------------------


def choices(state: State, viewer: str | None, by: str | None, pick: Pick, every: bool) -> Sequence[Choice] | None:
    """The values of a field drawn from ``pick`` as ``viewer`` knows the table (None: the referee)."""
    if pick in (Pick.HAND_CARD, Pick.UNSEEN_CARD, Pick.PUBLIC_CARD) and every:
        # Every value means any card of the game: a puzzle or a penalty card put down on purpose is
        # recorded as such (and refused by the engine).
        return _cards(state, state.cards.cards)
    if pick is Pick.HAND_CARD:
        holder = by if viewer is None else viewer
        return [] if holder is None else _cards(state, sorted(state.hands.get(holder, ()), key=lambda c: card_label(state, c)))
    if pick is Pick.UNSEEN_CARD:
        return _cards(state, _face_down(state) if viewer is None else _unseen_by(state, viewer))
    if pick is Pick.PUBLIC_CARD:
        return _cards(state, _public(state, viewer))
    if pick is ROOM:
        return [Choice(r, room_label(r)) for r in (MAIN_ROOM,) + state.rooms]
    if pick is Pick.NUMBER:
        deepest = max([len(state.discard), *(state.deck_size(r) for r in state.rooms)])
        return [Choice(n, "top" if n == 0 else f"{n} from the top") for n in range(deepest + 1)]
    return None


def _face_down(state: State) -> list[str]:
    """Every card lying face down in a pile: the room decks, the discard pile, the penalty deck."""
    out = [c for room in state.rooms for c in state.decks[room]]
    return out + sorted(state.discard) + list(state.penalties) + _unnamed(state, *HAND_KINDS)


def _unseen_by(state: State, player: str) -> list[str]:
    """Every card ``player`` could draw as far as they know: not in their hand, not face up, not theirs
    on the table. Built from the player's own view only, so the list says nothing of any pile."""
    known = set(state.hands.get(player, ())) | set(_public(state, player))
    return [c for c in state.cards.ids(*HAND_KINDS) if c not in known]


def _public(state: State, viewer: str | None) -> list[str]:
    """The cards face up on the table as ``viewer`` sees it (the referee also sees face-down played
    cards): the open puzzles, then the played cards."""
    puzzles = [p for p, room in state.open_puzzles() if viewer is None or room == MAIN_ROOM or state.where.get(viewer) == room]
    played = [p.card for p in state.played if viewer is None or p.revealed or p.by == viewer]
    # A live table's puzzles still face down are named as they turn up: every main or side puzzle
    # nobody has named yet (puzzles never go to a hand, so the list tells nothing hidden).
    turning = _unnamed(state, Kind.MAIN) if state.needs_flip() else []
    if state.live and state.phase is Phase.RESOLVE:
        turning += _unnamed(state, Kind.SIDE)
    return puzzles + played + turning


# -- setting up by taps (companion.core.setup_form) --------------------------------------------------


def _setup_choices(players: Sequence[str], options: Mapping[str, Any], values: Mapping[str, Any], name: str, every: bool) -> Sequence[Choice]:
    if name == "card_set":
        return [Choice(s, s) for s in shipped_sets()]
    if name == "main":  # the main puzzle turned face up; the others stay face down until flipped
        try:
            cards = load_card_set(values.get("card_set") or "example")
        except SetupError:
            return []
        kinds = HAND_KINDS | {Kind.MAIN, Kind.SIDE} if every else {Kind.MAIN}
        return [Choice(c, cards.name_of(c), c) for c in cards.ids(*kinds)]
    return []


def _setup_build(players: Sequence[str], options: Mapping[str, Any], values: Mapping[str, Any]) -> dict[str, Any]:
    """A live table's setup: the card set and the face-up main puzzle. The hands are tapped in by each
    player (``dealt``); the room decks and the face-down puzzles stay unknown until named."""
    return {"card_set": values.get("card_set") or "example", "main": list(values.get("main") or [])}


SETUP_FORM = SetupForm(
    (
        SetupField("card_set", FieldSpec.one(Pick.WORD), "The card set", default="example"),
        SetupField("main", FieldSpec.list_of(Pick.PUBLIC_CARD, 1, 1), "The main puzzle turned face up"),
    ),
    _setup_choices,
    _setup_build,
)
"""Escape House's setup as the console taps it; each player's four cards come by ``dealt``."""
