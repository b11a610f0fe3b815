"""Faults at a round's end, the Story card draw, XP, and the end of the game (Breaking Point, fixed
rounds, the Doom pile, ties playing an extra round, Escape Alliance team scores)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from companion.core import JsonObject, Outcome, Termination
from .cards import Kind
from .piles import ability
from .state import Mods, Phase, RoundRecord, State, replace

logger = logging.getLogger(__name__)

DOOM_FAULTS = 3
"""EM-FAULTS: a Doom Master card left in hand is 3 faults; any other card 1."""


def hand_faults(state: State, hand: frozenset[str]) -> int:
    cards = state.table.cards
    return sum(DOOM_FAULTS if cards[c].kind is Kind.DOOM else 1 for c in hand)


def units(state: State, seats: Sequence[int]) -> list[tuple[int, ...]]:
    """The scoring units among ``seats``: each player, or each team (Escape Alliance)."""
    table = state.table
    if table.team is None:
        return [(i,) for i in seats]
    out: dict[int, list[int]] = {}
    for i in seats:
        out.setdefault(table.team[i], []).append(i)
    return [tuple(v) for v in out.values()]


def unit_name(state: State, unit: tuple[int, ...]) -> str:
    return " & ".join(state.name(i) for i in unit)


def finish_round(state: State, hands: tuple[frozenset[str], ...], ended: str) -> State:
    """EM-FAULTS and what follows: totals, round history, Story eligibility, XP, Doom pile, game end."""
    table = state.table
    options = table.options
    mods = state.mods
    n = len(table.players)
    round_faults = list(state.round_faults)
    faults = list(state.faults)
    for i in state.players_in:
        f = hand_faults(state, hands[i]) + mods.bonus_faults[i]
        power = ability(state, i)
        if power is not None and power.key == "fault_cap":  # EM-LEADER: never more than 5 (Beast: 3) a round
            cap = power.beast_cap if mods.beast[i] else power.cap
            if cap is not None:
                f = min(f, cap)
        round_faults[i] = f
        faults[i] += f
    next_change = [False] * n
    outs = state.rnd.outs
    for i in range(n):  # Story cards in effect this round: fault changes, the guess
        use = mods.story[i]
        if use is None:
            continue
        data = table.stories[use.card]
        delta = data.for_tribe("faults", state.leaders[i])
        if data.guess and use.targets:
            if outs and outs[0] == use.targets[0]:
                delta -= n
            else:
                next_change[i] = True  # wrong guess: a new Escape Leader card at random
        if delta:
            faults[i] = max(0, faults[i] + delta) if options.faults_floor_zero else faults[i] + delta
    xp = list(state.xp)
    for i in range(n):  # EM-XP: a used Story card becomes experience, never more than xp_cap
        use = mods.story[i]
        if use is not None:
            xp[i] = min(options.xp_cap, xp[i] + table.stories[use.card].xp)
    doom = state.doom_pile
    if options.early_end_doom_pile:  # EM-EARLY-END: Doom Master cards nobody managed to play
        for i in state.players_in:
            doom = doom + tuple(sorted(c for c in hands[i] if table.cards[c].kind is Kind.DOOM))
    record = RoundRecord(state.round_no, state.dealer, tuple((i, round_faults[i]) for i in state.players_in), ended, outs)
    out = replace(
        state,
        phase=Phase.ROUND_OVER,
        faults=tuple(faults),
        round_faults=tuple(round_faults),
        rounds=state.rounds + (record,),
        xp=tuple(xp),
        doom_pile=doom,
        mods=Mods.fresh(n, tuple(next_change)),
        story_drawn=False,
        rnd=replace(state.rnd, hands=hands),
    )
    eligible, why = story_eligibility(out)
    out = replace(out, story_eligible=eligible, story_why=why)
    return _game_end(out)


def story_eligibility(state: State) -> tuple[tuple[int, ...], str]:
    """EM-STORY: most faults this round; a tie goes to the highest total; a tie there too, nobody."""
    groups = units(state, state.players_in)
    rf = state.round_faults
    tf = state.faults

    def rsum(u: tuple[int, ...]) -> int:
        return sum(rf[i] for i in u)

    def tsum(u: tuple[int, ...]) -> int:
        return sum(tf[i] for i in u)

    best = max(rsum(u) for u in groups)
    top = [u for u in groups if rsum(u) == best]
    if len(top) == 1:
        return top[0], f"{unit_name(state, top[0])} had the most faults this round ({best})"
    high = max(tsum(u) for u in top)
    top2 = [u for u in top if tsum(u) == high]
    names = ", ".join(unit_name(state, u) for u in top)
    if len(top2) == 1:
        return top2[0], f"{names} tied with {best} faults this round; {unit_name(state, top2[0])} has the highest total ({high})"
    return (), f"{names} tied with {best} faults this round and with {high} in total, so nobody draws"


@dataclass(frozen=True)
class Ending:
    """What ends an Escape Master game at a round's end, before the fewest faults decide who wins."""

    termination: Termination
    rounds: int | None = None
    """LAST_ROUND: how many fixed rounds were played."""
    unit: str | None = None
    """BREAKING_POINT: the player (or team) who reached it ..."""
    faults: int | None = None
    """... and with how many faults."""

    def said(self) -> str:
        if self.termination is Termination.TIE_ROUND:
            return "the extra round for the tie decides"
        if self.termination is Termination.LAST_ROUND:
            return f"the {self.rounds} fixed rounds are played"
        if self.termination is Termination.BREAKING_POINT:
            return f"{self.unit} reached the Breaking Point with {self.faults} faults"
        return "the Doom pile holds every Doom Master card"


