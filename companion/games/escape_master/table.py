"""From the readers and the call buttons to moves (DESIGN.md "What the sensors see": one reader per
central pile, each player's hand pad, action pad and history pad; issue 21: a call button on each
player's pad).

- a card arriving at pile N (``index`` N; the pile-new area has no index) is a play, attributed to the
  hand that holds it. With the same player's single card put there moments before it makes a
  combination when the two make one (two cards put down together by one hand are a combination,
  EM-ONE-CARD / EM-COMBO); it completes the half lying on the pile; a card that does not fit alone
  is the first half of a combination (``half``). Anything else is still returned as a play, so the
  verdict explains the mistake.
- a card arriving at a hand pad is a dealt card between rounds and, before Start!, while the hand is
  short of the cards it starts with (a card beyond them is a draw, which the verdict refuses before
  Start!); a card passed by a Story card before Start!; a draw during play; or a half combination
  taken back. A card the hand already holds (a second tap) needs no move.
- a trap arriving at an action pad is a trap on that player; an Escape there resolves that player's trap.
- on a history pad: a special card (a Trap, the Dead End, an Escape) discarded at will, or another
  card discarded with a discard the player holds; cards already there (a resolved trap and its Escape
  moved over) need no move. An Escape is played on the action pad, on the trap it resolves.
- a card leaving a pile is nothing, unless it is a half combination being taken back; or, once the
  round is over (after Escape Master!, or with the draw pile empty and nobody able to play), the
  first card of the piles gathered up: that is the end of the round (``end_round``).
- the call button on a player's pad says what the rulebook has them call: Start! (the dealer, before
  the round starts), Escape Master! (a hand played empty), Draw! (anyone else during play). A table
  with a second button on the pad (``out_button``) has Escape Master! on it, so a false call (cards
  still in hand) is seen and refused rather than read as Draw!.
- a tag no one enrolled, or a zone Escape Master has no use for, is Unexplained, naming the zone.

The action and history pads and the call button are Escape Master's own zone kinds; piles, hand pads
and the draw pile are shared (:mod:`companion.core.zones`).
"""

from __future__ import annotations

import logging
from typing import Literal

from companion.contract.sensors import Pending
from companion.core import Move, Unexplained, ZoneKind
from companion.core.seen import PressSeen, Seen, TagSeen, VisionSeen
from companion.core.zones import DRAW_PILE, HAND_PAD, PILE
from . import plays, rounds
from .cards import ESCAPE_KINDS, TRAP_KINDS, Kind, card_problem
from .leaders import expected_size
from .moves import (
    CallDraw,
    Dealt,
    Discard,
    DiscardSpecial,
    Draw,
    EndRound,
    Escape,
    Half,
    Out,
    PassCard,
    Play,
    Start,
    Trap,
    Withdraw,
)
from .state import Phase, State

logger = logging.getLogger(__name__)

ACTION_PAD = ZoneKind("action_pad")  # a player's action pile: traps played on that player land here
HISTORY_PAD = ZoneKind("history_pad")  # a player's history pile: escapes and discarded specials
CALL_BUTTON = ZoneKind("call_button")  # a button on a player's pad, wired to the reader array: Start!, Escape Master!, Draw!
OUT_BUTTON = ZoneKind("out_button")  # a second button on the pad: Escape Master! alone, even called falsely
ZONE_KINDS = (PILE, DRAW_PILE, HAND_PAD, ACTION_PAD, HISTORY_PAD, CALL_BUTTON, OUT_BUTTON)


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
        return read_pile(state, card, seen.zone.index, t)
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
    rnd = state.rnd
    on_pile = False
    for pile in rnd.piles:
        if pile.pending is not None and pile.pending.card == card:
            if state.phase is Phase.PLAYING:
                return Withdraw(card=card, by=state.name(pile.pending.by), t=t)
            on_pile = True
        elif card in pile.cards:
            if not pile.open:
                return None  # a pile a Dead End closed leaves the table (EM-DEAD-END)
            on_pile = True
    # The piles gathered up once the round is over are its end (a card refused and taken back is not).
    if on_pile and rounds.check_end_round(state, EndRound()).ok:
        return EndRound(t=t)
    return None


