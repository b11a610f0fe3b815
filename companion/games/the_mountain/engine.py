"""The Mountain's rules engine: check and apply each move of the turn (discard, draw, act, end)."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from companion.core import JsonObject, Move, Outcome, Prompt, Unexplained, Verdict
from companion.core.seen import PressSeen, Seen, TagSeen
from companion.core.picks import Choice, Pick
from companion.core.setup_form import SetupForm
from companion.core.errors import IllegalMoveError
from companion.contract.dispatch import MoveTable
from companion.contract.game import Game, Points
from companion.contract.sensors import Pending
from companion.contract.players import not_a_player
from . import rules as R
from . import entry, picks, scoring, table, views
from .actions import Plan, plan_act, plan_skip
from .steps import apply_step, apply_take_back, check_step, check_take_back, ready_to_act
from .cards import SUIT_NAMES, SUIT_OF, THREATS
from .moves import MOVE_TYPES, Act, ActCard, Discard, Draw, EndTurn, MountainCodec, Skip, TakeBack
from .options import MountainOptions
from .setup import read_setup
from .state import MountainState, Phase
from .cards import DECK as _DECK

logger = logging.getLogger(__name__)


class TheMountain(Game[MountainState]):
    id = "the-mountain"
    title = "The Mountain"
    min_players = 1
    max_players = 1
    move_types = MOVE_TYPES
    options_type = MountainOptions
    rules = R.RULES
    zone_kinds = table.ZONE_KINDS
    pick_kinds = picks.PICKS
    player_rule = R.SOLO

    def __init__(self) -> None:
        super().__init__()
        self.codec = MountainCodec(self.id, self.move_types)

    def deck(self) -> tuple[str, ...]:
        """Every card of the deck, for enrolment."""
        return _DECK

    def setup(self, players: tuple[str, ...], options: Any, setup: Mapping[str, Any]) -> MountainState:
        return read_setup(players[0], options, setup)

    # -- check ----------------------------------------------------------------------------------

    def check(self, state: MountainState, move: Move) -> Verdict:
        check = MOVES.checker(move)
        refused = not_a_player(R.SOLO, (state.player,), move, optional=True)  # (no "by": the player's own move)
        return refused or check(state, move)

    # -- apply ----------------------------------------------------------------------------------

    def apply(self, state: MountainState, move: Move) -> MountainState:
        return MOVES.apply(state, move)

    def outcome(self, state: MountainState) -> Outcome | None:
        return scoring.outcome(state)

    # -- what people see --------------------------------------------------------------------------

    def scoreboard(self, state: MountainState) -> JsonObject:
        return views.scoreboard(state)

    def points(self, state: MountainState) -> Points:
        """The solitaire's score (TM-SCORE)."""
        return Points({state.player: scoring.score(state)})

    def view(self, state: MountainState, player: str | None) -> JsonObject:
        return views.view(state, player)

    def candidates(self, state: MountainState, by: str | None) -> Iterable[Move]:
        return entry.candidates(state, by)

    def choices(self, state: MountainState, viewer: str | None, by: str | None, pick: Pick, every: bool) -> Sequence[Choice] | None:
        return entry.choices(state, viewer, by, pick, every)

    def setup_form(self) -> SetupForm:
        return entry.SETUP_FORM

    def prompts(self, state: MountainState) -> tuple[Prompt, ...]:
        return views.prompts(state)

    def interpret_table(self, state: MountainState, seen: Seen) -> Move | Unexplained | None:
        return table.from_tag(state, seen) if isinstance(seen, TagSeen) else table.from_vision(state, seen)

    def interpret_press(self, state: MountainState, seen: PressSeen) -> Move | Unexplained | None:
        return table.press(state, seen)

    def pending(self, state: MountainState) -> tuple[Pending, ...]:
        return table.pending(state)


# -- the checks, one per verb -----------------------------------------------------------------------


def _check_discard(state: MountainState, move: Discard) -> Verdict:
    if state.phase is not Phase.DISCARD:
        when = "you have already drawn" if state.phase is Phase.DRAW else "you have already acted"
        return Verdict.illegal(R.ORDER, f"discarding comes at the start of the turn, and {when}", "take the cards back into your hand")
    for card in move.cards:
        if card not in state.hand:
            return Verdict.illegal(R.HAND, f"the {card} is not in your hand (it is {state.where_is(card)})", f"put the {card} back")
    return Verdict.legal()


