"""Everest (piecepack, Mark A. Biggar): the Game — check and apply the four verbs, and the outcome."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence
from operator import attrgetter
from typing import Any

from companion.core import (
    JsonObject,
    Move,
    Outcome,
    Prompt,
    Unexplained,
    Verdict,
)
from companion.core.frozen import replaced
from companion.core.picks import Choice, Pick
from companion.core.seen import Seen, VisionSeen
from companion.core.setup_form import NO_SETUP, SetupForm
from companion.contract.dispatch import Apply, Check, MoveTable
from companion.contract.game import Game
from companion.contract.players import not_a_player
from . import dice, entry, picks, resolve, rounds, table, views
from .rounds import plans_needed, roll_waiting
from .moves import COINS, DIE_VALUE, MAX_PLAN, MOVE_TYPES, EndRound, Heal, Order, Plan, Roll, SetAside
from .options import EverestOptions
from .rules import RULES

PLAYER_RULE = "EV-PLAYER"
"""A move by someone not at the table (cited by old logs)."""
from .setup import new_state
from .state import EverestState, OrderChoice, PLAN, ROUND_END

log = logging.getLogger(__name__)

LEGAL = Verdict.legal()  # the one legal verdict, fetched once: every move's check ends with it
_COIN = attrgetter("coin")


def _all_planned(plans: tuple[object, ...], aside: tuple[int, ...]) -> bool:
    """``not plans_needed(state)`` for these plans, without building the tuple (apply asks after
    every plan): a player with coins left (fewer than six aside) owes one."""
    for plan, coins_aside in zip(plans, aside):
        if plan is None and coins_aside < 6:
            return False
    return True


class Everest(Game[EverestState]):
    id = "everest"
    title = "Everest"
    min_players = 2
    max_players = 4
    move_types = MOVE_TYPES
    options_type = EverestOptions
    rules = RULES
    zone_kinds = table.ZONE_KINDS
    pick_kinds = picks.PICKS
    player_rule = PLAYER_RULE

    def setup(self, players: tuple[str, ...], options: Any, setup: Mapping[str, Any]) -> EverestState:
        return new_state(players, options, setup)

    # -- check and apply: engine.MOVES, one pair per verb ---------------------------------------------

    def judge(self, state: EverestState, move: Move) -> Verdict:
        # Game.judge with its "is the game over" read off the state: rounds.outcome is None exactly
        # while nobody has won, and every move asks.
        if state.winner is not None:
            return super().judge(state, move)
        check = _CHECKS.get(type(move))  # (self.check, inlined: every move is judged)
        if check is None:
            raise MOVES.unknown(move)
        if move.by in state.players:
            return check(state, move)
        return self.check(state, move)

    def check(self, state: EverestState, move: Move) -> Verdict:
        check = _CHECKS.get(type(move))  # (MOVES.checker, read here: every move asks)
        if check is None:
            raise MOVES.unknown(move)
        if move.by in state.players:  # a player (most moves): not_a_player has nothing to say
            return check(state, move)
        # EV-PLAYER; the end of a round may be entered by nobody in particular
        refused = not_a_player(PLAYER_RULE, state.players, move, optional=type(move) is EndRound)
        return refused or check(state, move)

    def apply(self, state: EverestState, move: Move) -> EverestState:
        apply = _APPLIES.get(type(move))  # (MOVES.apply, read here: every move asks)
        if apply is None:
            raise MOVES.unknown(move)
        return apply(state, move)

    # -- the end ----------------------------------------------------------------------------------

    def outcome(self, state: EverestState) -> Outcome | None:
        return rounds.outcome(state)

    # -- what people see ----------------------------------------------------------------------------

    def scoreboard(self, state: EverestState) -> JsonObject:
        return views.scoreboard(state)

    def view(self, state: EverestState, player: str | None) -> JsonObject:
        return views.view(state, player)

    def candidates(self, state: EverestState, by: str | None) -> Iterable[Move]:
        return entry.candidates(state, by)

    def choices(self, state: EverestState, viewer: str | None, by: str | None, pick: Pick, every: bool) -> Sequence[Choice] | None:
        return entry.choices(state, viewer, by, pick, every)

    def setup_form(self) -> SetupForm:
        return NO_SETUP  # the homes are the rulebook's (options); nothing is dealt

    def prompts(self, state: EverestState) -> tuple[Prompt, ...]:
        return views.prompts(state, plans_needed(state), roll_waiting(state))

    def interpret_table(self, state: EverestState, seen: Seen) -> Move | Unexplained | None:
        if isinstance(seen, VisionSeen):
            return table.interpret(state, seen)
        return None  # NFC plays no part in Everest


# -- check, one function per verb -------------------------------------------------------------------


def _check_plan(state: EverestState, move: Plan) -> Verdict:
    seat = state.players.index(move.by)  # a player: check() asked first
    coins = move.coins
    usable = 6 - state.aside[seat]  # state.usable, read here: every plan asks
    # The legal plan (nearly every one): the round's planning, as many coins as it must have (three,
    # or every usable coin if fewer), none twice, none set aside. Anything else is refused below.
    if state.phase is PLAN and len(coins) == (usable if usable < MAX_PLAN else MAX_PLAN) and usable:
        known = state.aside_known[seat]
        if len(coins) == MAX_PLAN and not known:  # (most plans: three coins, none set aside)
            one, two, three = coins  # (unpacked: a comprehension costs a function call in 3.11)
            first, second, third = one.coin, two.coin, three.coin
            if first != second and first != third and second != third:
                return LEGAL
        else:
            named = {coin.coin for coin in coins}
            if len(named) == len(coins) and not (known and named & known):
                return LEGAL
    return _refuse_plan(state, seat, move, usable)


def _refuse_plan(state: EverestState, seat: int, move: Plan, usable: int) -> Verdict:
    """Why ``move``, a plan the fast path did not pass, is refused (the rules in the rulebook's order)."""
    name = state.players[seat]
    if state.phase is not PLAN:
        return Verdict.illegal(
            "EV-PLAN-TIME", f"the plans of round {state.round} are already revealed", f"{name}: take your coins back and wait"
        )
    if usable == 0:
        return Verdict.illegal(
            "EV-PLAN-COINS", f"{name} has no usable coins this round; the yeti stands dazed", f"{name}: take your coins back and wait"
        )
    coins = list(map(_COIN, move.coins))
    named = set(coins)
    if len(named) != len(coins):
        return Verdict.illegal("EV-PLAN-COINS", f"{name}'s plan uses a coin twice; each coin is one action", "plan with different coins")
    known = state.aside_known[seat]
    aside = sorted(named & known, key=COINS.index) if known else None  # nothing is aside, mostly
    if aside:
        return Verdict.illegal(
            "EV-PLAN-COINS", f"{name}'s {aside[0]} coin is set aside for damage until the yeti heals", "plan with other coins"
        )
    if len(coins) > usable:
        return Verdict.illegal(
            "EV-PLAN-COINS", f"{name} has only {usable} usable coin{'s' if usable != 1 else ''}, not {len(coins)}", "plan fewer coins"
        )
    need = usable if usable < MAX_PLAN else MAX_PLAN
    if len(coins) != need:
        return Verdict.illegal(
            "EV-PLAN-THREE", f"{name} has {usable} usable coins and must plan {need}, not {len(coins)}", f"plan {need} coins"
        )
    return LEGAL


def _check_roll(state: EverestState, move: Roll) -> Verdict:
    """EV-ROLL: a roll the engine asks of this player; a named purpose (and roarer) must be it."""
    seat = state.players.index(move.by)  # a player: check() asked first
    name = state.players[seat]
    ask = dice.asked(state, seat)
    if ask is None:
        return Verdict.illegal("EV-ROLL", f"no die roll is asked of {name} now", f"{name}: pick your die back up")
    purpose, roarer = ask
    if move.purpose is None and move.roarer is None:
        return LEGAL  # (files from before the purpose field; the log's event line says what it was for)
    if move.purpose is not None and move.purpose != purpose:
        wanted = dice.purpose_text(state, purpose, roarer)  # (in words only for a refusal)
        return Verdict.illegal(
            "EV-ROLL", f"{name}'s roll is asked for {wanted}, not for a {move.purpose} roll", f"{name}: roll for {wanted}"
        )
    if move.roarer is not None and (roarer is None or move.roarer != state.players[roarer]):
        wanted = dice.purpose_text(state, purpose, roarer)
        return Verdict.illegal(
            "EV-ROLL", f"{name}'s roll is asked for {wanted}, not about {move.roarer}'s roar", f"{name}: roll for {wanted}"
        )
    return LEGAL


def _check_choice(state: EverestState, move: Heal | SetAside) -> Verdict:
    """One player's own end-of-round choice: heal (EV-HEAL) or name coins to set aside (EV-DAMAGE)."""
    seat = state.players.index(move.by)  # a player: check() asked first
    name = state.players[seat]
    if state.phase is not ROUND_END:
        why = "the plans are not all in yet" if state.phase is PLAN else "the round's actions are not all done"
        return Verdict.illegal("EV-ROUND-END", f"{name} cannot choose yet: {why}", "wait for the end of the round")
    if isinstance(move, Heal):
        if rounds.heal_barred(state, seat):
            return Verdict.illegal(
                "EV-EDGE-HOME",
                f"{name}'s yeti went off the edge and cannot heal until the end of the next round",
                f"{name}: leave your yeti where the round puts it",
            )
        return LEGAL
    return _check_set_aside(state, name, move.coins, rounds.forced_home(state, seat))

def _check_order(state: EverestState, move: Order) -> Verdict:
    seat = state.players.index(move.by)  # a player: check() asked first
    need = state.need
    name = state.players[seat]
    if not isinstance(need, OrderChoice):
        return Verdict.illegal("EV-ORDER", "no order is asked for now", "wait for the engine to ask")
    chooser = state.players[need.chooser]
    if seat != need.chooser:
        return Verdict.illegal("EV-ORDER", f"{chooser} had the high roll and chooses the order, not {name}", f"let {chooser} choose")
    expected = sorted(map(state.players.__getitem__, need.seats))
    if sorted(move.sequence) != expected:
        return Verdict.illegal(
            "EV-ORDER-ALL",
            f"the order must name each of {', '.join(expected)} once",
            f"list {', '.join(expected)} in the order their actions happen",
        )
    return LEGAL


def _check_end_round(state: EverestState, move: EndRound) -> Verdict:
    if state.phase is not ROUND_END:
        why = "the plans are not all in yet" if state.phase is PLAN else "the round's actions are not all done"
        return Verdict.illegal("EV-ROUND-END", f"the round cannot end: {why}", "finish the round first")
    for player in move.heal:
        if state.seat(player) is None:
            return Verdict.illegal("EV-PLAYER", f"{player} is not a player in this game", "name players who heal")
    if len(set(move.heal)) != len(move.heal):
        return Verdict.illegal("EV-PLAYER", "a player is named twice among those who heal", "name each player once")
    for player in move.heal:
        seat = state.seat(player)
        assert seat is not None
        if rounds.heal_barred(state, seat):
            return Verdict.illegal(
                "EV-EDGE-HOME",
                f"{player}'s yeti went off the edge and cannot heal until the end of the next round",
                f"leave {player} out of the healers",
            )
    for player, named in (move.set_aside or {}).items():
        seat = state.seat(player)
        if seat is None:
            return Verdict.illegal("EV-PLAYER", f"{player} is not a player in this game", "name players who set coins aside")
        healing = player in move.heal or seat in state.heal_chosen or rounds.forced_home(state, seat)
        verdict = _check_set_aside(state, player, named, healing)
        if not verdict.ok:
            return verdict
    return LEGAL


def _check_set_aside(state: EverestState, player: str, named: tuple[str, ...], healing: bool) -> Verdict:
    seat = state.players.index(player)
    due = rounds.coins_to_set_aside(state, seat, healing)
    fix = f"{player}: set aside exactly {due} coin{'s' if due != 1 else ''}"
    if len(named) != due:
        return Verdict.illegal("EV-DAMAGE", f"{player} sets aside {due} coin{'s' if due != 1 else ''} this round, not {len(named)}", fix)
    if len(set(named)) != len(named) or set(named) & state.aside_known[seat]:
        return Verdict.illegal("EV-DAMAGE", f"{player} names a coin twice or one already set aside", fix)
    return LEGAL


# -- apply -----------------------------------------------------------------------------------------


def _apply_plan(state: EverestState, move: Plan) -> EverestState:
    seat = state.players.index(move.by)  # checked: a player
    plans = state.plans[:seat] + (move.coins,) + state.plans[seat + 1 :]
    # Every plan is in when each seat without one has all six coins aside: counted first in C
    # (fewer such seats than missing plans, the usual answer, means not yet) before the seat loop.
    missing = plans.count(None)
    if not missing or (missing <= state.aside.count(6) and _all_planned(plans, state.aside)):
        return resolve.reveal(state, plans)
    return replaced(state, {"plans": plans})


def _apply_roll(state: EverestState, move: Roll) -> EverestState:
    players = state.players
    seat = players.index(move.by)  # checked: a player
    ask = dice.asked(state, seat)
    assert ask is not None
    said = f"EV-ROLL: {players[seat]} rolls {move.value} for {dice.purpose_text(state, *ask)}"
    return resolve.rolled(state, seat, DIE_VALUE[move.value], said)


def _apply_order(state: EverestState, move: Order) -> EverestState:
    seats = tuple([state.players.index(p) for p in move.sequence])
    return resolve.ordered(state, seats)


def _apply_end_round(state: EverestState, move: EndRound) -> EverestState:
    seat_of = state.players.index
    heal = state.heal_chosen | frozenset(map(seat_of, move.heal)) if move.heal else state.heal_chosen
    named = dict(state.aside_chosen)
    if move.set_aside:  # (mostly not: then no comprehension, each a function call in 3.11)
        named.update({seat_of(p): frozenset(c) for p, c in move.set_aside.items()})
    state = rounds.end_round(state, heal, named)
    return resolve.reveal(state) if _all_planned(state.plans, state.aside) else state


def _apply_heal(state: EverestState, move: Heal) -> EverestState:
    return rounds.chosen(state, state.players.index(move.by), None)  # checked: a player


def _apply_set_aside(state: EverestState, move: SetAside) -> EverestState:
    return rounds.chosen(state, state.players.index(move.by), move.coins)  # checked: a player


_HANDLERS: dict[type[Move], tuple[Check[EverestState], Apply[EverestState]]] = {
    Plan: (_check_plan, _apply_plan),
    Roll: (_check_roll, _apply_roll),
    Order: (_check_order, _apply_order),
    EndRound: (_check_end_round, _apply_end_round),
    Heal: (_check_choice, _apply_heal),
    SetAside: (_check_choice, _apply_set_aside),
}
MOVES: MoveTable[EverestState] = MoveTable("Everest", _HANDLERS)
_CHECKS: dict[type[Move], Check[EverestState]] = {kind: pair[0] for kind, pair in _HANDLERS.items()}
_APPLIES: dict[type[Move], Apply[EverestState]] = {kind: pair[1] for kind, pair in _HANDLERS.items()}
"""MOVES's two halves as plain dicts, for Everest.check and apply to read without a method call."""


GAME_INSTANCE = Everest()

Everest.move_table = MOVES  # the table is made below the class, from its module functions
