"""Escape From Horrible Mountain 2 at a table with readers (issue 21): the reference table, and what
each move is there.

The table (``layout``): a reader under each of the five Table Card slots and under the Discard Pile,
and a hand pad at each player's place, all on one array. The slots and the Discard Pile are readers
where cards stack up (a card swapped in is put on the old one's place, a refused one on top of it);
a hand pad is one a card is tapped on as it goes into the hand. The Draw Pile has no reader: a card
drawn from it is read on the hand pad or on the slot it refills. The camera watches the cubes: on
each slot, in the Cube Pile and in front of each player (their Control Cubes; four cubes before
they place two at setup).

What each move is at the table (``actions``; docs/sensors.md has the table of it):

- a live deal: each card tapped on its player's hand pad (``dealt``);
- ``draw``: the card tapped on the hand pad; ``swap``: the Table Card lifted, the hand card put on its
  slot, the old card tapped on the hand pad; ``take_table``: the card under the paid cube's twin
  lifted and tapped on the hand pad, the replacement from the Draw Pile put on the slot;
  ``take_discard``: the top discard lifted and tapped on the hand pad; ``discard``: the card put on
  the Discard Pile; a Draw Pile run out is the Discard Pile gathered up (HM2-RESHUFFLE);
- Swap Cubes and Claim a Cube: the two cards put on the Discard Pile one after the other, then the
  cubes moved. The first card is a pending move (``half``); the second finishes it when the two
  leave one way to make it (one pair of slots of their ranks, one cube in the Cube Pile), else it is
  a second ``half`` and the cubes the camera sees move finish it;
- the cubes placed at setup are seen by the camera on their slots (``place``); every cube a move
  moves is shown to the camera, which confirms it (``_cubes``);
- Take a Discard by a player with several Control Cubes: the card tapped is a pending move (``lift``;
  the pad cannot tell which cube was paid), and the cube the camera sees paid finishes it;
- what no sensor sees is entered: the Evil Master's examination, a search
  that reorders the Discard Pile, and any refused move whose cards the readers would read as another
  move (a card that lies on a slot or in the other hand, a placement that is undone before the
  camera settles, say).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from companion.contract.sensors import Action, Cubes, Enter, PlanDefaults, Put, Take, Tap
from companion.core import JsonObject, Move, Zone
from companion.core.seen import TagEvent, TagSeen
from companion.core.zones import DISCARD, HAND_PAD
from .cards import COLOURS, SLOTS
from .engine import HorribleMountain2
from .moves import (
    ClaimCube,
    Dealt,
    Discard,
    Draw,
    Examine,
    Half,
    Lift,
    Place,
    SearchDiscard,
    Swap,
    SwapCubes,
    TakeDiscard,
    TakeTable,
    Withdraw,
)
from .state import Phase, State
from .table import CONTROL_CUBES, CUBE_PILE, DISCARD_ZONE, TABLE_SLOT, interpret, read_laid, slot_zone

logger = logging.getLogger(__name__)

WHY = {
    Examine: "the Evil Master looks at the adventurer's hand: nothing on the table moves",
    Place: "a placement refused and undone at once: the camera sees the cubes as they were",
}
CUBE_PILE_ZONE = "cube-pile"
SLOT_W, SLOT_H = 85.0, 110.0
"""A slot's outline: the card (63 x 88 mm) and room round it for sloppy placing."""


def hand_zone(player: str) -> str:
    return f"hand-{player}"


def cubes_zone(player: str) -> str:
    """Where a player's Control Cubes lie, in front of them."""
    return f"cubes-{player}"


def rect(cx: float, cy: float, w: float, h: float) -> tuple[tuple[float, float], ...]:
    """An outline: corners counter-clockwise from the south-west, in table millimetres."""
    return ((cx - w / 2, cy - h / 2), (cx + w / 2, cy - h / 2), (cx + w / 2, cy + h / 2), (cx - w / 2, cy + h / 2))


def cube_views(state: State) -> dict[str, tuple[str, ...]]:
    """The cubes in each zone the camera watches, as the state has them (colours in COLOURS order).
    Before a player has placed, four cubes lie in front of them: two of each of their colours."""
    out = {slot_zone(n): tuple(c for c in (state.slot_cubes[n - 1],) if c is not None) for n in SLOTS}
    out[CUBE_PILE_ZONE] = tuple(c for c in COLOURS if c in state.cube_pile)
    for seat, name in enumerate(state.names):
        placed = any(c in state.slot_cubes for c in state.colours[seat])
        held = [c for c in COLOURS if c in state.control[seat]]
        out[cubes_zone(name)] = tuple(held * 2 if not placed and state.phase in (Phase.DEAL, Phase.PLACE) else held)
    return out


