"""From the table's sensors to moves (DESIGN.md "What the sensors see", Horrible Mountain 2 row).

NFC readers under the five Table Card slots and the Discard Pile, and each player's hand pad, report
cards by identity; the camera reports which cubes sit on each slot, in the Cube Pile and in front
of each player. One observation at a time, against the state before the action:

* during a live table's deal, a card tapped on a hand pad -> ``dealt`` (HM2-SETUP-HANDS);
* a Draw Pile card tapped on a hand pad -> ``draw``;
* a hand card arriving on a slot -> ``swap``; a Draw Pile card arriving on a slot -> ``take_table``
  (the card arriving is the replacement; the cube paid is the colour on that slot);
* the top discard tapped on a hand pad -> ``take_discard`` when the player holds one Control Cube;
  with more, ``lift`` (pending: the pad cannot tell which cube was paid), finished by the cube the
  camera sees leave the player or arrive in the Cube Pile, or put back on the Discard Pile
  (``withdraw``); one left too long becomes one alert (:func:`pending`); out of turn, the verdict
  refuses the ``lift`` at once (HM2-TURN);
  another Discard Pile card -> ``search_discard`` (Optional Variant);
* a hand card arriving on the Discard Pile reader right after a sixth card -> ``discard``;
* a hand card of the player to act arriving on the Discard Pile otherwise -> the first (or second)
  card of Swap Cubes or Claim a Cube, held as a pending move (``half``; the verdict flags at once a
  card with which no such action can be finished). The second card finishes the move when the two
  cards leave one way to make it (one pair of slots, one cube in the Cube Pile); otherwise it is a
  second ``half`` and the cubes the camera sees move finish it. A pending card lifted off the
  Discard Pile (or tapped back on the hand pad) is ``withdraw``; one left too long becomes one alert
  (:func:`pending`);
* a cube appearing on an empty slot during setup -> ``place`` (its colour tells the order);
* anything halfway through an action (a card lifted, a cube paid into the Cube Pile) -> None; a view
  no legal move explains -> :class:`Unexplained`, naming the zone and the fix.

The Table Card slots, the Cube Pile and the Control Cubes in front of a player are this game's own
zone kinds (the camera counts cubes in each; with both cards of Swap Cubes or Claim a Cube down, the
cubes it sees move finish the move); hand pads, the Discard Pile and the Draw Pile are shared
(:mod:`companion.core.zones`).
"""

from __future__ import annotations

import logging
from collections import Counter

from companion.contract.sensors import Pending
from companion.core import Move, Unexplained, ZoneKind
from companion.core.seen import Cubes, Seen, TagSeen, VisionSeen
from companion.core.zones import DISCARD, DRAW_PILE, HAND_PAD, Watch
from .cards import COLOURS, PLACE_PAIRS, card_problem, rank
from .checks import finishes
from .moves import ClaimCube, Dealt, Discard, Draw, Half, Lift, Place, SearchDiscard, Swap, SwapCubes, TakeDiscard, TakeTable, Withdraw
from .state import ADVENTURER, Phase, State, unlaid

log = logging.getLogger(__name__)


TABLE_SLOT = ZoneKind("table_slot", camera=Watch.CUBES)  # one of the five Table Card slots: its card, and the cube on it
CUBE_PILE = ZoneKind("cube_pile", camera=Watch.CUBES)
CONTROL_CUBES = ZoneKind("control_cubes", camera=Watch.CUBES)  # in front of a player: their Control Cubes
ZONE_KINDS = (HAND_PAD, TABLE_SLOT, DISCARD, DRAW_PILE, CUBE_PILE, CONTROL_CUBES)
DISCARD_ZONE = "discard"
"""The Discard Pile's zone as the reference table names it (``companion init`` and the sensor plan):
where a pending Swap Cubes or Claim a Cube lies."""


def slot_zone(slot: int) -> str:
    """The zone of Table Card slot N as the reference table names it."""
    return f"slot-{slot}"

Found = Move | Unexplained | None


def interpret(state: State, seen: Seen) -> Found:
    found = _tag(state, seen) if isinstance(seen, TagSeen) else _vision(state, seen)
    if isinstance(found, Unexplained):
        log.debug("unexplained at %s: %s (fix: %s)", found.zone, found.what, found.fix)
    return found


# -- NFC ----------------------------------------------------------------------------------------------


