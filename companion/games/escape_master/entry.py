"""Escape Master by tapping: the moves worth offering a player now, and each field's values as a seat sees them.

``candidates`` proposes; the engine's own ``judge`` (through the move builder) decides which are legal.
A draw or a dealt card ranges over every card it could be. ``choices`` builds a player's values from
that player's own view only (their hand, their half combinations, their teammate's hand, the public
piles and action piles), never from another hand or the draw pile.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping, Sequence
from itertools import combinations, permutations
from typing import Any, Literal

from companion.core import Move
from companion.core.picks import Choice, FieldSpec, Pick
from companion.core.setup_form import SetupField, SetupForm
from .cards import ESCAPE_KINDS, SUITS, TRAP_KINDS, Kind, card_order, spoken
from .leaders import BEFORE_START, BETWEEN
from .moves import (
    Beast,
    CallDraw,
    Dealt,
    Defuse,
    Discard,
    DiscardSpecial,
    Draw,
    EndRound,
    Escape,
    GiveFault,
    Half,
    Leader,
    Out,
    PassCard,
    Play,
    Start,
    Story,
    SwapDraw,
    Trap,
    Withdraw,
)
from .picks import PILE
from .piles import ability, combo_shape
from .rounds import round_deck
from .secrets import seen_by
from .state import Phase, State

logger = logging.getLogger(__name__)

NEW: Literal["new"] = "new"
OUT_DISCARD_MOST = 3
"""Out with its last cards discarded is offered for a hand of at most this many cards."""


def _card(card: str, where: str = "") -> Choice:
    name = spoken(card)  # copies read alike: the builder offers them as one card
    return Choice(card, f"{name} ({where})" if where else name, card)


# -- candidates ---------------------------------------------------------------------------------------


def candidates(state: State, by: str | None) -> Iterator[Move]:
    """Every move ``by`` could make now (None: the moves nobody makes: Start! by the table, the count)."""
    if state.result is not None:
        return
    if by is None:
        if state.phase in (Phase.DEALING, Phase.WAITING):
            yield Start()
        if state.phase in (Phase.PLAYING, Phase.COUNTING):
            yield EndRound()
            # The count as the engine knows the hands: one tap ends the round with every hand counted,
            # where re-tapping each card would only tell the engine what it knows (issue 22, MEDIUM 10).
            yield EndRound(hands={state.name(i): tuple(sorted(state.rnd.hands[i])) for i in state.players_in})
        return
    seat = state.table.seat.get(by)
    if seat is None:
        return
    if state.phase in BETWEEN:
        yield from _between(state, by, seat)
    if state.phase in (Phase.PLAYING, Phase.COUNTING):
        yield from _playing(state, by, seat)


def _others(state: State, seat: int) -> list[str]:
    return [state.name(i) for i in state.players_in if i != seat]


def _between(state: State, by: str, seat: int) -> Iterator[Move]:
    """Dealing, Start!, the leader and Story bookkeeping between two rounds."""
    deck = round_deck(state) if state.phase is Phase.ROUND_OVER else state.rnd.draw_pile
    for card in sorted(deck):
        yield Dealt(by=by, card=card)
    if seat == state.dealer and state.phase in BEFORE_START:
        yield Start(by=by)
    others = _others(state, seat)
    yield Beast(by=by)
    for other in others:
        yield Beast(by=by, target=other)
        yield Leader(by=by, swap_with=other)
    for new_tribe in sorted(state.table.leader_data.tribes):
        yield Leader(by=by, tribe=new_tribe)
    for number in sorted(state.table.stories):
        yield Story(by=by, card=number)
        for k in (1, 2):
            for targets in combinations(others, k):
                yield Story(by=by, card=number, targets=targets)
    if state.phase not in BEFORE_START:
        return
    for other in others:
        yield GiveFault(by=by, target=other)
    use = state.mods.story[seat]
    if use is None or state.mods.story_done[seat]:
        return
    data, tribe = state.table.stories[use.card], state.leaders[seat]
    hand = sorted(state.rnd.hands[seat])
    pile = sorted(state.rnd.draw_pile)
    for k in range(1, data.for_tribe("pass_cards", tribe) + 1):
        for cards in combinations(hand, k):
            for other in others:
                yield PassCard(by=by, cards=cards, to=other)
    swaps = data.for_tribe("swap_draw", tribe)
    if swaps:
        yield SwapDraw(by=by, give=(), take=())
    for k in range(1, swaps + 1):
        for give in combinations(hand, k):
            # one card: every card it could be taken for; more: one stand-in take (a player's take is never
            # judged, so their page still offers every card; the referee's marks only the stand-in legal)
            for take in ([(c,) for c in pile] if k == 1 else [tuple(pile[:k])]):
                yield SwapDraw(by=by, give=give, take=take)


def _playing(state: State, by: str, seat: int) -> Iterator[Move]:
    """The moves of a round under way: plays, draws, specials and the call."""
    rnd = state.rnd
    cards = state.table.cards
    hand = sorted(rnd.hands[seat])
    numbers = [p.number for p in rnd.piles if p.open]
    numbered = [c for c in hand if cards[c].numbered]
    for card in hand:
        for number in numbers:
            yield Play(by=by, card=card, pile=number)
        yield Play(by=by, card=card, pile=NEW)
    power, beast = ability(state, seat), state.mods.beast[seat]
    for a, b in permutations(numbered, 2):
        if combo_shape(cards[a], cards[b], power, beast) is not None:
            continue  # no combination at all: not worth judging on every pile (a big hand has hundreds of pairs)
        for number in numbers:
            yield Play(by=by, cards=(a, b), pile=number)
    for pile in rnd.piles:
        first = pile.pending.card if pile.pending is not None and pile.pending.by == seat else None
        if first is not None:
            yield Withdraw(by=by, card=first)
        elif pile.last is not None and pile.last.by == seat and len(pile.last.cards) == 1:
            first = pile.last.cards[0]  # a face-card pair completed moments after its first card
        if first is not None and pile.open:
            for card in numbered:
                yield Play(by=by, cards=(first, card), pile=pile.number)
    for card in numbered:
        for number in numbers:
            yield Half(by=by, card=card, pile=number)
    for card in sorted(rnd.draw_pile):
        yield Draw(by=by, card=card)
    yield CallDraw(by=by)
    yield from _specials(state, by, seat, hand)
    yield Out(by=by)
    if 0 < len(hand) <= OUT_DISCARD_MOST:
        yield Out(by=by, discard=tuple(hand))


def _specials(state: State, by: str, seat: int, hand: list[str]) -> Iterator[Move]:
    """Traps, Escapes, discards and the defusing pose."""
    rnd = state.rnd
    cards = state.table.cards
    others = _others(state, seat)
    mate = state.table.mate(seat)
    traps = [t for i in (seat, mate) if i is not None for t in (rnd.lock[i], rnd.draw_trap[i]) if t is not None]
    specials = [c for c in hand if cards[c].special]
    for card in specials:
        kind = cards[card].kind
        if kind in TRAP_KINDS:
            for other in others:
                yield Trap(by=by, card=card, target=other)
        if kind in ESCAPE_KINDS:
            discards: list[str | None] = [None]
            if kind is Kind.ESCAPE_DISCARD:
                discards += [c for c in hand if c != card]
            for trap in [None, *traps]:
                for discard in discards:
                    yield Escape(by=by, card=card, trap=trap, discard=discard)
        yield DiscardSpecial(by=by, cards=(card,))
    if len(specials) > 1:
        yield DiscardSpecial(by=by, cards=tuple(specials))
    for card in hand:
        yield Discard(by=by, card=card)
    for trap in traps:
        yield Defuse(by=by, trap=trap)


# -- choices ------------------------------------------------------------------------------------------


def choices(state: State, viewer: str | None, by: str | None, pick: Pick, every: bool) -> Sequence[Choice] | None:
    """The values of a field drawn from ``pick``; a player's from their own view only."""
    if pick in (Pick.HAND_CARD, Pick.UNSEEN_CARD, Pick.PUBLIC_CARD) and every:
        return [_card(c) for c in sorted(state.table.cards, key=card_order)]
    if pick is Pick.HAND_CARD:
        actor = by if viewer is None else viewer
        return _hand(state, -1 if actor is None else state.table.seat.get(actor, -1))
    if pick is Pick.UNSEEN_CARD:
        return _unseen(state, viewer)
    if pick is Pick.PUBLIC_CARD:
        return _public(state)
    if pick is PILE:
        return _piles(state, every)
    if pick is Pick.NUMBER:
        return [Choice(n, f"Story card {n}") for n in sorted(state.table.stories)]
    if pick is Pick.WORD:
        return [Choice(t, t) for t in sorted(state.table.leader_data.tribes)]
    return None


