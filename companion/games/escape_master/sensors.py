"""Escape Master at a table with readers (issue 21): the reference table, and what each move is there.

The table (``layout``): a pile reader under every place a pile can open (one per start card and
Wisdom in the deck: no more piles can be open at once), and at each seat a hand pad, an action pile
and a history pile, side by side, with a call button and an Escape Master! button on the pad. Piles
and the action and history piles are readers where cards stack up; the hand pad is one a card is
tapped on as it goes into the hand. The piles are one array (``array:N``); the seats fill arrays of three (``array:seats-K:N``,
9 readers, and the six buttons on pins the unfitted channels leave free), so an 8-player table
has every reader it needs on four arrays.

What each move is at the table (``actions``; docs/sensors.md has the table of it):

- dealt, drawn and passed cards are tapped on the receiving player's hand pad; a ``deal`` is every
  card tapped in turn round the table (its rows are one ``dealt`` each: ``table_moves``);
- a play is its card put on its pile (a refused one taken back, as the verdict says); a pile a Dead
  End closes leaves the table; a combination is its two cards put down one after the other;
- a trap goes on the target's action pile; an Escape on the action pile of the trap it resolves,
  and both then go to their history piles (with the card a discard Escape discards); a special card
  discarded at will goes on the history pile;
- Start! and Draw! are the call button, Escape Master! its own button; the end of a round is the piles gathered up;
- what no sensor sees is entered: the Lumberjack's fault, Beast Mode, Story cards and new leaders
  (a player's choice, said aloud), Story card 3's swap with the draw pile (no reader under the draw
  pile), a leader's last-card discard, a count with hands, and any move a button cannot say.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from companion.contract.sensors import Action, Enter, PlanDefaults, Press, Put, Take, Tap
from companion.core import JsonObject, Move, Zone
from companion.core.zones import HAND_PAD, PILE
from . import piles as P
from .cards import Kind, parse_card
from .data import load_deck
from .moves import (
    Beast,
    CallDraw,
    Deal,
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
from .engine import EscapeMaster
from .options import EscapeMasterOptions
from .state import Phase, State
from .table import ACTION_PAD, CALL_BUTTON, HISTORY_PAD, OUT_BUTTON, pile_zone, read_pile, short_of_deal

logger = logging.getLogger(__name__)

SEATS_PER_ARRAY = 3
"""Players whose pads one array carries: 3 readers each (9 channels) and two buttons each (the call
button and Escape Master!), on 6 of the 9 pins the unfitted channels and GP0/GP1 leave free
(firmware/main.py's BUTTON_PINS)."""
WHY = {
    GiveFault: "the Lumberjack's choice of whom to give a fault, said aloud",
    Beast: "unlocking Beast Mode, a player's choice said aloud",
    Story: "the Story card drawn and the players it names, read out",
    Leader: "a new Escape Leader card drawn at random, read out",
    SwapDraw: "Story card 3's swap with the draw pile, under which no reader lies",
    Defuse: "the ninja pose, a gesture no sensor sees",
}


def pile_places(deck_file: str = EscapeMasterOptions().deck_file) -> int:
    """How many piles can be open at once: one per start card and Wisdom in the deck (EM-NEW-PILE)."""
    return sum(1 for name in load_deck(deck_file).cards if parse_card(name).kind in (Kind.START, Kind.WISDOM))


class EscapeMasterPlan(PlanDefaults):
    """Escape Master's sensor plan (module docstring)."""

    floor = 0.95
    stacks = frozenset({PILE.name, ACTION_PAD.name, HISTORY_PAD.name})

    def __init__(self, game: EscapeMaster) -> None:
        self.game = game
        self.piles = pile_places()

    def _entry(self, move: Move, why: str) -> Enter:
        data: JsonObject = {k: v for k, v in self.game.codec.to_json(move).items() if k != "t"}
        return Enter(data, why)

    # -- the table ----------------------------------------------------------------------------

    def layout(self, players: Sequence[str]) -> tuple[Zone, ...]:
        zones = [Zone(pile_zone(n), PILE, index=n, reader=f"array:{n - 1}") for n in range(1, self.piles + 1)]
        for k, player in enumerate(players):
            array, place = f"seats-{k // SEATS_PER_ARRAY + 1}", k % SEATS_PER_ARRAY
            zones += [
                Zone(f"hand-{player}", HAND_PAD, player=player, reader=f"array:{array}:{3 * place}"),
                Zone(f"action-{player}", ACTION_PAD, player=player, reader=f"array:{array}:{3 * place + 1}"),
                Zone(f"history-{player}", HISTORY_PAD, player=player, reader=f"array:{array}:{3 * place + 2}"),
                Zone(f"call-{player}", CALL_BUTTON, player=player, reader=f"button:{array}:{2 * place}"),
                Zone(f"out-{player}", OUT_BUTTON, player=player, reader=f"button:{array}:{2 * place + 1}"),
            ]
        return tuple(zones)

    # -- what the table's rows are --------------------------------------------------------------

    def gap_from(self, state: State, move: Move) -> float | None:
        """A card put on a pile where the same hand's single card lay last (a single play, a half, or
        a combination's first card): put down within ``combo_window_s`` of it, the two read as one
        combination (table.py), so the table keeps the game's own gap from that card."""
        if not isinstance(move, (Play, Half)) or not isinstance(move.pile, int):
            return None
        first = move.card if isinstance(move, Half) else move.played[0]
        k = state.rnd.open_pile(move.pile)
        holder = state.rnd.holder(first)
        last = state.rnd.piles[k].last if k is not None else None
        if last is None or holder is None or last.by != holder or len(last.cards) != 1:
            return None
        return last.t

    def table_moves(self, state: State, move: Move) -> Sequence[Move]:
        if isinstance(move, Deal) and self._dealt_by_taps(state, move):
            return tuple(Dealt(card=card, by=player) for player, card in self._deal_order(state, move))
        if isinstance(move, Play) and move.cards is not None and self._combo_by_readers(state, move):
            first, second = move.cards
            number = self._pile_number(state, move)
            assert number is not None
            lead: Move = Play(card=first, pile=number, by=move.by) if self._fits_alone(state, first, number) else Half(card=first, pile=number, by=move.by)
            return (lead, Play(cards=move.cards, pile=number, by=move.by))
        if isinstance(move, Escape) and move.discard is not None and self._escape_by_readers(state, move):
            return (Escape(card=move.card, trap=move.trap, by=move.by), Discard(card=move.discard, by=move.by))
        if isinstance(move, DiscardSpecial) and len(move.cards) > 1:
            return tuple(DiscardSpecial(cards=(card,), by=move.by) for card in move.cards)
        if isinstance(move, PassCard) and len(move.cards) > 1 and state.phase in (Phase.DEALING, Phase.WAITING):
            return tuple(PassCard(cards=(card,), to=move.to, by=move.by) for card in move.cards)
        return (move,)

    # -- what the table does ------------------------------------------------------------------

    def actions(self, state: State, move: Move, after: Any, legal: bool) -> Sequence[Action]:
        if isinstance(move, Deal):
            if not self._dealt_by_taps(state, move):
                return (self._entry(move, "a deal whose hands a table cannot tap in (it is refused)"),)
            return tuple(Tap(f"hand-{player}", card) for player, card in self._deal_order(state, move))
        if isinstance(move, (Dealt, Draw)) and move.by is not None and move.by in state.table.seat:
            if self._pad_reads(state, move.by) is not type(move):
                return (self._entry(move, "a card the hand pad reads as dealt while the hand is short of its deal, as drawn once it is full"),)
            return (Tap(f"hand-{move.by}", move.card),)
        if isinstance(move, PassCard) and state.phase in (Phase.DEALING, Phase.WAITING) and move.to in state.table.seat:
            return tuple(Tap(f"hand-{move.to}", card) for card in move.cards)
        if isinstance(move, (Play, Half)):
            return self._play(state, move, after, legal)
        if isinstance(move, Withdraw):
            return self._withdraw(state, move)
        if isinstance(move, Trap) and move.target in state.table.seat:
            zone = f"action-{move.target}"
            return (Put(zone, move.card),) if legal else (Put(zone, move.card), Take(zone, move.card))
        if isinstance(move, Escape):
            return self._escape(state, move, after, legal)
        if isinstance(move, (DiscardSpecial, Discard)) and move.by in state.table.seat:
            cards = move.cards if isinstance(move, DiscardSpecial) else (move.card,)
            zone = f"history-{move.by}"
            puts = tuple(Put(zone, card, face_up=False) for card in cards)
            return puts if legal else puts + tuple(Take(zone, card) for card in cards)
        if isinstance(move, (Start, Out, CallDraw)):
            return self._call(state, move, after, legal)
        if isinstance(move, EndRound):
            return self._end_round(state, move, legal)
        if isinstance(move, Defuse) and legal and move.by is not None:
            return (self._entry(move, WHY[Defuse]), Take(f"action-{move.by}", move.trap))  # the trap set aside
        return (self._entry(move, WHY.get(type(move), "a move no reader or button makes")),)

    # -- deals ----------------------------------------------------------------------------------

    def _dealt_by_taps(self, state: State, move: Deal) -> bool:
        """A legal deal at round end: each card can be tapped in as it is dealt."""
        return state.phase is Phase.ROUND_OVER and self.game.judge(state, move).ok and all(p in state.table.seat for p in move.hands)

    def _deal_order(self, state: State, move: Deal) -> list[tuple[str, str]]:
        """The cards as the dealer deals them: one to each player in turn, from the dealer's left."""
        n = len(state.table.players)
        seats = [(state.dealer + k) % n for k in range(1, n + 1)]
        hands = {p: list(cards) for p, cards in move.hands.items()}
        out: list[tuple[str, str]] = []
        while any(hands.values()):
            for seat in seats:
                name = state.name(seat)
                if hands.get(name):
                    out.append((name, hands[name].pop(0)))
        return out

    def _pad_reads(self, state: State, player: str) -> type[Dealt] | type[Draw]:
        """What a card tapped on ``player``'s hand pad is read as (table.py's ``_hand``): dealt between
        rounds and before Start! while the hand is short of its deal, drawn otherwise."""
        if state.phase is Phase.ROUND_OVER:
            return Dealt
        if state.phase in (Phase.DEALING, Phase.WAITING) and short_of_deal(state, state.table.seat[player]):
            return Dealt
        return Draw

    # -- the piles ------------------------------------------------------------------------------

    def _pile_number(self, state: State, move: Play | Half, refused: bool = False) -> int | None:
        """The reader a play lands on: its pile, or for a new pile the place it opens at (the engine's
        first free place). A card refused a new pile is put where no pile lay this round, if there is
        such a place: where a Dead End closed one, the rules read it as a card on that closed pile."""
        if isinstance(move.pile, int):
            return move.pile
        rnd = state.rnd
        if refused:
            unused = next((n for n in range(1, self.piles + 1) if rnd.latest_pile(n) is None), None)
            if unused is not None:
                return unused
        taken = {p.number for p in rnd.piles if p.open}
        number = 1
        while number in taken:
            number += 1
        return number

    def _fits_alone(self, state: State, card: str, number: int) -> bool:
        k = state.rnd.open_pile(number)
        holder = state.rnd.holder(card)
        if k is None or holder is None:
            return False
        way = P.direction(state, holder) if state.rnd.lock[holder] is not None else None
        return P.single_fits(state.table.cards[card], state.rnd.piles[k].top, way, state.table.options)

    def _combo_by_readers(self, state: State, move: Play) -> bool:
        """A legal combination onto an open pile with a reader, put down card by card, whose first
        card the reader reads as a card of its own (not paired with the hand's last single card)."""
        number = self._pile_number(state, move)
        if number is None or number > self.piles or state.rnd.open_pile(number) is None or not self.game.judge(state, move).ok:
            return False
        assert move.cards is not None
        read = read_pile(state, move.cards[0], number, move.t or 0.0)
        return isinstance(read, Half) and read.card == move.cards[0] or isinstance(read, Play) and read.card == move.cards[0]

    def _play(self, state: State, move: Play | Half, after: State, legal: bool) -> Sequence[Action]:
        number = self._pile_number(state, move, refused=not legal)
        cards = move.played if isinstance(move, Play) else (move.card,)
        if number is None or number > self.piles:
            return (self._entry(move, "a pile with no reader under it"),)
        zone = pile_zone(number)
        if isinstance(move, Play) and move.cards is not None and not self._combo_by_readers(state, move):
            if not legal:
                return (self._entry(move, "a combination refused: its two cards read one by one are other moves"),)
            # Entered; its cards then lie on the pile, read there as already in place.
            why = "a combination whose first card the reader pairs with the same hand's single card put down moments before"
            return (self._entry(move, why), *(Put(zone, card) for card in move.cards))
        misread = self._read_otherwise(state, move, number)
        if misread is not None:
            # Entered; a card that stays then lies on its pile, read there as already in place.
            return (self._entry(move, misread), *((Put(zone, move.card),) if legal and isinstance(move, Play) and move.card else ()))
        puts = [Put(zone, card) for card in cards]
        if not legal:
            return (*puts, *(Take(zone, card) for card in cards))
        closed = after.rnd.latest_pile(number)
        if closed is not None and not closed.open:  # a Dead End closed it: the pile leaves the table
            lying = [*closed.cards] + ([closed.pending.card] if closed.pending is not None else [])
            return (*puts, *(Take(zone, card) for card in lying))
        return tuple(puts)

    def _read_otherwise(self, state: State, move: Play | Half, number: int) -> str | None:
        """Why the pile reader reads a single card put down as another move (table.py's
        ``read_pile``), or None when it reads it as ``move``. Two cases no reader can tell apart:
        two single cards one hand puts down within ``combo_window_s`` that make a combination, and
        a number card that does not fit, put down and taken back, which is the first half of a
        combination taken back."""
        if not isinstance(move, Play) or move.card is None:
            return None
        read = read_pile(state, move.card, number if state.rnd.open_pile(number) is not None else None, move.t or 0.0)
        if read is None or isinstance(read, Play) and read.card == move.card:
            return None
        if isinstance(read, Half):
            return "a card that does not fit, put down and taken back: the reader sees the first half of a combination taken back"
        return "two single cards one hand puts down moments apart: the reader sees one combination"

    def _withdraw(self, state: State, move: Withdraw) -> Sequence[Action]:
        for pile in state.rnd.piles:
            if pile.pending is not None and pile.pending.card == move.card and pile.number <= self.piles and state.phase is Phase.PLAYING:
                return (Take(pile_zone(pile.number), move.card),)
        return (self._entry(move, "a card taken back that lies on no pile reader"),)

    # -- traps and escapes ----------------------------------------------------------------------

    def _escape_target(self, state: State, move: Escape) -> tuple[int | None, str | None]:
        """(owner, trap) the Escape resolves, as the engine sees it (a named trap, or the escaper's own)."""
        rnd = state.rnd
        who = rnd.holder(move.card)
        if who is None:
            return None, None
        if move.trap is not None:
            for seat in range(len(state.table.players)):
                active = [rnd.lock[seat], rnd.draw_trap[seat] if rnd.owes(seat) else None]
                if move.trap in active:
                    return seat, move.trap
            return None, None
        return who, rnd.lock[who] or (rnd.draw_trap[who] if rnd.owes(who) else None)

    def _read_trap(self, state: State, seat: int) -> str | None:
        """The trap the action pad reads an Escape as resolving (table.py's ``_action``)."""
        rnd = state.rnd
        return rnd.lock[seat] or (rnd.draw_trap[seat] if rnd.owes(seat) else None)

    def _escape_by_readers(self, state: State, move: Escape) -> bool:
        """A legal Escape the action pad reads as this one: the trap it resolves is the one the pad
        names, and a discard it makes is no special card (that one would read as discarded at will)."""
        owner, trap = self._escape_target(state, move)
        if owner is None or not self.game.judge(state, move).ok or self._read_trap(state, owner) != trap:
            return False
        return move.discard is None or not state.table.cards[move.discard].special

    def _escape(self, state: State, move: Escape, after: State, legal: bool) -> Sequence[Action]:
        who = state.rnd.holder(move.card)
        owner, trap = self._escape_target(state, move)
        if who is None or owner is None:
            return (self._entry(move, "an Escape from no hand, or on no trap of its player's"),)
        pad = f"action-{state.name(owner)}"
        if not legal:
            if move.discard is not None or move.trap is not None:
                return (self._entry(move, "an Escape refused that names its trap or discard"),)
            return (Put(pad, move.card), Take(pad, move.card))
        escaper, trapped = state.name(who), state.name(owner)
        to_history: list[Action] = [Put(f"history-{escaper}", move.card, face_up=False)]
        if trap is not None:
            to_history.append(Put(f"history-{trapped}", trap, face_up=False))
        if move.discard is not None:
            to_history.append(Put(f"history-{escaper}", move.discard, face_up=False))
        off_pad: list[Action] = [Take(pad, trap)] if trap is not None else []
        if self._escape_by_readers(state, move):
            return (Put(pad, move.card), Take(pad, move.card), *off_pad, *to_history)
        # Entered; its cards still go where the rules put them, read there as already in place.
        why = "an Escape the action pad would read otherwise (on a second trap, or discarding a special card)"
        return (self._entry(move, why), *off_pad, *to_history)

    # -- calls and the end of a round -----------------------------------------------------------

    def _call(self, state: State, move: Start | Out | CallDraw, after: State, legal: bool) -> Sequence[Action]:
        by = move.by if move.by is not None else (state.name(state.dealer) if isinstance(move, Start) else None)
        if by is None or by not in state.table.seat:
            return (self._entry(move, "a call by no player at the table"),)
        seat = state.table.seat[by]
        empty = not state.rnd.hands[seat]
        button = f"call-{by}"
        if isinstance(move, Start) and state.phase in (Phase.DEALING, Phase.WAITING):
            return (Press(button),)
        if isinstance(move, Out) and move.discard is None:
            return (Press(f"out-{by}"),)  # Escape Master!, called rightly or not: the verdict judges it
        if isinstance(move, CallDraw) and state.phase is Phase.PLAYING and not empty:
            return (Press(button),)
        if isinstance(move, Out) and move.discard is not None and legal:
            steps: list[Action] = [self._entry(move, "the leader's last cards discarded to get out, said aloud")]
            return (*steps, *(Put(f"history-{by}", card, face_up=False) for card in move.discard))
        return (self._entry(move, "a call the call button does not make now (it calls Start! before the round, Draw! during it)"),)

    def _end_round(self, state: State, move: EndRound, legal: bool) -> Sequence[Action]:
        """The count: the piles, action and history piles gathered up (the first pile card is the end)."""
        lying: list[Action] = []
        for pile in state.rnd.piles:
            if pile.open and pile.number <= self.piles:
                cards = [*pile.cards] + ([pile.pending.card] if pile.pending is not None else [])
                lying += [Take(pile_zone(pile.number), card) for card in cards]
        if move.hands is not None or not legal or not lying:
            why = "a count the table takes by hand" if move.hands is not None else "the end of a round with no pile to gather"
            return (self._entry(move, why if legal else "an end of the round refused"),)
        for seat, name in enumerate(state.table.players):
            lying += [Take(f"action-{name}", card) for card in state.rnd.actions[seat]]
            lying += [Take(f"history-{name}", card) for card in state.rnd.histories[seat]]
        return tuple(lying)