def _tag(state: State, seen: TagSeen) -> Found:
    zone, card, t = seen.zone.name, seen.card, seen.t
    if not seen.arrived:
        if seen.zone.is_a(DISCARD) and card is not None and card in state.laid:
            return Withdraw(by=state.current, card=card, t=t)  # a card of the action under way taken back
        return None  # a card lifted: the action goes on, its next step is what counts
    if card is None:
        return Unexplained(zone, "a card no one enrolled was put down here", "enrol the card's tag, then put it down again")
    if card_problem(card):
        return Unexplained(zone, f"{card} is not a Horrible Mountain card", f"take {card} off the table")
    if state.phase is Phase.OVER:
        return Unexplained(zone, f"{card} was moved after the game ended", f"put {card} back; the game is over")
    if seen.zone.is_a(HAND_PAD):
        return read_hand(state, zone, seen.zone.player, card, t)
    if seen.zone.is_a(TABLE_SLOT):
        return read_slot(state, zone, seen.zone.index, card, t)
    if seen.zone.is_a(DISCARD):
        return read_discard(state, zone, card, t)
    return None  # a zone this game does not watch


def _holder(state: State, card: str) -> int | None:
    for seat in (0, 1):
        if card in state.hands[seat]:
            return seat
    return None


def read_hand(state: State, zone: str, player: str | None, card: str, t: float) -> Found:
    seat = state.seat(player)
    if seat is None:
        return Unexplained(zone, f"{card} was tapped on a hand pad that belongs to no player", "check the table config's hand pads")
    name = state.names[seat]
    if card in state.hands[seat] or card == state.lifted:
        return None  # a card already in that hand, tapped again
    if state.phase is Phase.DEAL:
        return Dealt(by=name, card=card, t=t)  # HM2-SETUP-HANDS: the verdict refuses a card that cannot be dealt
    if card in state.laid and seat == state.turn:
        return Withdraw(by=name, card=card, t=t)
    if card in state.draw_pile:
        return Draw(by=name, card=card, t=t)
    slot = state.slot_of_card(card)
    if slot is not None:
        cube = state.slot_cubes[slot - 1]
        mid_action = state.phase is Phase.PLAY and seat == state.turn and not state.must_discard
        if mid_action and (cube in state.control[seat] or any(rank(c) == rank(card) for c in state.hands[seat])):
            return None  # Take a Table Card or Swap a Card under way: the card arriving on the slot completes it
        return Unexplained(zone, f"{card} was taken from slot {slot}", f"put {card} back on slot {slot}")
    if card in state.discard_cards():
        return _from_discard(state, zone, seat, card, t)
    # Never say whose hand holds it: alerts are public.
    return Unexplained(
        zone, f"{card} cannot come into this hand: it is not in the Draw Pile, the Discard Pile or on a slot", f"give {card} back"
    )


def _from_discard(state: State, zone: str, seat: int, card: str, t: float) -> Found:
    name = state.names[seat]
    cubes = sorted(state.control[seat])
    searchable = state.options.once_per_game_actions and seat == ADVENTURER and seat not in state.used_once
    known_top = card == state.discard_top
    could_be_top = known_top or (state.discard_top is None and card in state.discard_unordered)
    if could_be_top and len(cubes) == 1:
        return TakeDiscard(by=name, cube=cubes[0], card=None if known_top else card, t=t)  # type: ignore[arg-type]
    if could_be_top and cubes:
        # the cube the camera sees paid finishes it; the verdict judges the take itself, so one out of
        # turn or before a sixth card is discarded is refused at once (HM2-TURN, HM2-HAND-LIMIT)
        return Lift(by=name, card=card, t=t)
    if searchable:
        return SearchDiscard(by=name, card=card, t=t)
    return Unexplained(zone, f"{card} was taken from the Discard Pile", f"put {card} back on the Discard Pile")


def read_slot(state: State, zone: str, index: int | None, card: str, t: float) -> Found:
    if index is None or not 1 <= index <= 5:
        return Unexplained(zone, f"{card} arrived on a Table Card reader with no slot number", "check the table config's slots")
    under = state.table[index - 1]
    if card == under:
        return None  # the same card put back
    holder = _holder(state, card)
    if holder is not None and state.phase is Phase.PLAY:
        return Swap(by=state.names[holder], card=card, slot=index, t=t)
    cube = state.slot_cubes[index - 1]
    if card in state.draw_pile and state.phase is Phase.PLAY and cube is not None:
        return TakeTable(by=state.current, cube=cube, replacement=card, t=t)  # type: ignore[arg-type]
    return Unexplained(zone, f"{card} arrived on slot {index}, which holds {under}", f"take {card} off slot {index} and put {under} back")