def _hand(state: State, seat: int) -> list[Choice]:
    """A seat's hand, then its half combinations (the first card of ``play {cards}`` completing one)."""
    if seat < 0:
        return []
    out = [_card(c) for c in sorted(state.rnd.hands[seat], key=card_order)]
    for pile in state.rnd.piles:
        if pile.pending is not None and pile.pending.by == seat:
            out.append(_card(pile.pending.card, f"half on pile {pile.number}"))
    return out


def _unseen(state: State, viewer: str | None) -> list[Choice]:
    """A face-down card: for the referee the real draw pile; for a player every card of the round's deck
    they have not seen (at the end of a round everything is shuffled again: the whole deck)."""
    deck = round_deck(state)
    if viewer is None:
        return [_card(c) for c in sorted(deck if state.phase is Phase.ROUND_OVER else state.rnd.draw_pile, key=card_order)]
    seat = state.table.seat.get(viewer)
    if seat is None or state.phase is Phase.ROUND_OVER:
        return [_card(c) for c in sorted(deck, key=card_order)]
    seen = seen_by(state, seat)
    return [_card(c) for c in sorted(deck, key=card_order) if c not in seen]


def _public(state: State) -> list[Choice]:
    """Face-up cards a move names: traps on action piles, half combinations, pile tops."""
    rnd = state.rnd
    out: list[Choice] = []
    for i, action in enumerate(rnd.actions):
        out += [_card(c, f"on {state.name(i)}") for c in action]
    for pile in rnd.piles:
        if pile.pending is not None:
            out.append(_card(pile.pending.card, f"half on pile {pile.number}"))
        if pile.cards:
            out.append(_card(pile.cards[-1], f"top of pile {pile.number}"))
    return out