def _check_draw(state: MountainState, move: Draw) -> Verdict:
    fix = f"put the {move.card} back"
    if state.phase is Phase.ACTIONS:
        return Verdict.illegal(R.ORDER, "you have already acted this turn; draws come before the actions", fix)
    if len(state.hand) >= state.hand_limit:
        ids = (R.DRAW_LIMIT, R.NIGHTMARE) if state.options.nightmare else R.DRAW_LIMIT
        return Verdict.illegal(ids, f"your hand is full ({state.hand_limit} cards)", fix)
    if move.from_ == "stock":
        if not state.stock:
            return Verdict.illegal(R.STOCK, "the stock is empty", fix)
        if move.card not in state.stock:
            return Verdict.illegal(R.STOCK, f"the {move.card} cannot come from the stock: it is {state.where_is(move.card)}", fix)
        return Verdict.legal()
    if not state.health:
        return Verdict.illegal(R.HEALTH_DRAW, "the health pile is empty", fix)
    if state.options.health_draw == "top" and move.card != state.health[0]:
        return Verdict.illegal(R.HEALTH_DRAW, f"the top of the health pile is the {state.health[0]}, not the {move.card}", fix)
    if move.card not in state.health:
        return Verdict.illegal(R.HEALTH_DRAW, f"the {move.card} is not in the health pile (it is {state.where_is(move.card)})", fix)
    return Verdict.legal()


def _check_act(state: MountainState, move: Act) -> Verdict:
    fix = "take the set back into your hand"
    if state.skipped:
        return Verdict.illegal(R.SKIP, "you made the skip this turn; it replaces the actions, so end the turn", fix)
    for card in move.cards:
        if card not in state.hand:
            return Verdict.illegal(R.HAND, f"the {card} is not in your hand (it is {state.where_is(card)})", f"put the {card} back")
    if len(move.cards) not in (2, 3):
        return Verdict.illegal(R.SET, f"a set is 2 or 3 cards of one suit, not {len(move.cards)}", fix)
    suits = {SUIT_OF[card] for card in move.cards}
    if len(suits) != 1:
        return Verdict.illegal(R.SET, f"the {', '.join(move.cards)} do not share a suit", fix)
    suit = SUIT_OF[move.cards[0]]
    if suit in state.acted:
        return Verdict.illegal(R.TWO_SETS, f"you already played {SUIT_NAMES[suit]} this turn; a second set must be another suit", fix)
    if len(state.acted) >= 2:
        return Verdict.illegal(R.TWO_SETS, "two sets a turn at most", fix)
    not_ready = ready_to_act(state)
    if not_ready is not None:
        return not_ready
    plan = plan_act(state, move, suit)
    return plan if isinstance(plan, Verdict) else _planned(state, move, plan)


def _check_skip(state: MountainState, move: Skip) -> Verdict:
    fix = "put the card back on the mountain"
    if state.acted:
        return Verdict.illegal(R.SKIP, "you played a set this turn; the skip is only for a turn without one", fix)
    if state.skipped:
        return Verdict.illegal(R.SKIP, "you already made the skip this turn", fix)
    not_ready = ready_to_act(state)
    if not_ready is not None:
        return not_ready
    plan = plan_skip(state, move)
    return plan if isinstance(plan, Verdict) else _planned(state, move, plan)


_LEGAL = Verdict.legal()
_last_plan: tuple[MountainState, Move, Plan] | None = None
"""The plan of the last act or skip a check found legal, with its state and move. ``apply`` comes
right after with the same two (Game.play, the session) and takes the plan instead of walking the
removal again. Matched by identity; holding the two keeps their ids from being reused. A plain
cache: a check from another thread at worst replaces it, and apply then plans for itself."""


def _planned(state: MountainState, move: Move, plan: Plan) -> Verdict:
    global _last_plan
    _last_plan = (state, move, plan)
    return _LEGAL


def _plan_for(state: MountainState, move: Move) -> Plan | None:
    last = _last_plan
    if last is not None and last[0] is state and last[1] is move:
        return last[2]
    return None


def _check_end_turn(state: MountainState, move: EndTurn) -> Verdict:
    if state.phase is not Phase.ACTIONS:
        return Verdict.illegal(
            R.SKIP, "play a set or make the skip (remove one exposed card) before the threats attack", "take your actions first"
        )
    return Verdict.legal()


