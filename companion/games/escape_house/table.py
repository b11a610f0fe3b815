"""From the table to moves: the tap pad is Escape House's only reader (DESIGN.md, "What the sensors see").

Revealed action cards and penalty draws are tapped on the tap pad; everything else (rooms, follows,
trades, puzzle clears) a person enters as a notation move.
"""

from __future__ import annotations

from companion.core import Move, Unexplained, ZoneKind
from companion.core.seen import Seen, TagSeen, VisionSeen
from .cards import PENALTY_KINDS, Kind
from .moves import Flip, Penalty, Reveal
from .state import Phase, State

TAP_PAD = ZoneKind("tap_pad")  # revealed action cards and penalty draws are tapped here
ZONE_KINDS = (TAP_PAD,)


def interpret_tag(state: State, seen: TagSeen) -> Move | Unexplained | None:
    """A card tapped on the tap pad: a live table's next main puzzle turned up, a penalty draw when one
    is due, else the reveal of a played card."""
    zone = seen.zone.name
    if not seen.zone.is_a(TAP_PAD):
        return Unexplained(zone, "Escape House reads only the tap pad; a tag arrived at another reader", "take the card off that reader")
    if not seen.arrived:
        return None  # a card lifted off the pad needs no move
    card = seen.card
    if card is None:
        return Unexplained(zone, "a card no one enrolled was tapped", "enrol the card, then tap it again")
    kind = state.cards.kind_of(card)
    if kind is None:
        return Unexplained(zone, f'"{card}" is not a card of the set "{state.cards.name}"', "take it off the tap pad")
    t = seen.t
    if kind is Kind.MAIN and state.needs_flip():  # a live table turns up its next main puzzle
        return Flip(card=card, t=t)
    if kind in PENALTY_KINDS:
        if state.penalties_due:
            return Penalty(card=card, t=t)
        return Unexplained(zone, f"{state.cards.name_of(card)} was tapped but no penalty card is due", "put it back on the penalty deck")
    played = next((p for p in state.played if p.card == card), None)
    if played is None:
        return Unexplained(
            zone, f"{state.cards.name_of(card)} was tapped but no one played it face down this round", "enter the play first, or take it off the pad"
        )
    if played.revealed or state.phase is not Phase.ACTION:
        return None  # tapped again after its reveal
    return Reveal(by=played.by, card=card, t=t)


def interpret(state: State, seen: Seen) -> Move | Unexplained | None:
    if isinstance(seen, VisionSeen):
        return None  # no camera zone means anything in Escape House
    return interpret_tag(state, seen)
