"""Escape Leaders, Beast Mode and Story cards: the choices made between rounds and at a round's start.

What each tribe's ability does is data (leaders.json), and so is each Story card (story.json); this
module referees the choices the table enters and tracks their effects for the coming round.
"""

from __future__ import annotations

import logging

from companion.core import Verdict
from . import rules as R
from .common import attribute, need_player
from .moves import Beast, GiveFault, Leader, PassCard, Story, SwapDraw
from .piles import ability
from .state import Phase, State, StoryUse, put, replace

logger = logging.getLogger(__name__)

BETWEEN = (Phase.ROUND_OVER, Phase.DEALING, Phase.WAITING)
"""Between the end of one round and the next Start!."""
BEFORE_START = (Phase.DEALING, Phase.WAITING)


def expected_size(state: State, seat: int) -> int:
    """How many cards seat ``seat`` should hold at Start! (EM-DEAL), after abilities and Story cards."""
    table = state.table
    mods = state.mods
    size = table.options.hand_size + mods.extra[seat]
    power = ability(state, seat)
    if power is not None:
        if power.key == "fewer_cards":
            size += power.beast_hand if mods.beast[seat] else power.hand
        elif power.key == "extra_fault" and mods.gave_fault[seat]:
            size += power.beast_extra_cards if mods.beast[seat] else power.extra_cards
    tribe = state.leaders[seat]
    for other in state.players_in:
        if other == seat:
            continue
        other_power = ability(state, other)
        if other_power is not None and mods.beast[other] and mods.beast_target[other] == seat:
            size += other_power.beast_target_hand
        use = mods.story[other]
        if use is not None and tribe is not None and table.mate(other) != seat:
            size += table.stories[use.card].others_tribe_hand.get(tribe, 0)
    use = mods.story[seat]
    if use is not None:
        size += table.stories[use.card].for_tribe("hand", tribe)
    return max(size, 0)


def _between(state: State, what: str, phases: tuple[Phase, ...] = BETWEEN) -> Verdict | None:
    if state.phase in phases:
        return None
    when = "before the round's Start!" if phases == BEFORE_START else "between rounds, before Start!"
    return Verdict.illegal(R.LEADER, f"{what} happens {when}", "undo it")


# -- the Lumberjack's fault -----------------------------------------------------------------------


def check_give_fault(state: State, move: GiveFault) -> Verdict:
    who, bad = need_player(state, move, "giving a fault")
    if bad:
        return bad
    if state.phase not in BEFORE_START:
        return Verdict.illegal(R.LUMBERJACK, "the Lumberjack gives the fault at the start of a round, before Start!",
                               "undo it")
    power = ability(state, who)
    if power is None or power.key != "extra_fault":
        return Verdict.illegal(R.LUMBERJACK, f"{state.name(who)}'s Escape Leader cannot give faults this round", "undo it")
    if state.mods.gave_fault[who]:
        return Verdict.illegal(R.LUMBERJACK, f"{state.name(who)} has already given a fault this round", "undo it")
    target = state.table.seat.get(move.target)
    if target is None or target == who or target not in state.players_in:
        return Verdict.illegal(R.LUMBERJACK, "the fault goes to another player of this round", "name another player")
    return Verdict.legal()


def apply_give_fault(state: State, move: GiveFault) -> State:
    assert move.by is not None
    who = state.table.seat[move.by]
    target = state.table.seat[move.target]
    power = ability(state, who)
    assert power is not None
    n = power.beast_faults if state.mods.beast[who] else power.faults
    mods = replace(state.mods, gave_fault=put(state.mods.gave_fault, who, True),
                   bonus_faults=put(state.mods.bonus_faults, target, state.mods.bonus_faults[target] + n))
    return replace(state, mods=mods, round_faults=put(state.round_faults, target, state.round_faults[target] + n))


# -- Beast Mode ---------------------------------------------------------------------------------------


