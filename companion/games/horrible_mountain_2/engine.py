"""Escape From Horrible Mountain 2 as a :class:`Game`: the declaration the session drives."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from companion.core import JsonObject, Move, Outcome, Prompt, Unexplained, Verdict
from companion.core.seen import Seen
from companion.core.picks import Choice, Pick
from companion.core.setup_form import SetupForm
from companion.contract.dispatch import MoveTable
from companion.contract.game import Game, Points
from companion.contract.sensors import Pending
from . import checks, entry, picks, scoring, table, transitions, under_way, views
from .moves import (
    MOVE_TYPES,
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
from .options import Options
from .rules import RULES, TURN as RULE_TURN
from .setup import build_state
from .state import ADVENTURER, EVIL, Phase, State
from .cards import DECK as _DECK
from .cards import sort_cards

MOVES: MoveTable[State] = MoveTable("Escape From Horrible Mountain 2", {
    Dealt: (checks.check_dealt, transitions.dealt),
    Place: (checks.check_place, transitions.place),
    Draw: (checks.check_draw, transitions.draw),
    Swap: (checks.check_swap, transitions.swap),
    TakeTable: (checks.check_take_table, transitions.take_table),
    TakeDiscard: (checks.check_take_discard, transitions.take_discard),
    SwapCubes: (checks.check_swap_cubes, transitions.swap_cubes),
    ClaimCube: (checks.check_claim_cube, transitions.claim_cube),
    Discard: (checks.check_discard, transitions.discard),
    Examine: (checks.check_examine, transitions.examine),
    SearchDiscard: (checks.check_search, transitions.search_discard),
    Half: (under_way.check_half, transitions.half),
    Withdraw: (under_way.check_withdraw, transitions.withdraw),
    Lift: (under_way.check_lift, transitions.lift),
})


class HorribleMountain2(Game[State]):
    id = "horrible-mountain-2"
    title = "Escape From Horrible Mountain 2"
    min_players = 2
    max_players = 2
    move_types = MOVE_TYPES
    options_type = Options
    rules = RULES
    zone_kinds = table.ZONE_KINDS
    pick_kinds = picks.PICKS
    move_table = MOVES
    player_rule = RULE_TURN

    def deck(self) -> tuple[str, ...]:
        """Every card of the deck, for enrolment."""
        return _DECK

    def setup(self, players: tuple[str, ...], options: Any, setup: Mapping[str, Any]) -> State:
        return build_state(players, options, setup)

    def check(self, state: State, move: Move) -> Verdict:
        return checks.check(state, move, MOVES.checker(move))

    def apply(self, state: State, move: Move) -> State:
        return transitions.settled(MOVES.apply(state, move))

    def judge_seen(self, state: State, move: Move, viewer: str | None) -> Verdict:
        """After a secret search the Evil Master's page judges a take from the Discard Pile by the
        pile he knows: the searched card is judged as any card still in it would be."""
        seat = state.seat(viewer)
        if seat == EVIL and isinstance(move, TakeDiscard) and move.card is not None and move.card == state.searched:
            stand_in = next(iter(sort_cards(state.discard_unordered)), None)
            if stand_in is not None:
                return self.judge(state, move.replace(card=stand_in))
        return self.judge(state, move)

    def outcome(self, state: State) -> Outcome | None:
        return scoring.outcome(state)

    def scoreboard(self, state: State) -> JsonObject:
        return views.scoreboard(state)

    def points(self, state: State) -> Points:
        """Each side's points: the poker hand and the ranks under its Control Cubes (HM2-SCORE-HAND, HM2-SCORE-CUBES)."""
        return Points({state.names[seat]: scoring.score(state, seat).total for seat in (EVIL, ADVENTURER)})

    def view(self, state: State, player: str | None) -> JsonObject:
        if player is None:
            return views.referee_view(state)
        return views.player_view(state, player)

    def candidates(self, state: State, by: str | None) -> Iterable[Move]:
        return entry.candidates(state, by)

    def choices(self, state: State, viewer: str | None, by: str | None, pick: Pick, every: bool) -> Sequence[Choice] | None:
        return entry.choices(state, viewer, by, pick, every)

    def setup_form(self) -> SetupForm:
        return entry.SETUP_FORM

    def prompts(self, state: State) -> tuple[Prompt, ...]:
        if state.phase is Phase.DEAL:
            return tuple(
                Prompt(name, "dealt", f"{name}: tap the three cards dealt to you ({len(state.hands[seat])} of 3)")
                for seat, name in ((ADVENTURER, state.names[ADVENTURER]), (EVIL, state.names[EVIL]))
                if len(state.hands[seat]) < 3
            )
        if state.phase is Phase.PLACE:
            who = state.current
            role = "unwitting adventurer" if state.turn == ADVENTURER else "Evil Master"
            pairs = "the 2 and 6 (slots 1 and 5) or the 3 and 5 (slots 2 and 4)"
            if state.turn != ADVENTURER:
                pairs = "the two Table Cards still without cubes"
            return (Prompt(who, "place", f"{who} ({role}): put one cube of each of your colours on {pairs}"),)
        if state.phase is Phase.PLAY and state.lifted is not None:
            who, card = state.current, state.lifted
            return (Prompt(who, "take_discard", f"{who}: put the Control Cube you pay for {card} in the Cube Pile, or {card} back on the Discard Pile"),)
        if state.phase is Phase.PLAY and state.laid:
            who, laid = state.current, " and ".join(state.laid)
            return (Prompt(who, "swap_cubes", f"{who}: finish Swap Cubes or Claim a Cube begun with {laid}, or take {laid} back"),)
        if state.phase is Phase.PLAY and state.must_discard:
            who = state.current
            return (Prompt(who, "discard", f"{who}: you hold six cards; discard one onto the Discard Pile now"),)
        return ()

    def pending(self, state: State) -> tuple[Pending, ...]:
        return table.pending(state)

    def interpret_table(self, state: State, seen: Seen) -> Move | Unexplained | None:
        return table.interpret(state, seen)
