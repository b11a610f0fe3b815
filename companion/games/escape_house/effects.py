"""Following card instructions: effects, sacrifices, puzzle clears and the turn of a round.

Pure helpers on :class:`State`, shared by the phases' modules.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from companion.core import JsonObject, Outcome, Termination

from .cards import PLAYED_EFFECT_KINDS, Card, Cond, Do, Effect, Kind, Who
from .state import MAIN_ROOM, Phase, PlayedCard, State, bump


def affected(state: State, who: Who, actor: str | None, target: str | None, room: str | None) -> tuple[str, ...]:
    """The living players an effect touches."""
    if who is Who.SELF:
        return (actor,) if actor is not None and actor in state.where else ()
    if who is Who.TARGET:
        return (target,) if target is not None and target in state.where else ()
    if who is Who.ROOM:
        return state.in_room(room) if room is not None else ()
    return state.alive


def apply_effect(state: State, effect: Effect, players: tuple[str, ...]) -> State:
    """Follow one instruction (not a sacrifice or protection: those are settled together, EH-SACRIFICE)."""
    do = effect.do
    if do is Do.NO_MOVE:
        return state.but(no_move=state.no_move | set(players))
    if do is Do.NO_PLAY:
        return state.but(no_play=state.no_play | set(players))
    if do is Do.DISCARD:
        owed = state.owed_discards
        for p in players:
            owed = bump(owed, p, effect.count)
        return state.but(owed_discards=owed)
    if do is Do.DRAW_DISCARD:
        credit = state.draw_credit
        for p in players:
            credit = bump(credit, p, effect.count)
        return state.but(draw_credit=credit)
    if do is Do.PENALTY:
        return state.but(penalties_due=min(len(state.penalties), state.penalties_due + effect.count))
    if do is Do.NO_PENALTY:
        return state.but(no_penalty=True)
    return state


def follow_card(state: State, card: Card, actor: str | None, target: str | None, room: str | None) -> State:
    """Every instruction on ``card`` except sacrifices and protection."""
    for effect in card.effects:
        if effect.do in (Do.SACRIFICE, Do.PROTECT):
            continue
        state = apply_effect(state, effect, affected(state, effect.who, actor, target, room))
    return state


def settle_follows(state: State) -> State:
    """EH-FOLLOW: each follower's token goes to the room of the player at the end of their chain."""
    if not state.follows:
        return state
    where = dict(state.where)
    for follower in state.follows:
        lead = follower
        while lead in state.follows:  # follows never form a circle (EH-FOLLOW refuses one)
            lead = state.follows[lead]
        where[follower] = state.where[lead]
    return state.but(where=where, follows={})


def sacrifices(state: State) -> tuple[tuple[str, ...], frozenset[str]]:
    """EH-SACRIFICE: who is sacrificed by the played cards, and the cards that did it.

    All played cards act together: a protected target is not sacrificed; a sacrifice card works when
    (if it says so) its player shares the target's room, and enough working sacrifice cards name the
    target (its ``votes``). Cards of players sacrificed by the same reveal still count.
    """
    protected: set[str] = set()
    working: dict[str, list[tuple[PlayedCard, Effect]]] = {}
    for played in state.played:
        card = state.cards.cards[played.card]
        if card.kind not in PLAYED_EFFECT_KINDS:
            continue
        for effect in card.effects:
            if effect.do is Do.PROTECT:
                protected.add(played.target)
            elif effect.do is Do.SACRIFICE:
                if effect.same_room and state.where.get(played.target) != played.room:
                    continue
                working.setdefault(played.target, []).append((played, effect))
    victims: list[str] = []
    killers: set[str] = set()
    for target, cards in working.items():
        if target in protected or target not in state.where:
            continue
        used = [p.card for p, e in cards if e.votes <= len(cards)]
        if used:
            victims.append(target)
            killers.update(used)
    order = [p for p in state.alive if p in victims]
    return tuple(order), frozenset(killers)


def sacrifice(state: State, victims: tuple[str, ...]) -> State:
    """Take sacrificed players out of the house (their hands go to the discard at the end of the round)."""
    if not victims:
        return state
    gone = set(victims)
    return state.but(alive=tuple(p for p in state.alive if p not in gone),
        sacrificed=state.sacrificed + victims,
        sacrificed_now=state.sacrificed_now + victims,
        where={p: r for p, r in state.where.items() if p not in gone},
        owed_discards={p: n for p, n in state.owed_discards.items() if p not in gone},
        draw_credit={p: n for p, n in state.draw_credit.items() if p not in gone},
        no_move=state.no_move - gone,
        no_play=state.no_play - gone,
    )