# -- applying ---------------------------------------------------------------------------------------


def _apply_draw(state: MountainState, move: Draw) -> MountainState:
    if move.from_ == "stock":
        return state.evolve(hand=state.hand + (move.card,), stock=state.stock - {move.card}, phase=Phase.DRAW)
    health = list(state.health)
    health.remove(move.card)
    return state.evolve(hand=state.hand + (move.card,), health=tuple(health), phase=Phase.DRAW)


def _apply_discard(state: MountainState, move: Discard) -> MountainState:
    gone = set(move.cards)
    return state.evolve(hand=tuple(c for c in state.hand if c not in gone), discard=state.discard + move.cards)


def _apply_act(state: MountainState, move: Act) -> MountainState:
    plan = _plan_for(state, move) or plan_act(state, move, SUIT_OF[move.cards[0]])
    if not isinstance(plan, Plan):
        raise IllegalMoveError(f"apply called with an illegal act: {plan.why}")
    # The act finishes whatever act the table had begun (its cards are this act's, or an act
    # entered at the console replaces it).
    return _remove(state, plan, move.cards, acted=state.acted + (SUIT_OF[move.cards[0]],)).evolve(pending=(), pending_since=None)


def _apply_skip(state: MountainState, move: Skip) -> MountainState:
    plan = _plan_for(state, move) or plan_skip(state, move)
    if not isinstance(plan, Plan):
        raise IllegalMoveError(f"apply called with an illegal skip: {plan.why}")
    return _remove(state, plan, (), skipped=True)


def _apply_end_turn(state: MountainState, move: EndTurn) -> MountainState:
    return _attack(state)


def _remove(
    state: MountainState, plan: Plan, set_cards: tuple[str, ...], *, acted: tuple[str, ...] = (), skipped: bool = False
) -> MountainState:
    mountain = list(state.mountain)
    taken: list[str] = []
    threats = state.threats_left
    for slot in plan.slots:
        card = mountain[slot]
        if card is None:
            raise ValueError("a plan removes an empty slot")
        taken.append(card)
        if card in THREATS:
            threats -= 1
        mountain[slot] = None
    spent = set(set_cards)
    healing = set(plan.from_hand)
    to_discard = tuple(c for c in set_cards if c not in healing)
    if not plan.to_health:
        to_discard += tuple(taken)
    return state.evolve(
        mountain=tuple(mountain),
        hand=tuple(c for c in state.hand if c not in spent),
        discard=state.discard + to_discard,
        health=state.health + plan.to_health,  # healing goes to the bottom (TM-HEARTS)
        threats_left=threats,
        removed=state.removed + len(plan.slots),
        phase=Phase.ACTIONS,
        acted=acted or state.acted,
        skipped=skipped or state.skipped,
        result="won" if threats == 0 else None,  # TM-WIN: the twelfth threat falls
    )


def _attack(state: MountainState) -> MountainState:
    """Each exposed or half-exposed threat does 1 damage (TM-ATTACK); no health to discard loses (TM-LOSE)."""
    damage = len(state.geo.attackers(state.mountain))
    health = state.health
    lost = damage > len(health) or (damage == len(health) and damage > 0 and not state.options.zero_health_survives)
    paid = min(damage, len(health))
    if state.options.damage_from == "top":
        spent, kept = health[:paid], health[paid:]
    else:
        spent, kept = health[len(health) - paid :], health[: len(health) - paid]
    return state.evolve(
        health=kept,
        discard=state.discard + spent,
        turn=state.turn + 1,
        phase=Phase.DISCARD,
        acted=(),
        skipped=False,
        last_damage=damage,
        result="lost" if lost else None,
    )


MOVES: MoveTable[MountainState] = MoveTable("The Mountain", {
    Discard: (_check_discard, _apply_discard),
    Draw: (_check_draw, _apply_draw),
    Act: (_check_act, _apply_act),
    ActCard: (check_step, apply_step),
    TakeBack: (check_take_back, apply_take_back),
    Skip: (_check_skip, _apply_skip),
    EndTurn: (_check_end_turn, _apply_end_turn),
})


TheMountain.move_table = MOVES  # the table is made below the class, from its module functions
GAME = TheMountain()
