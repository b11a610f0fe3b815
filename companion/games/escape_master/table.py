"""From the readers to moves (DESIGN.md "What the sensors see": one reader per central pile, each
player's hand pad, action pad and history pad).

- a card arriving at pile N (``index`` N; the pile-new area has no index) is a play, attributed to the
  hand that holds it; when it does not fit alone it may complete a combination (the half lying on the
  pile, or the same player's single card there moments before: a face-card pair) or be the first half
  of one (``half``). Anything else is still returned as a play, so the verdict explains the mistake.
- a card arriving at a hand pad is a dealt card between rounds and before Start!, a card passed by a
  Story card before Start!, a draw during play, or a half combination taken back; a card the hand
  already holds (a second tap) needs no move.
- a trap arriving at an action pad is a trap on that player; an Escape there resolves that player's trap.
- on a history pad: an Escape (on the player's own trap), a special card discarded at will, or a card
  discarded with a discard; cards already there (a resolved trap moved over) need no move.
- a card leaving a pile is nothing, unless it is a half combination being taken back.
- a tag no one enrolled, or a zone Escape Master has no use for, is Unexplained, naming the zone.

The action and history pads are Escape Master's own zone kinds; piles, hand pads and the draw pile
are shared (:mod:`companion.core.zones`).
"""

from __future__ import annotations

import logging
from typing import Literal

from companion.contract.sensors import Pending
from companion.core import Move, Unexplained, ZoneKind
from companion.core.seen import Seen, TagSeen, VisionSeen
from companion.core.zones import DRAW_PILE, HAND_PAD, PILE
from . import plays
from .cards import ESCAPE_KINDS, TRAP_KINDS, Kind, card_problem
from .moves import (
    Dealt,
    Discard,
    DiscardSpecial,
    Draw,
    Escape,
    Half,
    PassCard,
    Play,
    Trap,
    Withdraw,
)
from .state import Phase, State

logger = logging.getLogger(__name__)

ACTION_PAD = ZoneKind("action_pad")  # a player's action pile: traps played on that player land here
HISTORY_PAD = ZoneKind("history_pad")  # a player's history pile: escapes and discarded specials
ZONE_KINDS = (PILE, DRAW_PILE, HAND_PAD, ACTION_PAD, HISTORY_PAD)


def interpret(state: State, seen: Seen) -> Move | Unexplained | None:
    if isinstance(seen, VisionSeen):
        return None  # the camera is optional for Escape Master; identity comes from the readers
    return _tag(state, seen)


def _tag(state: State, seen: TagSeen) -> Move | Unexplained | None:
    zone, card, t = seen.zone.name, seen.card, seen.t
    if not seen.arrived:
        return _depart(state, seen)
    if card is None:
        return Unexplained(zone, f"a tag no one enrolled (uid {seen.uid}) arrived at {zone}",
                           "enrol the card's tag, then put it down again")
    if card_problem(card) is not None or card not in state.table.cards:
        return Unexplained(zone, f"the tag at {zone} is enrolled as {card!r}, which is not a card of this deck",
                           "take it off the table and check its enrolment")
    player = seen.zone.player
    if seen.zone.is_a(PILE):
        return _pile(state, card, seen.zone.index, t)
    if seen.zone.is_a(DRAW_PILE):
        return None
    if seen.zone.kind in (HAND_PAD.name, ACTION_PAD.name, HISTORY_PAD.name):
        if player is None or player not in state.table.seat:
            return Unexplained(zone, f"{zone} belongs to no player of this game", "fix the zone's player in the table config")
        if seen.zone.is_a(HAND_PAD):
            return _hand(state, card, player, t)
        if seen.zone.is_a(ACTION_PAD):
            return _action(state, card, player, t, zone)
        return _history(state, card, player, t, zone)
    return Unexplained(zone, f"a card arrived at {zone}, a zone Escape Master does not use", "take the card back")


def _holder_name(state: State, card: str) -> str | None:
    seat = state.rnd.holder(card)
    return None if seat is None else state.name(seat)


def _depart(state: State, seen: TagSeen) -> Move | None:
    card, t = seen.card, seen.t
    if not seen.zone.is_a(PILE) or card is None:
        return None
    for pile in state.rnd.piles:
        if pile.pending is not None and pile.pending.card == card:
            return Withdraw(card=card, by=state.name(pile.pending.by), t=t)
    return None


