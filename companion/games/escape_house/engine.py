"""The Escape House game: setup, check/apply dispatch, outcome, views and prompts."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

from companion.core import JsonObject, Move, Outcome, Prompt, RuleBook, Unexplained, Verdict, ZoneKind
from companion.core.seen import PressSeen, Seen
from companion.core.picks import Choice, Pick
from companion.core.setup_form import SetupForm
from companion.contract.dispatch import Apply, Check, MoveTable
from companion.contract.game import Game, Narrowed
from . import action, common, effects, entry, explore, live, picks, resolve, table, views
from .cards import alike
from .common import card_name, room_name
from .moves import (
    MOVE_TYPES,
    Clear,
    Dealt,
    Discard,
    Draw,
    DrawDiscard,
    EndExplore,
    EndRound,
    EscapeHouseCodec,
    Flip,
    Follow,
    MoveTo,
    Penalty,
    Play,
    Resolve,
    Reveal,
    Stash,
    Trade,
)
from .options import EscapeHouseOptions
from .rules import RULEBOOK
from .setup import build_state
from .state import HAND_LIMIT, MAIN_ROOM, Phase, State

_HANDLERS: dict[type[Move], tuple[Check[State], Apply[State]]] = {
    Dealt: (live.check_dealt, live.apply_dealt),
    Flip: (live.check_flip, live.apply_flip),
    MoveTo: (explore.check_move, explore.apply_move),
    Draw: (explore.check_draw, explore.apply_draw),
    DrawDiscard: (explore.check_draw_discard, explore.apply_draw_discard),
    Trade: (explore.check_trade, explore.apply_trade),
    Stash: (explore.check_stash, explore.apply_stash),
    EndExplore: (explore.check_end_explore, explore.apply_end_explore),
    Discard: (explore.check_discard, explore.apply_discard),
    Follow: (action.check_follow, action.apply_follow),
    Play: (action.check_play, action.apply_play),
    Reveal: (action.check_reveal, action.apply_reveal),
    Resolve: (action.check_resolve, action.apply_resolve),
    Clear: (resolve.check_clear, resolve.apply_clear),
    EndRound: (resolve.check_end_round, resolve.apply_end_round),
    Penalty: (resolve.check_penalty, resolve.apply_penalty),
}
MOVES: MoveTable[State] = MoveTable("Escape House", _HANDLERS)
_CHECKS: dict[type[Move], Check[State]] = {kind: pair[0] for kind, pair in _HANDLERS.items()}
_APPLIES: dict[type[Move], Apply[State]] = {kind: pair[1] for kind, pair in _HANDLERS.items()}
"""MOVES's two halves as plain dicts, for EscapeHouse.check and apply to read without a method call."""


