"""From the table's sensors to moves (DESIGN.md "What the sensors see": The Mountain).

NFC: the hand pad (cards drawn into the hand are tapped) and the discard reader (a card leaving
the hand or the mountain is tapped on its way out). Camera: the 21 pyramid slots (occupied, and
which card). A set's action comes card by card (:mod:`steps`): its set's cards, then the mountain
cards it removes; each is an ``act_card`` the act is pending on, and the last one is the ``act``.
"""

from __future__ import annotations

import logging

from companion.contract.sensors import Pending
from companion.core import Move, Unexplained, ZoneKind
from companion.core.seen import CardFace, Occupancy, PressSeen, TagSeen, Unseen, VisionSeen
from companion.core.zones import DISCARD, DRAW_PILE, HAND_PAD, PILE, Watch
from .cards import POSITIONS, RANK_OF, SLOT_OF
from .moves import ActCard, Discard, Draw, EndTurn, Skip, TakeBack
from .steps import finishing, slot_of, split
from .state import MountainState, Phase

logger = logging.getLogger(__name__)

PYRAMID_SLOT = ZoneKind(  # one of the mountain's 21 places, named by its position
    "pyramid_slot",
    camera=Watch.CARD_FACE,
    names=frozenset(POSITIONS),
    names_rule='named "r-i" (row r = 1..6, i = 1..r)',
)
TURN_BUTTON = ZoneKind("turn_button")  # a button by the discard reader, wired to the array: the turn is over
DISCARD_ZONE = "discard"
"""The discard reader's zone name at a table (a pending act's alert names it)."""
ZONE_KINDS = (PYRAMID_SLOT, HAND_PAD, DISCARD, DRAW_PILE, PILE, TURN_BUTTON)
"""The pyramid, the hand pad and discard reader, the turn button; the stock (a draw pile) and the health pile (a
pile) may be outlined for the camera, though no move is read from them."""


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
        return read_hand_pad(state, zone, card, t)
    return read_discard(state, zone, card, t)


def read_hand_pad(state: MountainState, zone: str, card: str, t: float) -> Move | Unexplained | None:
    if card in state.stock:
        return Draw(by=state.player, t=t, card=card, from_="stock")
    if card in state.health:
        return Draw(by=state.player, t=t, card=card, from_="health")
    if card in state.hand:
        if card in state.pending:
            return TakeBack(by=state.player, t=t)  # a card of the act begun, back in the hand: the act is taken back
        return None  # tapped again
    if slot_of(state, card) is not None:
        # A mountain card taken into the hand: a draw the engine refuses at once, saying where it lies.
        return Draw(by=state.player, t=t, card=card, from_="stock")
    return Unexplained(zone, f"the {card} was tapped on the hand pad, but it is on the discard pile", f"put the {card} back on the discard pile")


def read_discard(state: MountainState, zone: str, card: str, t: float) -> Move | Unexplained | None:
    if card in state.discard or card in state.pending:
        return None  # already there: the tap confirms a move already made (an act's card, the attack's damage)
    if card in state.hand:
        if state.phase is Phase.DISCARD and not state.pending:
            return Discard(by=state.player, t=t, cards=(card,))
        return _act_card(state, card, t)  # a card of a set on its way out
    if card in state.health:
        paid = state.health[0] if state.options.damage_from == "top" else state.health[-1]
        if state.phase is Phase.ACTIONS and card == paid:
            return EndTurn(by=state.player, t=t)  # the first health paid for the attack
        return Unexplained(
            zone,
            f"the {card} is a health card; health is discarded only for the threats' attack, from the {state.options.damage_from}",
            f"put the {card} back in the health pile",
        )
    slot = slot_of(state, card)
    if slot is None:
        return Unexplained(zone, f"the {card} is still in the face-down stock; it cannot be discarded", f"put the {card} back in the stock")
    if not state.pending:
        # No set begun: a mountain card going out is the skip (the engine refuses a second one, one
        # after a set, or a card not exposed, with its fix).
        return Skip(by=state.player, t=t, target=POSITIONS[slot])
    return _act_card(state, card, t)


def _act_card(state: MountainState, card: str, t: float) -> Move:
    """A card of an act: the act itself when it is the last one, else a step the act is pending on
    (refused at once when no legal act goes on with it)."""
    return finishing(state, card, state.player, t) or ActCard(by=state.player, t=t, card=card)


def pending(state: MountainState) -> tuple[Pending, ...]:
    """An act begun on the discard reader whose last card has not come (since its latest card)."""
    if not state.pending or state.pending_since is None:
        return ()
    set_cards, targets = split(state, state.pending)
    begun = ", ".join(set_cards)
    more = f" and removed {', '.join(targets)}" if targets else ""
    return (
        Pending(
            DISCARD_ZONE,
            state.pending_since,
            f"an act was begun with the {begun}{more} on the discard reader, and no card of it has come since",
            "tap the rest of the set and the mountain cards it removes on the discard reader, or enter the act at the console",
        ),
    )


def press(state: MountainState, seen: PressSeen) -> Move | Unexplained:
    """The turn button: the actions are done and the threats attack (``end_turn``), which a table
    shows no other way when the attack does no damage (no health card is discarded)."""
    if not seen.zone.is_a(TURN_BUTTON):
        return Unexplained(seen.zone.name, f"a button was pressed at {seen.zone.name}, and The Mountain has only the turn button",
                           f"take the button at {seen.zone.name} out of the table config, or make it a turn_button")
    return EndTurn(by=state.player, t=seen.t)


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
        if expected in state.pending:
            return None  # on its way out: a card of the act begun, tapped on the discard reader
        return Unexplained(zone, f"{zone} is empty, but the {expected} should still be there", f"put the {expected} back at {zone}, or enter the move that removed it")
    if expected is None and occupied:
        what = f"the {face}" if isinstance(face, str) else "a card"
        return Unexplained(zone, f"{what} lies at {zone}, which was cleared", f"take the card off {zone}")
    if expected is not None and isinstance(face, str) and face != expected:
        return Unexplained(zone, f"the camera sees the {face} at {zone}, where the {expected} lies", f"put the {expected} at {zone}")
    return None
