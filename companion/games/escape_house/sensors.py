"""Escape House at a table with readers (issue 21): the reference table, and what each move is there.

The table (``layout``): one array, with the tap pad (channel 0) and the discard pad (channel 1) in
the center room, and a hand pad at each seat (channels 2 to 9: eight players at most). Every reader
is a pad a card is tapped on on its way somewhere else: the discard pile itself, which grows past
what any reader reads through, lies beside its pad. Beside the tap pad, the reveal button (``button:0``)
says the action phase is over where no card's tap can. The house has no camera zone: the tokens and
the room decks are seen by nobody.

What each move is at the table (``actions``; docs/sensors.md has the table of it), each the way
table.py reads it:

- a live table's dealt cards, drawn cards and traded cards are tapped on the receiving player's hand
  pad;
- a live table's next main puzzle, a penalty card drawn and a played card turned up are tapped on
  the tap pad; the resolve is every played card still face down turned up and tapped, the last one
  being the resolve (with ``must_play`` on, so nobody plays after it). A game that turns up that
  last card as a ``reveal`` of its own and then resolves made both at the one tap: its row is the
  resolve (EH-REVEAL: "When everyone has played a card, reveal them"; nothing else is legal between),
  and the ``resolve`` after it is made already (``made_already``). Where no card is left to turn up
  (nobody could play, or every card is turned up already) or ``must_play`` is off (a player may still
  play, so no card is the last), the reveal button is the resolve;
- the end of the round is the round's played cards (and a sacrificed player's hand) tapped on the
  discard pad on their way to the pile; a card an effect makes a player discard goes the same way;
- what no reader sees is entered: moving a token, a follow, a play (a card face down with a token
  under it), a stash into a room deck, a draw from the discard pile (the cards looked at), the end of
  explore, a clear, and any move the readers would read as another (a refused move whose card the
  pad reads otherwise).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from companion.contract.sensors import Action, Enter, PlanDefaults, Press, Tap
from companion.core import JsonObject, Move, Unexplained, Zone
from companion.core.seen import PressSeen
from companion.core.zones import DISCARD, HAND_PAD, ZoneRef
from .engine import EscapeHouse
from .moves import Clear, Dealt, Discard, Draw, DrawDiscard, EndExplore, EndRound, Flip, Follow, MoveTo, Penalty, Play, Resolve, Reveal, Stash, Trade
from .state import Phase, PlayedCard, State
from .table import REVEAL_BUTTON, TAP_PAD, press, read_discard, read_hand, read_tap, resolves

logger = logging.getLogger(__name__)

TAP_ZONE = "tap"
DISCARD_ZONE = "discard"
REVEAL_ZONE = "reveal"
WHY: dict[type[Move], str] = {
    MoveTo: "a token moved to a room: no reader lies under the tokens",
    Follow: "a follow, declared aloud",
    Play: "a card played face down with a character token under it: a secret choice no reader sees",
    Stash: "a card put back into a room deck at a depth of the player's choosing: no reader lies under the decks",
    DrawDiscard: "three cards looked at in the discard pile and one kept: no reader sees which were looked at",
    EndExplore: "the end of the explore phase, agreed aloud: no card moves",
}


def hand_zone(player: str) -> str:
    return f"hand-{player}"


class EscapeHousePlan(PlanDefaults):
    """Escape House's sensor plan (module docstring)."""

    floor = 0.37
    """Measured 37.2% (the acceptance games and 20 generated ones; the acceptance games alone 44.2%,
    docs/sensors.md): a quarter of the moves are plays, secret by the rules, and the tokens and the
    end of explore have no reader."""
    always_read = frozenset({"dealt", "flip", "penalty", "reveal"})
    """Issue 21: every flip, penalty, reveal and dealt card comes from the pads."""

    def __init__(self, game: EscapeHouse) -> None:
        self.game = game

    def _entry(self, move: Move, why: str) -> Enter:
        data: JsonObject = {k: v for k, v in self.game.codec.to_json(move).items() if k != "t"}
        return Enter(data, why)

    # -- the table ----------------------------------------------------------------------------

    def layout(self, players: Sequence[str]) -> tuple[Zone, ...]:
        zones = [Zone(TAP_ZONE, TAP_PAD, reader="array:0"), Zone(DISCARD_ZONE, DISCARD, reader="array:1")]
        zones += [Zone(hand_zone(player), HAND_PAD, player=player, reader=f"array:{k + 2}") for k, player in enumerate(players)]
        zones.append(Zone(REVEAL_ZONE, REVEAL_BUTTON, reader="button:0"))  # on a pin the unfitted channels leave free
        return tuple(zones)

    # -- what the table's rows are --------------------------------------------------------------

    def table_moves(self, state: State, move: Move) -> Sequence[Move]:
        """A resolve made by turning up the cards still face down: a reveal for each but the last.
        The reveal of the last card once everyone has played: the resolve it is at the table."""
        if isinstance(move, Resolve) and self._resolve_by_taps(state, move):
            hidden = [p for p in state.played if not p.revealed]
            return (*(Reveal(by=p.by, card=p.card) for p in hidden[:-1]), move)
        if isinstance(move, Reveal) and self._reveal_resolves(state, move):
            return (Resolve(t=move.t),)
        return (move,)

    def made_already(self, state: State, move: Move, legal: bool) -> bool:
        """A legal resolve that finds the action phase over: the tap of the last card (the game's
        reveal of it) was the resolve."""
        return legal and isinstance(move, Resolve) and state.phase is not Phase.ACTION

    # -- what the table does ------------------------------------------------------------------

    def actions(self, state: State, move: Move, after: State, legal: bool) -> Sequence[Action]:
        if isinstance(move, (Dealt, Draw, Trade)):
            player = move.to if isinstance(move, Trade) else move.by
            if player is not None and player in state.players:
                if self._reads(state, read_hand(state, hand_zone(player), player, move.card, move.t), move):
                    return (Tap(hand_zone(player), move.card),)
            return (self._entry(move, self._why_hand(state, move)),)
        if isinstance(move, Reveal) and self._reveal_resolves(state, move):
            return (Tap(TAP_ZONE, move.card),)
        if isinstance(move, (Flip, Penalty, Reveal, Clear)):
            card = move.puzzle if isinstance(move, Clear) else move.card
            if self._reads(state, read_tap(state, TAP_ZONE, card, move.t), move):
                return (Tap(TAP_ZONE, card),)
            return (self._entry(move, self._why_tap(state, move)),)
        if isinstance(move, Resolve):
            if self._resolve_by_taps(state, move):
                return tuple(Tap(TAP_ZONE, p.card) for p in state.played if not p.revealed)
            if self._reads(state, press(state, PressSeen(ZoneRef(REVEAL_ZONE, REVEAL_BUTTON.name), move.t or 0.0)), move):
                return (Press(REVEAL_ZONE),)  # nobody played, or must_play off: the table says the phase is over
            return (self._entry(move, self._why_resolve(state, move)),)
        if isinstance(move, EndRound):
            return self._end_round(state, move)
        if isinstance(move, Discard):
            if self._reads(state, read_discard(state, DISCARD_ZONE, move.card, move.t), move):
                return (Tap(DISCARD_ZONE, move.card),)
            return (self._entry(move, "a discard the discard pad reads as another move"),)
        return (self._entry(move, WHY.get(type(move), "a move no reader makes")),)

    def _reads(self, state: State, read: Move | Unexplained | None, move: Move) -> bool:
        """Does the reader's ``read`` make ``move``: the same kind of move, judged alike, leaving the
        house alike (the runner's own test of a row)."""
        if not isinstance(read, Move) or type(read) is not type(move):
            return False
        v_read, after_read = self.game.play(state, read.replace(t=move.t))
        v_move, after_move = self.game.play(state, move)
        return v_read.ok == v_move.ok and tuple(v_read.rules) == tuple(v_move.rules) and (not v_move.ok or after_read == after_move)

    def _why_hand(self, state: State, move: Dealt | Draw | Trade) -> str:
        if isinstance(move, Dealt):
            return "a card dealt once every hand is in: the hand pad reads it as drawn (refused)"
        if isinstance(move, Trade):
            return "a trade of a card the giver does not hold: the hand pad reads it as another move (refused)"
        return "a draw from another room's deck, or of a card in a hand or the discard pile: the hand pad reads it as another move (refused)"

    def _why_tap(self, state: State, move: Flip | Penalty | Reveal | Clear) -> str:
        if isinstance(move, Clear):
            return "a clear refused (out of its phase, a puzzle the played cards do not clear, or another room's items): the pads read a puzzle set aside only as the clear the played cards make"
        if isinstance(move, Reveal):
            return "a reveal refused (a card not played face down this round, or turned up already): the tap pad reads it as no move or an alert"
        if isinstance(move, Penalty):
            return "a penalty naming a card that is no penalty card: the tap pad reads that card as what it is (refused)"
        return "a flip when no main puzzle is to be turned up: the tap pad reads it as another move (refused)"

    def _why_resolve(self, state: State, move: Resolve) -> str:
        return "a resolve refused out of the action phase: the reveal button there is an alert"

    def _resolve_by_taps(self, state: State, move: Resolve) -> bool:
        """A legal resolve the tap pad makes: the played cards still face down turned up one by one,
        the last of them read as the resolve."""
        hidden = [p.card for p in state.played if not p.revealed]
        if not hidden or not self.game.judge(state, move).ok:
            return False
        last = state.but(played=tuple(p if p.card == hidden[-1] or p.revealed else _revealed(p) for p in state.played))
        return resolves(last, hidden[-1])

    def _reveal_resolves(self, state: State, move: Reveal) -> bool:
        """A legal reveal of the last card face down once everyone has played, which the tap pad
        reads as the resolve: the resolve then leaves the house as the reveal and the resolve after
        it do (a resolve turns every card up)."""
        if not resolves(state, move.card):
            return False
        v_reveal, revealed = self.game.play(state, move)
        if not v_reveal.ok:
            return False
        v_now, now = self.game.play(state, Resolve(t=move.t))
        v_later, later = self.game.play(revealed, Resolve(t=move.t))
        return v_now.ok and v_later.ok and now == later

    def _end_round(self, state: State, move: EndRound) -> Sequence[Action]:
        """The round's cards tapped on the discard pad on their way to the pile: the first one is the
        end of the round (a refused end: that card is kept back, and the rest stay where they are)."""
        gone = set(state.sacrificed_now)
        cards = [p.card for p in state.played] + [c for p in state.players if p in gone for c in state.hands[p]]
        legal = self.game.judge(state, move).ok
        if cards and self._reads(state, read_discard(state, DISCARD_ZONE, cards[0], move.t), move):
            return tuple(Tap(DISCARD_ZONE, card) for card in cards) if legal else (Tap(DISCARD_ZONE, cards[0]),)
        if legal:
            return (self._entry(move, "the end of a round in which nobody played a card: nothing goes to the discard pile"),)
        return (self._entry(move, "an end of the round out of its phase (refused): no card goes to the discard pile"),)


def _revealed(p: PlayedCard) -> PlayedCard:
    return PlayedCard(p.by, p.card, p.target, p.room, True)