def check_beast(state: State, move: Beast) -> Verdict:
    who, bad = need_player(state, move, "Beast Mode")
    if bad:
        return bad
    if state.phase not in BETWEEN:
        return Verdict.illegal(R.BEAST, "Beast Mode is unlocked for a round before its Start!", "undo it")
    name = state.name(who)
    power = ability(state, who)
    if power is None:
        return Verdict.illegal(R.BEAST, f"{name} has no Escape Leader ability to unlock this round", "undo it")
    if state.mods.beast[who]:
        return Verdict.illegal(R.BEAST, f"{name} is already in Beast Mode for this round", "undo it")
    cost = state.table.options.beast_cost_xp
    if state.xp[who] < cost:
        return Verdict.illegal(R.BEAST, f"{name} has {state.xp[who]} XP; Beast Mode needs {cost}", "undo it")
    if power.key == "fewer_cards":
        target = state.table.seat.get(move.target) if move.target is not None else None
        if target is None or target == who:
            return Verdict.illegal(R.BEAST, "this Beast Mode names the other player who starts with fewer cards",
                                   "enter it again with a target")
    return Verdict.legal()


def apply_beast(state: State, move: Beast) -> State:
    assert move.by is not None
    who = state.table.seat[move.by]
    target = state.table.seat.get(move.target) if move.target is not None else None
    mods = replace(state.mods, beast=put(state.mods.beast, who, True),
                   beast_target=put(state.mods.beast_target, who, target))
    return replace(state, mods=mods, xp=put(state.xp, who, state.xp[who] - state.table.options.beast_cost_xp))


# -- Story cards ------------------------------------------------------------------------------------


def check_story(state: State, move: Story) -> Verdict:
    who, bad = need_player(state, move, "a Story card")
    if bad:
        return bad
    name = state.name(who)
    if state.phase is not Phase.ROUND_OVER:
        return Verdict.illegal(R.STORY, "a Story card is drawn at the end of a round", "put it back")
    if state.story_drawn:
        return Verdict.illegal(R.STORY, "this round's Story card has been drawn already", "put it back")
    if who not in state.story_eligible:
        return Verdict.illegal(R.STORY, f"{name} may not draw a Story card: {state.story_why}", "put it back")
    data = state.table.stories.get(move.card)
    if data is None:
        return Verdict.illegal(R.STORY, f"there is no Story card {move.card}", "check the card")
    if any(u is not None and u.card == move.card for u in state.mods.story):
        return Verdict.illegal(R.STORY, f"Story card {move.card} is already in play", "check the card")
    targets = move.targets or ()
    need = data.for_tribe("targets", state.leaders[who])
    if len(targets) != need:
        return Verdict.illegal(R.STORY, f"Story card {move.card} names {need} other player(s), not {len(targets)}",
                               "enter it again with its targets")
    seats = [state.table.seat.get(t) for t in targets]
    if any(s is None or s == who for s in seats) or len(set(targets)) != len(targets):
        return Verdict.illegal(R.STORY, "a Story card's targets are other players, each named once", "name them again")
    return Verdict.legal()


def apply_story(state: State, move: Story) -> State:
    assert move.by is not None
    table = state.table
    who = table.seat[move.by]
    data = table.stories[move.card]
    targets = tuple(table.seat[t] for t in (move.targets or ()))
    mods = replace(state.mods, story=put(state.mods.story, who, StoryUse(move.card, targets)))
    if data.beast:
        mods = replace(mods, beast=put(mods.beast, who, True))
    if data.disable_targets:
        lost = mods.lost
        for t in targets:
            lost = put(lost, t, True)
        mods = replace(mods, lost=lost)
    if data.leader_change == "self":
        mods = replace(mods, leader_change=put(mods.leader_change, who, True))
    elif data.leader_change == "all":
        mods = replace(mods, leader_change=(True,) * len(table.players))
    return replace(state, mods=mods, story_drawn=True)


def check_leader(state: State, move: Leader) -> Verdict:
    who, bad = need_player(state, move, "a leader change")
    if bad:
        return bad
    bad = _between(state, "a change of Escape Leader")
    if bad:
        return bad
    if not state.mods.leader_change[who]:
        return Verdict.illegal(R.LEADER, f"{state.name(who)} keeps their Escape Leader: only a Story card swaps or "
                               "deals new ones", "undo it")
    if move.tribe is not None and move.tribe not in state.table.leader_data.tribes:
        return Verdict.illegal(R.LEADER, f"no Escape Leader card of the {move.tribe} tribe is in leaders.json", "undo it")
    if move.swap_with is not None:
        other = state.table.seat.get(move.swap_with)
        if other is None or other == who:
            return Verdict.illegal(R.LEADER, "swap leaders with another player of this game", "name another player")
    return Verdict.legal()


