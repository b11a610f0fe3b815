"""From the table's sensors to moves (DESIGN.md "What the sensors see", Horrible Mountain 2 row).

NFC readers under the five Table Card slots and the Discard Pile, and each player's hand pad, report
cards by identity; the camera reports which cubes sit on each slot, in the Cube Pile and in front
of each player. One observation at a time, against the state before the action:

* a Draw Pile card tapped on a hand pad -> ``draw``;
* a hand card arriving on a slot -> ``swap``; a Draw Pile card arriving on a slot -> ``take_table``
  (the card arriving is the replacement; the cube paid is the colour on that slot);
* the top discard tapped on a hand pad -> ``take_discard`` when the player holds one Control Cube
  (with more, the camera cannot tell which was paid in the same instant, so the table is asked);
  another Discard Pile card -> ``search_discard`` (Optional Variant);
* a hand card arriving on the Discard Pile reader right after a sixth card -> ``discard``;
* a cube appearing on an empty slot during setup -> ``place`` (its colour tells the order);
* anything halfway through an action (a card lifted, the first of two discards, a cube paid into
  the Cube Pile) -> None; a view no legal move explains -> :class:`Unexplained`, naming the zone
  and the fix. Swap Cubes and Claim a Cube need both discarded cards in order, which no single
  observation carries, so when the camera sees their cubes move the table is asked to enter them.

The Table Card slots and the Cube Pile are this game's own zone kinds (the camera counts cubes in
both); hand pads, the Discard Pile and the Draw Pile are shared (:mod:`companion.core.zones`).
"""

from __future__ import annotations

import logging
from collections import Counter

from companion.core import Move, Unexplained, ZoneKind
from companion.core.seen import Cubes, Seen, TagSeen, VisionSeen
from companion.core.zones import DISCARD, DRAW_PILE, HAND_PAD, Watch
from .cards import COLOURS, PLACE_PAIRS, card_problem, rank
from .moves import Discard, Draw, Place, SearchDiscard, Swap, TakeDiscard, TakeTable
from .state import ADVENTURER, Phase, State

log = logging.getLogger(__name__)


TABLE_SLOT = ZoneKind("table_slot", camera=Watch.CUBES)  # one of the five Table Card slots: its card, and the cube on it
CUBE_PILE = ZoneKind("cube_pile", camera=Watch.CUBES)
ZONE_KINDS = (HAND_PAD, TABLE_SLOT, DISCARD, DRAW_PILE, CUBE_PILE)

Found = Move | Unexplained | None


def interpret(state: State, seen: Seen) -> Found:
    found = _tag(state, seen) if isinstance(seen, TagSeen) else _vision(state, seen)
    if isinstance(found, Unexplained):
        log.debug("unexplained at %s: %s (fix: %s)", found.zone, found.what, found.fix)
    return found


# -- NFC ----------------------------------------------------------------------------------------------


def _tag(state: State, seen: TagSeen) -> Found:
    if not seen.arrived:
        return None  # a card lifted: the action goes on, its next step is what counts
    zone, card, t = seen.zone.name, seen.card, seen.t
    if card is None:
        return Unexplained(zone, "a card no one enrolled was put down here", "enrol the card's tag, then put it down again")
    if card_problem(card):
        return Unexplained(zone, f"{card} is not a Horrible Mountain card", f"take {card} off the table")
    if state.phase is Phase.OVER:
        return Unexplained(zone, f"{card} was moved after the game ended", f"put {card} back; the game is over")
    if seen.zone.is_a(HAND_PAD):
        return _to_hand(state, zone, seen.zone.player, card, t)
    if seen.zone.is_a(TABLE_SLOT):
        return _to_slot(state, zone, seen.zone.index, card, t)
    if seen.zone.is_a(DISCARD):
        return _to_discard(state, zone, card, t)
    return None  # a zone this game does not watch


def _holder(state: State, card: str) -> int | None:
    for seat in (0, 1):
        if card in state.hands[seat]:
            return seat
    return None


def _to_hand(state: State, zone: str, player: str | None, card: str, t: float) -> Found:
    seat = state.seat(player)
    if seat is None:
        return Unexplained(zone, f"{card} was tapped on a hand pad that belongs to no player", "check the table config's hand pads")
    name = state.names[seat]
    if card in state.hands[seat]:
        return None  # a card already in that hand, tapped again
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
    if searchable and (not cubes or not could_be_top):
        return SearchDiscard(by=name, card=card, t=t)
    if could_be_top and cubes:
        return Unexplained(
            zone,
            f"{name} took {card} from the Discard Pile and holds {' and '.join(cubes)} Control Cubes",
            "enter take_discard with the Control Cube that went to the Cube Pile",
        )
    return Unexplained(zone, f"{card} was taken from the Discard Pile", f"put {card} back on the Discard Pile")


def _to_slot(state: State, zone: str, index: int | None, card: str, t: float) -> Found:
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


def _to_discard(state: State, zone: str, card: str, t: float) -> Found:
    if card == state.discard_top:
        return None
    holder = _holder(state, card)
    if holder is not None and state.phase is Phase.PLAY:
        name = state.names[holder]
        if holder == state.turn and not state.must_discard and len(state.hands[holder]) >= 2:
            return None  # the first of two discards for Swap Cubes or Claim a Cube; the cubes say which
        return Discard(by=name, card=card, t=t)
    return Unexplained(zone, f"{card} arrived on the Discard Pile but was not in a hand", f"take {card} off the Discard Pile")


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
        return _pile_cubes(state, zone, seen)
    player = seen_view.zone.player
    if player is not None:
        return _player_cubes(state, zone, player, seen)  # the Control Cubes in front of a player
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


def _pile_cubes(state: State, zone: str, seen: list[str]) -> Found:
    now = Counter(seen)
    if now == Counter(state.cube_pile):
        return None
    mover = state.turn
    in_play = state.phase is Phase.PLAY and not state.must_discard
    added = now - Counter(state.cube_pile)
    removed = Counter(state.cube_pile) - now
    if in_play and not removed and len(added) == 1 and set(added) <= state.control[mover]:
        return None  # a Control Cube paid for Take a Table Card or Take a Discard; the card says which
    if in_play and not added and len(removed) == 1:
        (colour,) = removed
        return Unexplained(
            zone,
            f"the {colour} cube left the Cube Pile: Claim a Cube needs the two cards of one rank discarded",
            f"enter claim_cube with the two cards and the {colour} cube, or put the {colour} cube back in the Cube Pile",
        )
    expect = ", ".join(sorted(state.cube_pile)) or "no cube"
    return Unexplained(zone, f"the Cube Pile should hold {expect}", f"make the Cube Pile hold {expect}")


def _player_cubes(state: State, zone: str, player: str, seen: list[str]) -> Found:
    seat = state.seat(player)
    if seat is None:
        return None
    held = Counter(state.control[seat])
    now = Counter(seen)
    if now == held:
        return None
    if state.phase is Phase.PLACE:
        return None  # before placing, a player still has four cubes in front of him
    acting = state.phase is Phase.PLAY and seat == state.turn and not state.must_discard
    added, removed = now - held, held - now
    if acting and len(added) + len(removed) == 1:
        if removed or set(added) <= state.cube_pile:
            return None  # a cube paid, or one being claimed: the cards say the rest
    expect = " and ".join(sorted(state.control[seat])) or "no cube"
    return Unexplained(zone, f"{player}'s Control Cubes should be {expect}", f"{player}: keep exactly {expect} in front of you")