def read_pile(state: State, card: str, index: int | None, t: float) -> Move | None:
    """What a card arriving at pile ``index`` (None: the pile-new area) is read as."""
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
    last = pile.last
    if last is not None and last.by == holder and len(last.cards) == 1:
        # Two cards one hand puts down together are a combination when they make one, even where the
        # second would also fit alone (EM-ONE-CARD: one card at a time; EM-COMBO: two together).
        combo = Play(cards=(last.cards[0], card), pile=index, by=by, t=t)
        if plays.check_play(state, combo).ok:
            return combo
    if plays.check_play(state, single).ok:
        return single
    if state.table.cards[card].kind is Kind.NUMBER:
        half = Half(card=card, pile=index, by=by, t=t)
        if plays.check_half(state, half).ok:
            return half
    return single


def _hand(state: State, card: str, player: str, t: float) -> Move | None:
    rnd = state.rnd
    seat = state.table.seat[player]
    if state.phase is Phase.ROUND_OVER:
        # The first card of the next deal: every card was gathered and shuffled, so the hand that
        # held it last round holds it no more (EM-DEAL).
        return Dealt(card=card, by=player, t=t)
    holder = rnd.holder(card)
    if holder == seat:
        return None  # tapped again
    for pile in rnd.piles:
        if pile.pending is not None and pile.pending.card == card and pile.pending.by == seat:
            return Withdraw(card=card, by=player, t=t)
    if state.phase in (Phase.DEALING, Phase.WAITING):
        if holder is not None:
            return PassCard(cards=(card,), to=player, by=state.name(holder), t=t)
        if short_of_deal(state, seat):
            return Dealt(card=card, by=player, t=t)
        # The hand holds the cards it starts with: another one is a draw, refused before Start! (EM-START).
    return Draw(card=card, by=player, t=t)


def short_of_deal(state: State, seat: int) -> bool:
    """Is the hand still short of the cards it starts the round with (EM-DEAL)? Any deal is the
    table's to make when the deal size is not checked."""
    return not state.table.options.check_deal_size or len(state.rnd.hands[seat]) < expected_size(state, seat)


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
    if kind in TRAP_KINDS or kind in ESCAPE_KINDS or kind is Kind.DEAD_END:
        # A special card straight from the hand is discarded at will (EM-SPECIAL); an Escape resolves
        # a trap on the action pad, and comes here with it afterwards (read above as already there).
        return DiscardSpecial(cards=(card,), by=player, t=t)
    return Discard(card=card, by=player, t=t)


def press(state: State, seen: PressSeen) -> Move | Unexplained:
    """The call button on a player's pad: the call the rulebook has that player make now."""
    zone, t = seen.zone, seen.t
    player = zone.player
    if not zone.is_a(CALL_BUTTON) and not zone.is_a(OUT_BUTTON):
        return Unexplained(zone.name, f"a button was pressed at {zone.name}, which is no call button",
                           "make the zone's kind call_button or out_button in the table config")
    if player is None or player not in state.table.seat:
        return Unexplained(zone.name, f"{zone.name} belongs to no player of this game", "fix the zone's player in the table config")
    if zone.is_a(OUT_BUTTON):
        return Out(by=player, t=t)  # EM-OUT: the verdict refuses a false call (cards still in hand)
    seat = state.table.seat[player]
    phase = state.phase
    if phase in (Phase.DEALING, Phase.WAITING):
        return Start(by=player, t=t)  # EM-START: the dealer calls Start! (anyone else is told so)
    if phase is Phase.PLAYING and state.rnd.hands[seat]:
        return CallDraw(by=player, t=t)  # EM-CALL-DRAW
    if phase in (Phase.PLAYING, Phase.COUNTING):
        return Out(by=player, t=t)  # EM-OUT: a hand played empty (and its verdict if it is not)
    return Unexplained(zone.name, f"{player} pressed the call button between rounds, when there is nothing to call",
                       "deal the next round; the button calls Start! once it is dealt")


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
