"""From the table's sensors to moves (DESIGN.md "What the sensors see": The Mountain).

NFC: the hand pad (cards drawn into the hand are tapped) and the discard reader (a card leaving
the hand or the mountain is tapped on its way out). Camera: the 21 pyramid slots (occupied, and
which card). What a tap cannot say on its own (the targets of a set) is entered at the console;
the taps that confirm it afterwards need no move.
"""

from __future__ import annotations

import logging

from companion.core import Move, Unexplained, ZoneKind
from companion.core.seen import CardFace, Occupancy, TagSeen, Unseen, VisionSeen
from companion.core.zones import DISCARD, DRAW_PILE, HAND_PAD, PILE, Watch
from .cards import POSITIONS, RANK_OF, SLOT_OF, SLOTS, SUIT_OF
from .moves import Discard, Draw, EndTurn, Skip
from .state import MountainState, Phase

logger = logging.getLogger(__name__)

PYRAMID_SLOT = ZoneKind(  # one of the mountain's 21 places, named by its position
    "pyramid_slot",
    camera=Watch.CARD_FACE,
    names=frozenset(POSITIONS),
    names_rule='named "r-i" (row r = 1..6, i = 1..r)',
)
ZONE_KINDS = (PYRAMID_SLOT, HAND_PAD, DISCARD, DRAW_PILE, PILE)
"""The pyramid, the hand pad and discard reader; the stock (a draw pile) and the health pile (a
pile) may be outlined for the camera, though no move is read from them."""


def _slot_of_card(state: MountainState, card: str) -> int | None:
    for slot in range(SLOTS):
        if state.mountain[slot] == card:
            return slot
    return None


def _holds_set(hand: tuple[str, ...]) -> bool:
    """Two cards of one suit: a set could be played, so a tap alone cannot say it was the skip."""
    suits = [SUIT_OF[card] for card in hand]
    return len(set(suits)) < len(suits)


def from_tag(state: MountainState, seen: TagSeen) -> Move | Unexplained | None:
    """A card tapped on the hand pad or the discard reader; departures and other zones need no move."""
    if not seen.arrived or not (seen.zone.is_a(HAND_PAD) or seen.zone.is_a(DISCARD)):
        return None
    zone, card, t = seen.zone.name, seen.card, seen.t
    if card is None:
        return Unexplained(zone, "a tag no one enrolled was tapped", "enrol the card's tag, then tap it again")
    if card not in RANK_OF:
        return Unexplained(zone, f"the tag is enrolled as {card!r}, not a card of a standard deck", "enrol the card again")
    if seen.zone.is_a(HAND_PAD):
        return _hand_pad(state, zone, card, t)
    return _discard(state, zone, card, t)


def _hand_pad(state: MountainState, zone: str, card: str, t: float) -> Move | Unexplained | None:
    if card in state.stock:
        return Draw(by=state.player, t=t, card=card, from_="stock")
    if card in state.health:
        return Draw(by=state.player, t=t, card=card, from_="health")
    if card in state.hand:
        return None  # tapped again
    slot = _slot_of_card(state, card)
    if slot is not None:
        pos = POSITIONS[slot]
        return Unexplained(zone, f"the {card} was tapped on the hand pad, but it lies on the mountain at {pos}", f"put the {card} back at {pos}")
    return Unexplained(zone, f"the {card} was tapped on the hand pad, but it is on the discard pile", f"put the {card} back on the discard pile")


def _discard(state: MountainState, zone: str, card: str, t: float) -> Move | Unexplained | None:
    if card in state.discard:
        return None  # already there: the tap confirms a move already made (an act, the attack's damage)
    if card in state.hand:
        if state.phase is Phase.DISCARD:
            return Discard(by=state.player, t=t, cards=(card,))
        return None  # a card of a set on its way out: the act itself is entered at the console
    if card in state.health:
        paid = state.health[0] if state.options.damage_from == "top" else state.health[-1]
        if state.phase is Phase.ACTIONS and card == paid:
            return EndTurn(by=state.player, t=t)  # the first health paid for the attack
        return Unexplained(
            zone,
            f"the {card} is a health card; health is discarded only for the threats' attack, from the {state.options.damage_from}",
            f"put the {card} back in the health pile",
        )
    slot = _slot_of_card(state, card)
    if slot is None:
        return Unexplained(zone, f"the {card} is still in the face-down stock; it cannot be discarded", f"put the {card} back in the stock")
    pos = POSITIONS[slot]
    if state.skipped:
        return Unexplained(zone, f"the skip removes one card, and the {card} from {pos} is a second", f"put the {card} back at {pos}")
    if state.acted or _holds_set(state.hand):
        return None  # part of a set's removal, which the console enters with its targets
    if state.geo.is_exposed(state.mountain, slot):
        return Skip(by=state.player, t=t, target=pos)
    return Unexplained(zone, f"the {card} left the mountain at {pos}, but it is not exposed", f"put the {card} back at {pos}")


def from_vision(state: MountainState, seen: VisionSeen) -> Unexplained | None:
    """The camera's settled view of one pyramid slot: no move, but a mismatch is an alert."""
    if not seen.zone.is_a(PYRAMID_SLOT):
        return None
    zone, view = seen.zone.name, seen.view
    slot = SLOT_OF.get(zone)
    if slot is None:
        return Unexplained(zone, f"the camera reports a pyramid slot {zone!r} the mountain does not have", "name the pyramid zones 1-1 to 6-6 in the table config")
    if isinstance(view, Unseen):
        return None  # the camera cannot see the slot now: it says nothing of the card
    if not isinstance(view, (Occupancy, CardFace)):
        return Unexplained(zone, "the camera's report for this slot has no occupied true/false", "check the camera")
    occupied = view.occupied
    face = view.card if isinstance(view, CardFace) else None
    expected = state.mountain[slot]
    if expected is not None and not occupied:
        return Unexplained(zone, f"{zone} is empty, but the {expected} should still be there", f"put the {expected} back at {zone}, or enter the move that removed it")
    if expected is None and occupied:
        what = f"the {face}" if isinstance(face, str) else "a card"
        return Unexplained(zone, f"{what} lies at {zone}, which was cleared", f"take the card off {zone}")
    if expected is not None and isinstance(face, str) and face != expected:
        return Unexplained(zone, f"the camera sees the {face} at {zone}, where the {expected} lies", f"put the {expected} at {zone}")
    return None