def read_discard(state: State, zone: str, card: str, t: float) -> Found:
    if card == state.lifted:
        return Withdraw(by=state.current, card=card, t=t)  # the card of a Take a Discard under way put back
    if card == state.discard_top or card in state.laid:
        return None  # read again where it lies
    holder = _holder(state, card)
    if holder is not None and state.phase is Phase.PLAY:
        name = state.names[holder]
        if holder == state.turn and not state.must_discard:
            return read_laid(state, card, t)
        return Discard(by=name, card=card, t=t)  # the verdict says why not now (HM2-TURN)
    return Unexplained(zone, f"{card} arrived on the Discard Pile but was not in a hand", f"take {card} off the Discard Pile")


def read_laid(state: State, card: str, t: float | None) -> Move:
    """A card of the player to act put on the Discard Pile, no sixth card held: a step of Swap Cubes or
    Claim a Cube. The second card finishes the move when the two leave one way to make it; otherwise
    (and for the first card) it is held as ``half`` until the rest comes (a half no action can
    finish is refused at once)."""
    if len(state.laid) == 1:
        ways = finishes(unlaid(state), (state.laid[0], card))
        if len(ways) == 1:
            return ways[0].replace(t=t)
    return Half(by=state.current, card=card, t=t)


def pending(state: State) -> tuple[Pending, ...]:
    """Swap Cubes or Claim a Cube under way: its cards on the Discard Pile, the rest to come; Take a
    Discard under way: its card in the hand, the cube to come."""
    if state.lifted is not None and state.lifted_t is not None and state.phase is Phase.PLAY:
        who, card = state.current, state.lifted
        what = f"{who} took {card} from the Discard Pile, and no Control Cube has gone to the Cube Pile"
        fix = f"{who}: put the Control Cube you pay in the Cube Pile, or {card} back on the Discard Pile"
        return (Pending(DISCARD_ZONE, state.lifted_t, what, fix),)
    if not state.laid or state.laid_t is None or state.phase is not Phase.PLAY:
        return ()
    who, laid = state.current, " and ".join(state.laid)
    if len(state.laid) == 1:
        what = f"{who}'s {laid} lies on the Discard Pile as the first card of Swap Cubes or Claim a Cube, and no second card has come"
        fix = f"{who}: put the second card on the Discard Pile, or take {laid} back into your hand"
    else:
        what = f"{who}'s {laid} lie on the Discard Pile for Swap Cubes or Claim a Cube, and no cube has moved"
        fix = f"{who}: swap the cubes on the two Table Cards or take your cube from the Cube Pile, or take {laid} back into your hand"
    return (Pending(DISCARD_ZONE, state.laid_t, what, fix),)


# -- camera ---------------------------------------------------------------------------------------------


def _vision(state: State, seen_view: VisionSeen) -> Found:
    zone, view = seen_view.zone.name, seen_view.view
    if not isinstance(view, Cubes):
        return None  # a card-zone occupancy view (the NFC readers say more), or a zone the camera cannot see now
    seen = list(view.colours)
    odd = [c for c in seen if c not in COLOURS]
    if odd:
        return Unexplained(zone, f"the camera sees a cube it does not know ({odd[0]})", "check the camera's cube colours")
    if seen_view.zone.is_a(TABLE_SLOT):
        return _slot_cubes(state, zone, seen_view.zone.index, seen, seen_view.t)
    if seen_view.zone.is_a(CUBE_PILE):
        return _pile_cubes(state, zone, seen, seen_view.t)
    player = seen_view.zone.player
    if player is not None:
        return _player_cubes(state, zone, player, seen, seen_view.t)  # the Control Cubes in front of a player
    return None


def _fix_slot(state: State, slot: int, seen: list[str]) -> str:
    want = state.slot_cubes[slot - 1]
    extra = [c for c in seen if c != want]
    steps = [f"take the {c} cube off slot {slot}" for c in extra]
    if want is not None and want not in seen:
        steps.append(f"put the {want} cube back on slot {slot}")
    return " and ".join(steps) or f"leave slot {slot} as it is"