# -- clearing puzzles ---------------------------------------------------------------------------


def items_in(state: State, room: str) -> tuple[tuple[str, str], ...]:
    """(card, item name) of the item cards played in ``room`` this round (EH-CLEAR-ROOM)."""
    out = []
    for played in state.played:
        card = state.cards.cards[played.card]
        if card.kind is Kind.ITEM and played.room == room and card.item is not None:
            out.append((played.card, card.item))
    return tuple(out)


def meets(state: State, puzzle: str, by: tuple[str, ...]) -> bool:
    """Do the cards ``by`` (already known to be played and in the right room) meet a clear condition?"""
    card = state.cards.cards[puzzle]
    have = Counter(state.cards.cards[c].item for c in by if state.cards.cards[c].kind is Kind.ITEM)
    for cond in card.clear:
        if cond.kind is Cond.SACRIFICE:
            if card.kind is Kind.MAIN and any(c in state.killers for c in by):
                return True
        elif cond.kind is Cond.ITEMS:
            need = Counter(cond.items)
            if all(have[name] >= n for name, n in need.items()):
                return True
        elif sum(have[name] for name in set(cond.items)) >= cond.count:
            return True
    return False


def clear_by(state: State, puzzle: str, room: str) -> tuple[str, ...] | None:
    """Cards played this round that clear ``puzzle`` in ``room``, or None (for prompts and EH-CLEAR-MISSED)."""
    card = state.cards.cards[puzzle]
    items = items_in(state, room)
    for cond in card.clear:
        if cond.kind is Cond.SACRIFICE:
            if card.kind is Kind.MAIN and state.killers:
                return tuple(p.card for p in state.played if p.card in state.killers)[:1]
            continue
        chosen: list[str] = []
        pool = list(items)
        if cond.kind is Cond.ITEMS:
            for name in cond.items:
                match = next((c for c, item in pool if item == name), None)
                if match is None:
                    break
                chosen.append(match)
                pool = [(c, i) for c, i in pool if c != match]
            else:
                return tuple(chosen)
        else:
            chosen = [c for c, item in pool if item in cond.items][: cond.count]
            if len(chosen) == cond.count:
                return tuple(chosen)
    return None


def clear(state: State, puzzle: str, room: str) -> State:
    """EH-INSTRUCTIONS: the puzzle is cleared, its instructions followed, and it is put to the side."""
    card = state.cards.cards[puzzle]
    if room == MAIN_ROOM:
        if len(state.main) + state.main_hidden == 1:  # EH-ESCAPE: the last main puzzle ends the game at once
            return game_over(state.but(main=(), cleared_now=state.cleared_now + (puzzle,)), won=True)
        state = state.but(main_cleared=True, cleared_now=state.cleared_now + (puzzle,))
    else:
        state = state.but(cleared=state.cleared | {room}, cleared_now=state.cleared_now + (puzzle,))
    return follow_card(state, card, None, None, room)


# -- the turn of a round -----------------------------------------------------------------------


def new_round(state: State, **more: Any) -> State:
    """The next round's explore phase (EH-PHASE). Cards that bar moving or playing stay in force.
    ``more``: other changes the move that ends the round makes, in the same copy of the state."""
    return state.but(**more, round=state.round + 1,
        phase=Phase.EXPLORE,
        moved=frozenset(),
        acted=frozenset(),
        draws={},
        trades={},
        follows={},
        played=(),
        traded=frozenset(),
        sacrificed_now=(),
        killers=frozenset(),
        cleared_now=(),
        main_cleared=False,
        no_penalty=False,
        closing=False,
    )


def game_over(state: State, won: bool) -> State:
    return state.but(phase=Phase.OVER, won=won, closing=False, penalties_due=0)


@dataclass(frozen=True)
class Result:
    """The end of an Escape House game: whether the table won, and who escaped."""

    won: bool
    escaped: tuple[str, ...]

    def to_json(self) -> JsonObject:
        return {"won": self.won, "escaped": list(self.escaped)}


def outcome(state: State) -> Outcome | None:
    """EH-WIN: every main puzzle cleared, the living escape; EH-CLOCKS: the third clock; or everyone sacrificed."""
    if state.phase is not Phase.OVER:
        return None
    if state.won:
        return Outcome(Termination.ESCAPED, state.alive, Result(True, state.alive))
    termination = Termination.OVERRUN if state.alive else Termination.ALL_SACRIFICED
    return Outcome(termination, (), Result(False, ()))