def _pile(state: State, card: str, index: int | None, t: float) -> Move | None:
    rnd = state.rnd
    holder = rnd.holder(card)
    target: int | Literal["new"] = "new" if index is None else index
    if holder is None:
        for pile in rnd.piles:
            if pile.number == index and (card in pile.cards or (pile.pending and pile.pending.card == card)):
                return None  # the reader saw a card already on this pile again
        return Play(card=card, pile=target, t=t)  # the verdict says where that card really is
    by = state.name(holder)
    single = Play(card=card, pile=target, by=by, t=t)
    if index is None or state.phase is not Phase.PLAYING:
        return single
    k = rnd.open_pile(index)
    if k is None:
        return single
    pile = rnd.piles[k]
    if pile.pending is not None and pile.pending.by == holder:
        pair = Play(cards=(pile.pending.card, card), pile=index, by=by, t=t)
        if plays.check_play(state, pair).ok or not plays.check_play(state, single).ok:
            return pair
        return single
    if plays.check_play(state, single).ok:
        return single
    last = pile.last
    if last is not None and last.by == holder and len(last.cards) == 1:
        combo = Play(cards=(last.cards[0], card), pile=index, by=by, t=t)
        if plays.check_play(state, combo).ok:
            return combo
    if state.table.cards[card].kind is Kind.NUMBER:
        half = Half(card=card, pile=index, by=by, t=t)
        if plays.check_half(state, half).ok:
            return half
    return single


def _hand(state: State, card: str, player: str, t: float) -> Move | None:
    rnd = state.rnd
    seat = state.table.seat[player]
    holder = rnd.holder(card)
    if holder == seat:
        return None  # tapped again
    for pile in rnd.piles:
        if pile.pending is not None and pile.pending.card == card and pile.pending.by == seat:
            return Withdraw(card=card, by=player, t=t)
    phase = state.phase
    if phase in (Phase.ROUND_OVER, Phase.DEALING, Phase.WAITING):
        if holder is not None and phase is not Phase.ROUND_OVER:
            return PassCard(cards=(card,), to=player, by=state.name(holder), t=t)
        return Dealt(card=card, by=player, t=t)
    return Draw(card=card, by=player, t=t)


def _action(state: State, card: str, player: str, t: float, zone: str) -> Move | Unexplained | None:
    kind = state.table.cards[card].kind
    seat = state.table.seat[player]
    if card in state.rnd.actions[seat]:
        return None
    by = _holder_name(state, card)
    if kind in TRAP_KINDS:
        return Trap(card=card, target=player, by=by, t=t)
    if kind in ESCAPE_KINDS:
        rnd = state.rnd
        trap = rnd.lock[seat] or (rnd.draw_trap[seat] if rnd.owes(seat) else None)
        return Escape(card=card, trap=trap, by=by, t=t)
    if by is None:
        return Unexplained(zone, f"{card} arrived on {player}'s action pile, and it is in nobody's hand",
                           "put the card back where it came from")
    return Trap(card=card, target=player, by=by, t=t)  # the verdict explains that only traps go there


def _history(state: State, card: str, player: str, t: float, zone: str) -> Move | Unexplained | None:
    rnd = state.rnd
    seat = state.table.seat[player]
    if card in rnd.histories[seat]:
        return None
    kind = state.table.cards[card].kind
    if rnd.holder(card) is None and any(card in a for a in rnd.actions):
        return Unexplained(zone, f"{card} moved from an action pile to {player}'s history pile, but no Escape resolved it",
                           "put the trap back on the action pile")
    if kind in ESCAPE_KINDS:
        return Escape(card=card, by=player, t=t)
    if kind in TRAP_KINDS or kind is Kind.DEAD_END:
        return DiscardSpecial(cards=(card,), by=player, t=t)
    return Discard(card=card, by=player, t=t)


def pile_zone(number: int) -> str:
    """The zone of pile N as the reference table names it (``companion init`` and the sensor plan)."""
    return f"pile-{number}"


def pending(state: State) -> tuple[Pending, ...]:
    """Half combinations lying on a pile, waiting for their second card (EM-COMBO)."""
    out = []
    for pile in state.rnd.piles:
        half = pile.pending
        if half is None or half.t is None or not pile.open:
            continue
        who, number = state.name(half.by), pile.number
        out.append(Pending(
            pile_zone(number), half.t,
            f"{who}'s {half.card} lies on pile {number} as half a combination, and no second card has come",
            f"{who}: put the second card of the combination on pile {number}, or take the {half.card} back into your hand",
        ))
    return tuple(out)