def _slot_cubes(state: State, zone: str, index: int | None, seen: list[str], t: float) -> Found:
    if index is None or not 1 <= index <= 5:
        return None
    want = state.slot_cubes[index - 1]
    if Counter(seen) == Counter([want] if want else []):
        return None
    if state.phase is Phase.PLACE and want is None and len(seen) == 1:
        placed = _placement(state, index, seen[0], t)
        if placed is not None:
            return placed
    if state.phase is Phase.PLAY and len(seen) == 1 and want is not None:
        other = state.slot_of_cube(seen[0])
        if other is not None and other != index and len(state.laid) == 2:
            # Swap Cubes under way, its two cards down: the cubes moved say which slots (the verdict judges)
            return SwapCubes(by=state.current, cards=(state.laid[0], state.laid[1]), slots=(other, index), t=t)
        if other is not None and other != index:
            return Unexplained(
                zone,
                f"the {seen[0]} cube moved from slot {other} to slot {index}: Swap Cubes needs the two cards discarded",
                f"enter swap_cubes with the two cards and slots {other} and {index}, "
                f"or put the {seen[0]} cube back on slot {other} and the {want} cube on slot {index}",
            )
    wanted = f"the {want} cube" if want else "no cube"
    shown = ", ".join(seen) or "no cube"
    return Unexplained(
        zone,
        f"slot {index} should hold {wanted} (HM2-CUBE-SLOT) but the camera sees {shown}",
        _fix_slot(state, index, seen),
    )


def _placement(state: State, slot: int, colour: str, t: float) -> Place | None:
    for seat in (0, 1):
        pair = state.colours[seat]
        if colour not in pair:
            continue
        slots = next((sorted(p) for p in PLACE_PAIRS if slot in p), None)
        if slots is None:
            return None
        other = slots[1] if slots[0] == slot else slots[0]
        ordered = (slot, other) if colour == pair[0] else (other, slot)
        return Place(by=state.names[seat], slots=ordered, t=t)
    return None


def _claimed(state: State, colour: str, t: float) -> Move | None:
    """Claim a Cube under way, its two cards down: the cube that left the Cube Pile is the one claimed."""
    if len(state.laid) != 2:
        return None
    return ClaimCube(by=state.current, cards=(state.laid[0], state.laid[1]), cube=colour, t=t)  # type: ignore[arg-type]


def _paid_for_lifted(state: State, colour: str, t: float) -> TakeDiscard:
    """Take a Discard under way (``lift``): the Control Cube seen paid finishes it."""
    card = None if state.lifted == state.discard_top else state.lifted
    return TakeDiscard(by=state.current, cube=colour, card=card, t=t)  # type: ignore[arg-type]


def _pile_cubes(state: State, zone: str, seen: list[str], t: float) -> Found:
    now = Counter(seen)
    if now == Counter(state.cube_pile):
        return None
    mover = state.turn
    in_play = state.phase is Phase.PLAY and not state.must_discard
    added = now - Counter(state.cube_pile)
    removed = Counter(state.cube_pile) - now
    if in_play and not removed and len(added) == 1 and set(added) <= state.control[mover]:
        if state.lifted is not None:
            return _paid_for_lifted(state, next(iter(added)), t)
        return None  # a Control Cube paid for Take a Table Card or Take a Discard; the card says which
    if in_play and not added and len(removed) == 1:
        (colour,) = removed
        claimed = _claimed(state, colour, t)
        if claimed is not None:
            return claimed
        return Unexplained(
            zone,
            f"the {colour} cube left the Cube Pile: Claim a Cube needs the two cards of one rank discarded",
            f"enter claim_cube with the two cards and the {colour} cube, or put the {colour} cube back in the Cube Pile",
        )
    expect = ", ".join(sorted(state.cube_pile)) or "no cube"
    return Unexplained(zone, f"the Cube Pile should hold {expect}", f"make the Cube Pile hold {expect}")


def _player_cubes(state: State, zone: str, player: str, seen: list[str], t: float) -> Found:
    seat = state.seat(player)
    if seat is None:
        return None
    held = Counter(state.control[seat])
    now = Counter(seen)
    if now == held:
        return None
    if state.phase in (Phase.DEAL, Phase.PLACE):
        return None  # before placing, a player still has four cubes in front of him
    acting = state.phase is Phase.PLAY and seat == state.turn and not state.must_discard
    added, removed = now - held, held - now
    if acting and len(added) + len(removed) == 1:
        claimed = _claimed(state, next(iter(added)), t) if added and set(added) <= state.cube_pile else None
        if claimed is not None:
            return claimed
        if removed and state.lifted is not None:
            return _paid_for_lifted(state, next(iter(removed)), t)
        if removed or set(added) <= state.cube_pile:
            return None  # a cube paid, or one being claimed: the cards say the rest
    expect = " and ".join(sorted(state.control[seat])) or "no cube"
    return Unexplained(zone, f"{player}'s Control Cubes should be {expect}", f"{player}: keep exactly {expect} in front of you")