def _piles(state: State, every: bool) -> list[Choice]:
    """The open piles labelled with their top card, and a new pile (every: the closed ones too)."""
    out = []
    shown: set[int] = set()
    for pile in reversed(state.rnd.piles):  # the newest pile at each place
        if pile.number in shown or not pile.open and not every:
            continue
        shown.add(pile.number)
        top = pile.cards[-1] if pile.cards else None
        closed = "" if pile.open else ", closed"
        out.append(Choice(pile.number, f"pile {pile.number} (top: {spoken(top) if top else 'empty'}{closed})", top))
    out.sort(key=lambda c: int(c.value))
    out.append(Choice(NEW, "new pile"))
    return out


# -- setting up by taps (companion.core.setup_form) --------------------------------------------------


def _setup_choices(players: Sequence[str], options: Mapping[str, Any], values: Mapping[str, Any], name: str, every: bool) -> Sequence[Choice]:
    if name == "dealer":
        return [Choice(p, p) for p in players]
    if name == "leaders":
        return [Choice(t, t) for t in SUITS]
    return []


def _setup_build(players: Sequence[str], options: Mapping[str, Any], values: Mapping[str, Any]) -> dict[str, Any]:
    """The header's setup: the first dealer, and each player's Escape Leader if the table uses them.
    Hands are dealt in the game, each player tapping their own cards (``dealt``)."""
    dealer = values.get("dealer") or (players[0] if players else None)
    setup: dict[str, Any] = {"dealer": dealer}
    leaders = values.get("leaders")
    if isinstance(leaders, dict) and leaders:
        setup["leaders"] = {p: tribes[0] if isinstance(tribes, list) and tribes else tribes for p, tribes in leaders.items()}
    return setup


SETUP_FORM = SetupForm(
    (
        SetupField("dealer", FieldSpec.one(Pick.PLAYER), "Who deals first", rotates=True),
        SetupField("leaders", FieldSpec.by_player(Pick.WORD, 1, 1, optional=True), "Escape Leaders (tribe per player)"),
    ),
    _setup_choices,
    _setup_build,
)
"""Escape Master's setup: who deals (the next player deals each new game) and the leaders."""
