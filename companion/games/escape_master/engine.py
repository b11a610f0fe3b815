"""The Escape Master game: setup, check, apply and outcome, dispatched by verb to the modules that
referee each part of the rules."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from companion.core import JsonObject, Move, Outcome, Prompt, Unexplained, Verdict
from companion.core.seen import PressSeen, Seen
from companion.core.picks import Choice, Pick
from companion.core.setup_form import SetupForm
from companion.contract.dispatch import MoveTable
from companion.contract.game import Game, Points
from .cards import copies_of, spoken
from companion.contract.sensors import Pending
from .data import load_deck
from . import drawing, entry, leaders, picks, plays, rounds, specials, table, views
from . import moves as M
from .options import EscapeMasterOptions
from .rules import RULES, WHO as RULE_WHO
from .setup import build_state
from .state import State

logger = logging.getLogger(__name__)

MOVES: MoveTable[State] = MoveTable("Escape Master", {
    M.Play: (plays.check_play, plays.apply_play),
    M.Half: (plays.check_half, plays.apply_half),
    M.Withdraw: (plays.check_withdraw, plays.apply_withdraw),
    M.Draw: (drawing.check_draw, drawing.apply_draw),
    M.CallDraw: (drawing.check_call_draw, drawing.apply_call_draw),
    M.Trap: (specials.check_trap, specials.apply_trap),
    M.Escape: (specials.check_escape, specials.apply_escape),
    M.DiscardSpecial: (specials.check_discard_special, specials.apply_discard_special),
    M.Discard: (specials.check_discard, specials.apply_discard),
    M.Defuse: (specials.check_defuse, specials.apply_defuse),
    M.Deal: (rounds.check_deal, rounds.apply_deal),
    M.Dealt: (rounds.check_dealt, rounds.apply_dealt),
    M.Start: (rounds.check_start, rounds.apply_start),
    M.Out: (rounds.check_out, rounds.apply_out),
    M.EndRound: (rounds.check_end_round, rounds.apply_end_round),
    M.GiveFault: (leaders.check_give_fault, leaders.apply_give_fault),
    M.Beast: (leaders.check_beast, leaders.apply_beast),
    M.Story: (leaders.check_story, leaders.apply_story),
    M.Leader: (leaders.check_leader, leaders.apply_leader),
    M.SwapDraw: (leaders.check_swap_draw, leaders.apply_swap_draw),
    M.PassCard: (leaders.check_pass_card, leaders.apply_pass_card),
})


class EscapeMaster(Game[State]):
    id = "escape-master"
    title = "Escape Master"
    min_players = 2
    max_players = 8
    move_types = M.MOVE_TYPES

    def deck(self) -> tuple[str, ...]:
        """The default GAME deck's cards (deck.json), for enrolment and the demo's tags."""
        return tuple(sorted(load_deck(self.options_type().deck_file).cards))
    options_type = EscapeMasterOptions
    rules = RULES
    zone_kinds = table.ZONE_KINDS
    pick_kinds = picks.PICKS
    move_table = MOVES
    player_rule = RULE_WHO

    def setup(self, players: tuple[str, ...], options: Any, setup: Mapping[str, Any]) -> State:
        return build_state(players, options, setup)

    def check(self, state: State, move: Move) -> Verdict:
        return MOVES.check(state, move)

    def judge_seen(self, state: State, move: Move, viewer: str | None) -> Verdict:
        if viewer is not None and isinstance(move, M.CallDraw) and self.outcome(state) is None:
            return drawing.check_call_draw_seen(state, move)  # whether anyone can play is in the hands
        return self.judge(state, move)

    def apply(self, state: State, move: Move) -> State:
        return MOVES.apply(state, move)

    def outcome(self, state: State) -> Outcome | None:
        return state.result

    def scoreboard(self, state: State) -> JsonObject:
        return views.scoreboard(state)

    def points(self, state: State) -> Points:
        """Each player's faults (EM-FAULTS): the fewest win."""
        return Points({state.name(i): faults for i, faults in enumerate(state.faults)}, highest_wins=False)

    def view(self, state: State, player: str | None) -> JsonObject:
        return views.view(state, player)

    def prompts(self, state: State) -> tuple[Prompt, ...]:
        return views.prompts(state)

    def candidates(self, state: State, by: str | None) -> Iterable[Move]:
        return entry.candidates(state, by)

    def choices(self, state: State, viewer: str | None, by: str | None, pick: Pick, every: bool) -> Sequence[Choice] | None:
        return entry.choices(state, viewer, by, pick, every)

    def copies(self, state: State, card: str) -> Sequence[str]:
        return copies_of(card, state.table.cards)

    def card_name(self, state: State, card: str) -> str:
        return spoken(card) if copies_of(card, state.table.cards) else card

    def setup_form(self) -> SetupForm:
        return entry.SETUP_FORM

    def interpret_table(self, state: State, seen: Seen) -> Move | Unexplained | None:
        return table.interpret(state, seen)

    def interpret_press(self, state: State, seen: PressSeen) -> Move | Unexplained | None:
        return table.press(state, seen)

    def pending(self, state: State) -> tuple[Pending, ...]:
        return table.pending(state)
