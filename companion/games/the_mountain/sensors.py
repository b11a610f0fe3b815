"""The Mountain at a table with readers (issue 21): the reference table, and what each move is there.

The table (``layout``): one array with the hand pad (each card drawn into the hand is tapped on it),
the discard reader (each card leaving the hand or the mountain is tapped on its way out: a discard,
the set's cards and the mountain cards an action removes, the health cards the attack takes) and the
turn button beside it. Both readers are pads: a card is tapped and laid on its pile, and no reader
lies under a pile. With ``camera=True`` the 21 pyramid slots lie under the camera too (each card's
face, overlapped as a pyramid lies): a card taken off the mountain is named by the discard reader,
and the camera sees its slot empty (and alerts on a slot that disagrees with the game). ``SPEC``
lays it so (``MountainPlan.camera``).

What each move is at the table (``actions``; docs/sensors.md has the table of it):

- ``draw``: the card tapped on the hand pad; ``discard``: each card tapped on the discard reader;
- ``act``: its set's cards, then the mountain cards it removes in removal order (each taken off
  its slot), tapped on the discard reader; the act is pending until the last one, whose tap is the
  act (table.py, steps.py);
- ``skip``: the one mountain card taken off its slot and tapped on the discard reader;
- ``end_turn``: the first health card the attack takes tapped on the discard reader (the rest
  follow it), or the turn button when the attack does no damage;
- a refused move is its cards tapped until the one the table refuses at once; an act's cards
  before it are taken back (``take_back``), and mountain cards laid back where they lay.

A move whose taps the readers would read otherwise is entered, with why: the table's own reading
(table.py) is played over the taps here, exactly as the session will read them.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from companion.contract.sensors import Action, Enter, PlanDefaults, Press, Put, Take, Tap
from companion.core import JsonObject, Move, Unexplained, Zone
from companion.core.zones import DISCARD, HAND_PAD
from .actions import Plan, plan_act
from .cards import POSITIONS, SLOT_OF, SLOTS, SUIT_OF
from .engine import TheMountain
from .moves import Act, ActCard, Discard, Draw, EndTurn, Skip, TakeBack
from .state import MountainState, Phase
from .steps import slot_of
from .table import DISCARD_ZONE, PYRAMID_SLOT, TURN_BUTTON, read_discard, read_hand_pad

logger = logging.getLogger(__name__)

TURN_ZONE = "turn"
CARD_W_MM, CARD_H_MM = 63.0, 88.0
PITCH_X_MM, PITCH_Y_MM = 70.0, 34.0
"""The pyramid as it is laid: cards side by side 70 mm apart, each row 34 mm south of the one it
covers, so a card shows its top strip and index above the cards on it (the reference table of
vision/render/tables.py's ``mountain_table``, which the vision tests read)."""
SPADES_WHY = "a Spades choice the cards removed do not tell (another rank or suit would end the act sooner), said aloud"

Tapped = tuple[str, str]
"""(zone, card): a card tapped on a reader."""


class MountainPlan(PlanDefaults):
    """The Mountain's sensor plan (module docstring)."""

    floor = 0.88
    """The acceptance games alone reach 88.9% (with the 20 generated ones, 95.7%), with the camera
    as without it (the readers name every card; the camera confirms the removals): the end-to-end
    test plays the acceptance games by default, so the floor is the lower figure, rounded down."""

    def __init__(self, game: TheMountain, camera: bool = False) -> None:
        self.game = game
        self.camera = camera
        """Lay the pyramid under the camera (on in ``SPEC``). It was off while the vision pipeline
        read an exposed A♠ as an empty slot (seed 18's 6-4: its big pip's outline showed as much mat
        in the middle band as a gap); vision/detectors/cards.py now asks for the gap's strip of mat
        from the band's top to its bottom. docs/sensors.md has the figures with and without it."""

    def _entry(self, move: Move, why: str) -> Enter:
        data: JsonObject = {k: v for k, v in self.game.codec.to_json(move).items() if k != "t"}
        return Enter(data, why)

    # -- the table ----------------------------------------------------------------------------

    def layout(self, players: Sequence[str]) -> tuple[Zone, ...]:
        player = players[0]
        # Row 1 first: the camera draws the later rows over it, as they lie.
        pyramid = tuple(Zone(pos, PYRAMID_SLOT, polygon=card_outline(pos)) for pos in POSITIONS) if self.camera else ()
        return pyramid + (
            Zone(f"hand-{player}", HAND_PAD, player=player, reader="array:0"),
            Zone(DISCARD_ZONE, DISCARD, reader="array:1"),
            Zone(TURN_ZONE, TURN_BUTTON, reader="button:0"),
        )

    def setup(self, state: MountainState) -> Sequence[Action]:
        """The pyramid, face up, under the camera."""
        if not self.camera:
            return ()
        return tuple(Put(POSITIONS[s], card) for s in range(SLOTS) if (card := state.mountain[s]) is not None)

    # -- what the readers make of a move --------------------------------------------------------

    def _taps(self, state: MountainState, move: Move) -> list[Tapped] | str:
        """The cards the move taps, in order, or why no tap makes it."""
        hand = f"hand-{state.player}"
        if isinstance(move, Draw):
            return [(hand, move.card)]
        if isinstance(move, Discard):
            return [(DISCARD_ZONE, card) for card in move.cards]
        if isinstance(move, Skip):
            card = state.mountain[SLOT_OF[move.target]]
            return [(DISCARD_ZONE, card)] if card is not None else "a skip of an empty place: no card to tap"
        if isinstance(move, Act):
            return self._act_taps(state, move)
        if isinstance(move, EndTurn):
            # The turn button when no health card goes (no damage); a refused one is the button too.
            damage = len(state.geo.attackers(state.mountain))
            paid = min(damage, len(state.health))
            if paid == 0:
                return []  # the turn button
            cards = state.health[:paid] if state.options.damage_from == "top" else tuple(reversed(state.health[len(state.health) - paid :]))
            return [(DISCARD_ZONE, card) for card in cards]
        return "a move no reader makes"

    def _act_taps(self, state: MountainState, move: Act) -> list[Tapped] | str:
        if move.from_hand:
            return "Hearts that heal from the hand: which action cards go under the health pile, where no reader lies"
        suit = SUIT_OF[move.cards[0]] if move.cards else None
        targets = move.targets
        if suit == "S" and not targets:
            plan = plan_act(state, move, suit)
            if isinstance(plan, Plan):
                targets = tuple(POSITIONS[s] for s in plan.slots)
        removed = [state.mountain[SLOT_OF[pos]] for pos in targets]
        if any(card is None for card in removed):
            return "an act naming an empty place: no card to tap"
        return [(DISCARD_ZONE, card) for card in move.cards] + [(DISCARD_ZONE, card) for card in removed if card is not None]

    def _spade_orders(self, state: MountainState, taps: list[Tapped], sets: int) -> list[list[Tapped]]:
        """A Spades act's taps in the engine's order, then with each other removed card first: the
        cascade may go in any order, and the reader reads the choice from the first card removed (an
        order whose first card would end the act sooner under another choice is read otherwise)."""
        head, removed = taps[:sets], taps[sets:]
        orders = [taps]
        for k in range(1, len(removed)):
            orders.append(head + [removed[k]] + removed[:k] + removed[k + 1 :])
        return orders

    def _read(self, state: MountainState, taps: Sequence[Tapped], t: float) -> list[Move | Unexplained | None]:
        """What the session reads from the taps, each judged and applied as it comes."""
        out: list[Move | Unexplained | None] = []
        for zone, card in taps:
            read = read_hand_pad(state, zone, card, t) if zone != DISCARD_ZONE else read_discard(state, zone, card, t)
            out.append(read)
            if isinstance(read, Move):
                _, state = self.game.play(state, read)
        return out

    def _made(self, state: MountainState, move: Move, after: Any, legal: bool) -> tuple[list[Tapped], tuple[Move, ...]] | str:
        """The taps that make ``move`` and the moves they read as, or why the readers cannot make it.

        Legal: every tap reads a legal move or nothing, and together they leave the table as the
        move does. Refused: its first tap reads a refused move (the player is told at once and keeps
        the card)."""
        taps = self._taps(state, move)
        if isinstance(taps, str):
            return taps
        t = move.t or 0.0
        if isinstance(move, EndTurn) and not legal:
            return [], (move,)  # the turn button, refused before the actions
        if not legal:
            return self._refused(state, move, taps, t)
        if not taps:
            return [], (move,)  # the turn button
        if isinstance(move, Act) and state.phase is Phase.DISCARD and not state.pending:
            return "an act at the start of a turn, from a hand still full: the discard reader takes its first card for a discard"
        orders = self._spade_orders(state, taps, len(move.cards)) if isinstance(move, Act) and SUIT_OF[move.cards[0]] == "S" else [taps]
        why = ""
        for order in orders:
            made = self._read_as(state, order, t, after)
            if not isinstance(made, str):
                return made
            why = why or made
        return SPADES_WHY if len(orders) > 1 or isinstance(move, Act) and SUIT_OF[move.cards[0]] == "S" else why

    def _refused(self, state: MountainState, move: Move, taps: list[Tapped], t: float) -> tuple[list[Tapped], tuple[Move, ...]] | str:
        """A refused move: its cards tapped up to the first one the table refuses (at once). Cards of
        an act before it, each a legal step, are then taken back: the set's first card tapped on the
        hand pad (``take_back``), the mountain cards laid back where they lay."""
        end = state
        reads: list[Move] = []
        for k, (zone, card) in enumerate(taps):
            read = self._read(end, [(zone, card)], t)[0]
            if not isinstance(read, Move):
                return "a refused move whose cards the readers read as no move"
            verdict, after = self.game.play(end, read)
            reads.append(read)
            if not verdict.ok:
                if not end.pending:
                    return taps[: k + 1], tuple(reads)
                back = (f"hand-{state.player}", end.pending[0])
                take_back = self._read(end, [back], t)[0]
                if not isinstance(take_back, TakeBack):
                    return "a refused act whose cards already tapped the hand pad cannot take back"
                return [*taps[: k + 1], back], (*reads, take_back)
            if not isinstance(read, ActCard):
                break
            end = after
        if isinstance(move, Act):
            return "a refused act whose cards the readers read as legal (what is wrong is a choice no reader sees, or whose act it is)"
        return "a refused move whose cards the discard reader takes for the first cards of an act (a discard after drawing)"

    def _read_as(self, state: MountainState, taps: list[Tapped], t: float, after: Any) -> tuple[list[Tapped], tuple[Move, ...]] | str:
        """The taps and the moves they read as, when those leave the table as ``after``; else why not."""
        reads = self._read(state, taps, t)
        moves = tuple(r for r in reads if isinstance(r, Move))
        if any(isinstance(r, Unexplained) for r in reads) or not moves:
            return "cards the readers read as no move here"
        end = state
        for read_move in moves:
            verdict, end = self.game.play(end, read_move)
            if not verdict.ok:
                return "cards the readers read as another move, refused"
        if end != after:
            return "cards the readers read as another move"
        return taps, moves

    # -- the plan's members ---------------------------------------------------------------------

    def table_moves(self, state: MountainState, move: Move) -> Sequence[Move]:
        _, after = self.game.play(state, move)
        made = self._made(state, move, after, self.game.judge(state, move).ok)
        return (move,) if isinstance(made, str) else made[1]

    def actions(self, state: MountainState, move: Move, after: Any, legal: bool) -> Sequence[Action]:
        made = self._made(state, move, after, legal)
        if isinstance(made, str):
            # Entered; the cards it removes still leave the mountain, and the camera sees them go.
            gone = [Take(POSITIONS[s], str(state.mountain[s])) for s in self._emptied(state, after)] if self.camera and legal else []
            return (self._entry(move, made), *gone)
        taps, _ = made
        if not taps:
            return (Press(TURN_ZONE),)
        out: list[Action] = []
        taken: list[Put] = []
        for zone, card in taps:
            slot = slot_of(state, card) if self.camera else None
            if slot is not None and all(put.card != card for put in taken):
                out.append(Take(POSITIONS[slot], card))  # off the mountain, then tapped on its way out
                taken.append(Put(POSITIONS[slot], card))
            out.append(Tap(zone, card))
        # A refused move leaves the mountain as it was: the cards taken off it go back.
        return (*out, *(() if legal else taken))

    def _emptied(self, state: MountainState, after: MountainState) -> list[int]:
        """The slots a move empties, in the order a hand takes them (the top row first)."""
        gone = [s for s in range(SLOTS) if state.mountain[s] is not None and after.mountain[s] is None]
        return sorted(gone, reverse=True)


def card_outline(pos: str) -> tuple[tuple[float, float], ...]:
    """The card at ``pos`` ("r-i"), table mm from marker 0: corners top-left, top-right,
    bottom-right, bottom-left (its top to the north, the peak the northmost)."""
    row, i = (int(n) for n in pos.split("-"))
    cx = 320.0 + (i - (row + 1) / 2) * PITCH_X_MM
    cy = 286.0 - PITCH_Y_MM * (row - 1)
    w, h = CARD_W_MM / 2, CARD_H_MM / 2
    return ((cx - w, cy + h), (cx + w, cy + h), (cx + w, cy - h), (cx - w, cy - h))