@dataclass(frozen=True)
class Result:
    """The end of an Escape Master game: what ended it, the winners, and their (the fewest) faults."""

    ending: Ending
    winners: tuple[str, ...]
    fewest: int

    def to_json(self) -> JsonObject:
        winner = self.winners[0] if len(self.winners) == 1 else list(self.winners)
        return {"winner": winner, "reason": f"{self.ending.said()}; fewest faults: {self.fewest}"}


def _ending(state: State, total: Callable[[tuple[int, ...]], int]) -> Ending | None:
    """Does the game end at this round's end (EM-BREAKING-POINT, fixed rounds, the Doom pile, a tie's extra round)?"""
    options = state.table.options
    if state.tiebreak:
        return Ending(Termination.TIE_ROUND)
    if options.fixed_rounds is not None:
        if len(state.rounds) < options.fixed_rounds:
            return None
        return Ending(Termination.LAST_ROUND, rounds=options.fixed_rounds)
    over = [u for u in units(state, state.players_in) if total(u) >= options.breaking_point]
    if over:
        worst = max(over, key=total)
        return Ending(Termination.BREAKING_POINT, unit=unit_name(state, worst), faults=total(worst))
    doom = state.table.deck.doom
    if options.early_end_doom_pile and doom and len(set(state.doom_pile)) >= len(doom):
        return Ending(Termination.DOOM_PILE)
    return None


def _game_end(state: State) -> State:
    options = state.table.options
    groups = units(state, state.players_in)

    def total(u: tuple[int, ...]) -> int:
        return sum(state.faults[i] for i in u)

    ending = _ending(state, total)
    if ending is None:
        return _next_dealer(state)
    low = min(total(u) for u in groups)
    best = [u for u in groups if total(u) == low]
    if len(best) > 1 and options.tie_extra_round:
        seats = tuple(sorted(i for u in best for i in u))
        why = f"{ending.said()}; {', '.join(unit_name(state, u) for u in best)} tie with {low} faults and play an extra round"
        logger.debug("tie: %s", why)
        return _next_dealer(replace(state, tiebreak=True, players_in=seats, story_why=state.story_why))
    winners = tuple(state.name(i) for u in best for i in u)
    result = Outcome(ending.termination, winners, Result(ending, winners, low))
    return replace(state, phase=Phase.GAME_OVER, result=result, story_eligible=(), story_why="the game is over")


def _next_dealer(state: State) -> State:
    """EM-DEALER: the deal passes clockwise (to the next player of the coming round)."""
    n = len(state.table.players)
    for k in range(1, n + 1):
        seat = (state.dealer + k) % n
        if seat in state.players_in:
            return replace(state, dealer=seat)
    return state