def apply_leader(state: State, move: Leader) -> State:
    assert move.by is not None
    who = state.table.seat[move.by]
    leaders = state.leaders
    if move.swap_with is not None:
        other = state.table.seat[move.swap_with]
        leaders = put(put(leaders, who, leaders[other]), other, leaders[who])
    else:
        leaders = put(leaders, who, move.tribe)
    mods = replace(state.mods, leader_change=put(state.mods.leader_change, who, False))
    return replace(state, leaders=leaders, mods=mods)


def _story_power(state: State, who: int, field: str) -> int:
    use = state.mods.story[who]
    if use is None or state.mods.story_done[who]:
        return 0
    return state.table.stories[use.card].for_tribe(field, state.leaders[who])


def check_swap_draw(state: State, move: SwapDraw) -> Verdict:
    who, bad = need_player(state, move, "a swap with the draw pile")
    if bad:
        return bad
    if state.phase not in BEFORE_START:
        return Verdict.illegal(R.STORY, "Story card swaps happen before the round's Start!", "undo it")
    n = _story_power(state, who, "swap_draw")
    if n == 0:
        return Verdict.illegal(R.STORY, f"{state.name(who)} has no Story card to swap with the draw pile now", "undo it")
    if len(move.take) > n:
        return Verdict.illegal(R.STORY, f"{state.name(who)} may swap at most {n} cards", "swap fewer")
    if move.give:
        _, bad = attribute(state, move, move.give, hidden=True)
        if bad:
            return bad
    if any(c not in state.rnd.draw_pile for c in move.take):
        return Verdict.illegal(R.UNSEEN, "a card taken is not in the draw pile", "put it back where it came from")
    return Verdict.legal()


def apply_swap_draw(state: State, move: SwapDraw) -> State:
    assert move.by is not None
    who = state.table.seat[move.by]
    rnd = state.rnd
    hand = rnd.hands[who].difference(move.give).union(move.take)
    rnd = replace(rnd, hands=put(rnd.hands, who, hand), draw_pile=rnd.draw_pile.difference(move.take).union(move.give))
    return replace(state, rnd=rnd, mods=replace(state.mods, story_done=put(state.mods.story_done, who, True)))


def check_pass_card(state: State, move: PassCard) -> Verdict:
    who, bad = need_player(state, move, "passing cards")
    if bad:
        return bad
    if state.phase not in BEFORE_START:
        return Verdict.illegal(R.STORY, "Story card passes happen before the round's Start!", "undo it")
    n = _story_power(state, who, "pass_cards")
    if n == 0:
        return Verdict.illegal(R.STORY, f"{state.name(who)} has no Story card to pass cards with now", "undo it")
    if len(move.cards) > n:
        return Verdict.illegal(R.STORY, f"{state.name(who)} may pass at most {n} card(s)", "pass fewer")
    _, bad = attribute(state, move, move.cards, hidden=True)
    if bad:
        return bad
    to = state.table.seat.get(move.to)
    if to is None or to == who or to not in state.players_in:
        return Verdict.illegal(R.STORY, "cards go to another player of this round", "name another player")
    return Verdict.legal()


def apply_pass_card(state: State, move: PassCard) -> State:
    assert move.by is not None
    who = state.table.seat[move.by]
    to = state.table.seat[move.to]
    rnd = state.rnd
    hands = put(rnd.hands, who, rnd.hands[who].difference(move.cards))
    hands = put(hands, to, hands[to].union(move.cards))
    k = len(move.cards)
    mods = state.mods
    extra = put(put(mods.extra, who, mods.extra[who] - k), to, mods.extra[to] + k)
    mods = replace(mods, extra=extra, story_done=put(mods.story_done, who, True))
    return replace(state, rnd=replace(rnd, hands=hands), mods=mods)