class HorribleMountain2Plan(PlanDefaults):
    """Horrible Mountain 2's sensor plan (module docstring)."""

    floor = 0.86
    """Measured: 87.3% over the acceptance games since Take a Discard with several cubes is read
    (``lift``; it was 85.9%), less a move's margin (docs/sensors.md)."""
    stacks = frozenset({TABLE_SLOT.name, DISCARD.name})

    def __init__(self, game: HorribleMountain2) -> None:
        self.game = game

    def _entry(self, move: Move, why: str) -> Enter:
        data: JsonObject = {k: v for k, v in self.game.codec.to_json(move).items() if k != "t"}
        return Enter(data, why)

    # -- the table ----------------------------------------------------------------------------

    def layout(self, players: Sequence[str]) -> tuple[Zone, ...]:
        """The slots in a row, the Cube Pile and each player's Control Cubes south of them (the
        camera's), the Discard Pile and the hand pads (readers only)."""
        zones = [
            Zone(slot_zone(n), TABLE_SLOT, index=n, reader=f"array:{n - 1}", polygon=rect(160 + 120 * (n - 1), 300, SLOT_W, SLOT_H))
            for n in SLOTS
        ]
        zones.append(Zone(CUBE_PILE_ZONE, CUBE_PILE, polygon=rect(400, 130, 150, 100)))
        zones.append(Zone(DISCARD_ZONE, DISCARD, reader=f"array:{len(SLOTS)}"))
        for k, p in enumerate(players):
            zones.append(Zone(hand_zone(p), HAND_PAD, player=p, reader=f"array:{len(SLOTS) + 1 + k}"))
            zones.append(Zone(cubes_zone(p), CONTROL_CUBES, player=p, polygon=rect(160 + 480 * k, 130, 160, 100)))
        return tuple(zones)

    def setup(self, state: State) -> Sequence[Action]:
        """The five Table Cards on their slots (the Discard Pile starts empty), the centre cube on the
        4 and in the Cube Pile, each player's cubes in front of them."""
        cards: list[Action] = [Put(slot_zone(n), state.table[n - 1]) for n in SLOTS]
        return (*cards, *(Cubes(zone, colours) for zone, colours in cube_views(state).items()))

    def _cubes(self, state: State, after: State) -> tuple[Action, ...]:
        """The cubes a move moved, as the camera sees them once it is made."""
        before, now = cube_views(state), cube_views(after)
        return tuple(Cubes(zone, colours) for zone, colours in now.items() if before[zone] != colours)

    # -- what the readers read ----------------------------------------------------------------

    def _read(self, state: State, zone: Zone, card: str, t: float | None) -> Any:
        """What ``card`` arriving at ``zone`` is read as (table.py's ``interpret``)."""
        seen = TagSeen(zone.ref(), TagEvent.ARRIVE, "", card, t or 0.0)
        return interpret(state, seen)

    def _zone(self, state: State, name: str) -> Zone:
        return next(z for z in self.layout(state.players) if z.name == name)

    def _reads(self, state: State, name: str, card: str, move: Move) -> bool:
        """Is ``card`` arriving at zone ``name`` read as ``move`` (the same verdict, the same state after)?"""
        found = self._read(state, self._zone(state, name), card, move.t)
        return isinstance(found, Move) and self._same(state, found, move)

    def _same(self, state: State, found: Move, move: Move) -> bool:
        v_found, after_found = self.game.play(state, found.replace(t=move.t))
        v_move, after_move = self.game.play(state, move)
        return v_found.rules == v_move.rules and v_found.ok == v_move.ok and (not v_move.ok or after_found == after_move)

    def _lying(self, state: State, card: str) -> bool:
        """Does ``card`` lie on a reader (a slot, the Discard Pile)? A card tapped comes from elsewhere."""
        return card in state.table or card in state.discard_cards() or card in state.laid

    # -- what the table's rows are --------------------------------------------------------------

    def table_moves(self, state: State, move: Move) -> Sequence[Move]:
        if isinstance(move, (SwapCubes, ClaimCube)) and self._two_cards(state, move):
            first, second = move.cards
            steps: list[Move] = [Half(by=move.by, card=first, t=move.t)]
            if not self._second_finishes(state, move):
                steps.append(Half(by=move.by, card=second, t=move.t))
            return (*steps, move)
        if isinstance(move, Discard) and self._refused_half(state, move):
            return (Half(by=move.by, card=move.card, t=move.t),)
        if isinstance(move, TakeDiscard) and self._lifted(state, move):
            return (Lift(by=move.by, card=move.card or str(state.discard_top), t=move.t), move)
        return (move,)

    def _lifted(self, state: State, move: TakeDiscard) -> bool:
        """A legal Take a Discard by a player with several Control Cubes: the hand pad reads its card
        as ``lift``, and the cube the camera sees paid finishes it as ``move`` leaves the table."""
        card = move.card or state.discard_top
        if card is None or move.by is None or len(state.control[state.turn]) < 2 or not self.game.judge(state, move).ok:
            return False
        lift = self._read(state, self._zone(state, hand_zone(move.by)), card, move.t)
        if not isinstance(lift, Lift):
            return False
        v_lift, lifted = self.game.play(state, lift)
        finished = TakeDiscard(by=move.by, cube=move.cube, card=None if card == state.discard_top else card, t=move.t)
        v_done, done = self.game.play(lifted, finished)
        return v_lift.ok and v_done.ok and done == self.game.play(state, move)[1]

    def _two_cards(self, state: State, move: SwapCubes | ClaimCube) -> bool:
        """A legal Swap Cubes or Claim a Cube begun with nothing laid: its cards go down one by one."""
        return state.phase is Phase.PLAY and not state.laid and self.game.judge(state, move).ok

    def _second_finishes(self, state: State, move: SwapCubes | ClaimCube) -> bool:
        """Does the second card, put down after the first, finish ``move`` (one way to make it)?"""
        _, after = self.game.play(state, Half(by=move.by, card=move.cards[0], t=move.t))
        found = read_laid(after, move.cards[1], move.t)
        return not isinstance(found, Half) and self._same(state, found, move)

    def _refused_half(self, state: State, move: Discard) -> bool:
        """A refused discard of a card of the player to act, no sixth card held: the reader sees a
        first card of Swap Cubes or Claim a Cube, and the verdict refuses it as that."""
        if state.phase is not Phase.PLAY or state.must_discard or state.laid or move.by != state.current:
            return False
        if move.card not in state.hands[state.turn] or self.game.judge(state, move).ok:
            return False
        return not self.game.judge(state, Half(by=move.by, card=move.card, t=move.t)).ok

    # -- what the table does ------------------------------------------------------------------

    def actions(self, state: State, move: Move, after: Any, legal: bool) -> Sequence[Action]:
        made = tuple(self._made(state, move, after, legal))
        return (*made, *self._cubes(state, after)) if legal else made

    def _made(self, state: State, move: Move, after: State, legal: bool) -> Sequence[Action]:
        by = move.by
        if by is None or state.seat(by) is None:
            return (self._entry(move, "a move by no player at the table"),)
        if isinstance(move, (Dealt, Draw)):
            return self._tapped(state, move, after, legal)
        if isinstance(move, Swap):
            return self._swap(state, move, legal)
        if isinstance(move, TakeTable):
            return self._take_table(state, move, after, legal)
        if isinstance(move, TakeDiscard):
            return self._take_discard(state, move, legal)
        if isinstance(move, (SwapCubes, ClaimCube)):
            return self._two(state, move)
        if isinstance(move, Discard):
            return self._discard(state, move, legal)
        if isinstance(move, SearchDiscard):
            return self._search(state, move, legal)
        if isinstance(move, Half) and self._reads(state, DISCARD_ZONE, move.card, move) and not self._lying(state, move.card):
            return (Put(DISCARD_ZONE, move.card),) if legal else (Put(DISCARD_ZONE, move.card), Take(DISCARD_ZONE, move.card))
        if isinstance(move, Withdraw) and legal:
            return (Take(DISCARD_ZONE, move.card),)
        if isinstance(move, Place) and legal:
            return ()  # the cubes on their slots: the camera sees them (``_cubes``)
        return (self._entry(move, WHY.get(type(move), "a move no reader sees")),)

    def _reshuffle(self, state: State, after: State, legal: bool) -> tuple[Action, ...]:
        """The Draw Pile run out: the Discard Pile gathered up to be shuffled into the new one."""
        if not legal or after.exhausted == state.exhausted:
            return ()
        return tuple(Take(DISCARD_ZONE, card) for card in state.discard_cards())

    def _tapped(self, state: State, move: Dealt | Draw, after: State, legal: bool) -> Sequence[Action]:
        """A dealt or drawn card, tapped on the hand pad on its way in."""
        assert move.by is not None
        zone = hand_zone(move.by)
        if self._lying(state, move.card) or not self._reads(state, zone, move.card, move):
            return (self._entry(move, "a card the hand pad reads as another move (it lies on a slot or in a hand)"),)
        return (Tap(zone, move.card), *self._reshuffle(state, after, legal))

    def _swap(self, state: State, move: Swap, legal: bool) -> Sequence[Action]:
        zone = slot_zone(move.slot)
        if self._lying(state, move.card) or not self._reads(state, zone, move.card, move):
            return (self._entry(move, "a swap the slot reader reads as another move (the card lies on the table or in the other hand)"),)
        if not legal:  # put on top of the Table Card, and taken back as the verdict says
            return (Put(zone, move.card), Take(zone, move.card))
        old = state.table[move.slot - 1]
        assert move.by is not None
        return (Take(zone, old), Put(zone, move.card), Tap(hand_zone(move.by), old))

    def _take_table(self, state: State, move: TakeTable, after: State, legal: bool) -> Sequence[Action]:
        slot = state.slot_of_cube(move.cube)
        why = "a Table Card taken that the slot reader reads as another move (its replacement is no Draw Pile card)"
        if slot is None or self._lying(state, move.replacement):
            return (self._entry(move, why),)
        zone = slot_zone(slot)
        if not self._reads(state, zone, move.replacement, move):
            return (self._entry(move, why),)
        if not legal:  # the replacement put on the Table Card, and taken back
            return (Put(zone, move.replacement), Take(zone, move.replacement))
        old = state.table[slot - 1]
        assert move.by is not None
        return (Take(zone, old), Tap(hand_zone(move.by), old), Put(zone, move.replacement), *self._reshuffle(state, after, legal))

    def _take_discard(self, state: State, move: TakeDiscard, legal: bool) -> Sequence[Action]:
        assert move.by is not None
        card = move.card or state.discard_top
        if not legal or card is None:
            return (self._entry(move, "a discard taken that is refused: the pad would read another move"),)
        if self._reads(state, hand_zone(move.by), card, move):
            return (Take(DISCARD_ZONE, card), Tap(hand_zone(move.by), card))
        if self._lifted(state, move):
            # The card comes off the Discard Pile and is tapped as the cube is still on its way: the
            # tap is pending (``lift``), and the cube the camera sees paid finishes it (``_cubes``).
            return (Take(DISCARD_ZONE, card), Tap(hand_zone(move.by), card))
        why = "a discard taken that the hand pad reads as another move"
        return (Take(DISCARD_ZONE, card), self._entry(move, why))

    def _two(self, state: State, move: SwapCubes | ClaimCube) -> Sequence[Action]:
        """Swap Cubes or Claim a Cube: its two cards put on the Discard Pile one after the other."""
        if not self._two_cards(state, move):
            return (self._entry(move, "a Swap Cubes or Claim a Cube refused: its two cards read one by one are other moves"),)
        first, second = move.cards
        return (Put(DISCARD_ZONE, first), Put(DISCARD_ZONE, second))  # and the cubes the camera sees (``_cubes``)

    def _discard(self, state: State, move: Discard, legal: bool) -> Sequence[Action]:
        if legal and self._reads(state, DISCARD_ZONE, move.card, move):
            return (Put(DISCARD_ZONE, move.card),)
        if self._refused_half(state, move):  # flagged at once as a card that begins no action, and taken back
            return (Put(DISCARD_ZONE, move.card), Take(DISCARD_ZONE, move.card))
        return (self._entry(move, "a refused discard the reader reads as another move (a card on the table, in the other hand, or one that begins Swap Cubes or Claim a Cube)"),)

    def _search(self, state: State, move: SearchDiscard, legal: bool) -> Sequence[Action]:
        assert move.by is not None
        if legal and move.order is None and self._reads(state, hand_zone(move.by), move.card, move):
            return (Take(DISCARD_ZONE, move.card), Tap(hand_zone(move.by), move.card))
        why = "a search of the Discard Pile that reorders it or takes its top card, which the readers cannot tell apart"
        return (self._entry(move, why), *((Take(DISCARD_ZONE, move.card),) if legal else ()))