class EscapeHouse(Game[State]):
    id: ClassVar[str] = "escape-house"
    title: ClassVar[str] = "Escape House"
    min_players: ClassVar[int] = 6
    max_players: ClassVar[int] = 8
    move_types: ClassVar[tuple[type[Move], ...]] = MOVE_TYPES
    options_type: ClassVar[type[Any]] = EscapeHouseOptions
    rules: ClassVar[RuleBook] = RULEBOOK
    zone_kinds: ClassVar[tuple[ZoneKind, ...]] = table.ZONE_KINDS
    pick_kinds = picks.PICKS
    move_table = MOVES
    player_rule = common.PLAYER_RULE

    def __init__(self) -> None:
        super().__init__()
        self.codec = EscapeHouseCodec(self.id, self.move_types)

    def setup(self, players: tuple[str, ...], options: Any, setup: Mapping[str, Any]) -> State:
        return build_state(players, options, setup)

    def judge(self, state: State, move: Move) -> Verdict:
        # Game.judge with its "is the game over" read off the state: effects.outcome is None exactly
        # while the phase is not OVER, and every move asks.
        if state.phase is Phase.OVER:
            return super().judge(state, move)
        return self.check(state, move)

    def check(self, state: State, move: Move) -> Verdict:
        check = _CHECKS.get(type(move))  # (MOVES.checker, read here: every move asks)
        if check is None:
            raise MOVES.unknown(move)
        if state.phase is Phase.DEAL and not isinstance(move, Dealt):
            waiting = ", ".join(live.still_to_deal(state))
            return Verdict.illegal("EH-SETUP-HANDS", f"the hands are dealt first: {waiting} still to tap their cards in",
                                   "undo that; each player taps the four cards dealt to them")
        if not state.main and state.needs_flip() and not isinstance(move, Flip):  # (needs_flip asks `main` first)
            return Verdict.illegal("EH-NEXT-MAIN", "the next main puzzle is still face down", "turn it up and tap it first")
        return check(state, move)

    def apply(self, state: State, move: Move) -> State:
        apply = _APPLIES.get(type(move))  # (MOVES.apply, read here: every move asks)
        if apply is None:
            raise MOVES.unknown(move)
        return apply(state, move)

    def outcome(self, state: State) -> Outcome | None:
        return effects.outcome(state)

    def scoreboard(self, state: State) -> JsonObject:
        return views.scoreboard(state)

    def view(self, state: State, player: str | None) -> JsonObject:
        if player is None:
            return views.referee_view(state)
        return views.player_view(state, player)

    def candidates(self, state: State, by: str | None) -> Iterable[Move]:
        return entry.candidates(state, by)

    def out_of_game(self, state: State, player: str) -> str | None:
        return common.why_sacrificed(state, player) if player in state.players else None

    def narrowed(self, state: State, by: str | None, verb: str, given: Mapping[str, Any]) -> Narrowed | None:
        if verb != DrawDiscard.verb:
            return None
        if by is None or by not in state.where or state.phase is Phase.OVER or not entry.may_draw_discard(state, by):
            return Narrowed((), whole=True)
        return entry.discard_draws(state, by, given)

    def choices(self, state: State, viewer: str | None, by: str | None, pick: Pick, every: bool) -> Sequence[Choice] | None:
        return entry.choices(state, viewer, by, pick, every)

    def copies(self, state: State, card: str) -> Sequence[str]:
        return alike(state.cards).get(card, ())

    def card_name(self, state: State, card: str) -> str:
        return state.cards.name_of(card) if card in alike(state.cards) else card

    def prompts(self, state: State) -> tuple[Prompt, ...]:
        return _prompts(state)

    def setup_form(self) -> SetupForm:
        return entry.SETUP_FORM

    def interpret_table(self, state: State, seen: Seen) -> Move | Unexplained | None:
        return table.interpret(state, seen)

    def interpret_press(self, state: State, seen: PressSeen) -> Move | Unexplained | None:
        return table.press(state, seen)


def _prompts(state: State) -> tuple[Prompt, ...]:
    """Who must do what now, each with the verb that does it (the page makes each a button)."""
    if state.phase is Phase.OVER:
        return ()
    if state.phase is Phase.DEAL:
        return tuple(
            Prompt(p, "dealt", f"{p}: tap the four cards dealt to you on your hand pad, your Betray card and three more ({len(state.hands[p])} of 4)")
            for p in live.still_to_deal(state)
        )
    if state.needs_flip():
        return (Prompt(None, "flip", "turn up the next main puzzle and tap it on the tap pad"),)
    out: list[Prompt] = []
    if state.penalties_due:
        out.append(Prompt(None, "penalty", "draw the top penalty card, follow it, and tap it on the tap pad"))
    for p in state.alive:
        if state.owed(p):
            out.append(Prompt(p, "discard", f"{p}: discard {state.owed(p)} card(s) to the discard pile, each over the discard pad"))
    if out:
        return tuple(out)
    may_draw = tuple(
        Prompt(p, "draw_discard", f"{p}: you may draw {n} card(s) from the discard pile (look at 3, keep 1 each)")
        for p in state.alive
        if (n := state.draw_credit.get(p, 0))
    )
    if state.phase is Phase.EXPLORE:
        for p in state.alive:
            extra = len(state.hands[p]) - HAND_LIMIT
            if extra > 0:
                out.append(Prompt(p, "stash", f"{p}: put {extra} card(s) {_stash_place(state.where[p])}"))
        return tuple(out) or may_draw + (Prompt(None, "end_explore", "choose rooms, draw and trade; then end the explore phase"),)
    if state.phase is Phase.ACTION:
        waiting = state.must_play()
        if waiting:
            return tuple(Prompt(p, "play", f"{p}: play a card face down with a character token under it") for p in waiting)
        return (Prompt(None, "resolve", "reveal the played cards (tap each one on the tap pad) and resolve"),)
    for puzzle, room, by in resolve.missed_clears(state):
        cards = ", ".join(card_name(state, c) for c in by)
        out.append(Prompt(None, "clear", f"{card_name(state, puzzle)} in {room_name(room)} is cleared by {cards}: set it aside over the tap pad"))
    return may_draw + (tuple(out) or (Prompt(None, "end_round", "put the played cards into the discard pile over the discard pad: that ends the round"),))


def _stash_place(room: str) -> str:
    """Where excess cards go: the room's deck (the main room has none: its discard pile)."""
    if room == MAIN_ROOM:
        return "onto the discard pile in the main room"
    return f"into the deck of {room_name(room)}, at any depth"


GAME = EscapeHouse()
