"""The action phase: choosing rooms and follows, playing one card face down, the reveal, and resolve."""

from __future__ import annotations

from operator import attrgetter

from companion.core import Verdict
from .cards import PLAYED_EFFECT_KINDS
from .common import card_name, holds, in_phase, living_actor
from .effects import follow_card, game_over, sacrifice, sacrifices, settle_follows
from .moves import Follow, Play, Resolve, Reveal
from .state import Phase, PlayedCard, State, names, without

_LEGAL = Verdict.legal()
_REVEALED = attrgetter("revealed")


def check_follow(state: State, m: Follow) -> Verdict:
    return in_phase(state, m, Phase.ACTION) or living_actor(state, m) or _follow_rules(state, m) or _LEGAL


def _follow_rules(state: State, m: Follow) -> Verdict | None:
    by = m.by or ""
    if m.target == by or m.target not in state.where:
        who = "yourself" if m.target == by else (f"{m.target}, who was sacrificed" if m.target in state.players else f'"{m.target}", who is not playing')
        return Verdict.illegal("EH-FOLLOW", f"{by} cannot follow {who}", "follow a living player, or choose a room")
    if by in state.moved:
        return Verdict.illegal(
            "EH-MOVE-ONCE", f"{by} has already chosen a room this action phase", f"put {by}'s token back"
        )
    if state.played:
        return Verdict.illegal("EH-MOVE-FIRST", "cards are already being played; follows are declared first", "take the follow back")
    if by in state.no_move and state.options.follow_blocked_by_no_move:
        return Verdict.illegal("EH-NO-MOVE", f"{by} cannot move to a room this action phase, not even by following", "take the follow back")
    lead = m.target
    while lead in state.follows:
        lead = state.follows[lead]
        if lead == by:
            return Verdict.illegal(
                "EH-FOLLOW", f"{m.target} already follows {by}; follows cannot go round in a circle", "choose a room instead"
            )
    return None


def apply_follow(state: State, m: Follow) -> State:
    by = m.by or ""
    return state.but(follows={**state.follows, by: m.target}, moved=state.moved | {by})


def check_play(state: State, m: Play) -> Verdict:
    return in_phase(state, m, Phase.ACTION) or living_actor(state, m) or _play_rules(state, m) or _LEGAL


def _play_rules(state: State, m: Play) -> Verdict | None:
    by = m.by or ""
    if any(map(_REVEALED, state.played)):
        return Verdict.illegal("EH-REVEAL", "the cards are already revealed; it is too late to play one", "take the card back")
    mine = state.played_by(by)
    if mine is not None:
        return Verdict.illegal("EH-PLAY", f"{by} has already played a card this action phase", "take the second card back")
    if by in state.no_play:
        return Verdict.illegal("EH-NO-PLAY", f"{by} cannot play a card this action phase", "take the card back")
    v = holds(state, by, m.card)
    if v is not None:
        return v
    if m.target not in state.where:
        who = f"{m.target} was sacrificed" if m.target in state.players else f'"{m.target}" is not playing'
        return Verdict.illegal("EH-PLAY", f"the token under a card names a living player; {who}", "put a living player's token under it")
    return None


def apply_play(state: State, m: Play) -> State:
    by = m.by or ""
    state = settle_follows(state)
    played = PlayedCard(by, m.card, m.target, state.where[by])
    return state.but(hands={**state.hands, by: without(state.hands[by], m.card)}, played=state.played + (played,))


def _waiting(state: State) -> Verdict | None:
    waiting = state.must_play()
    if waiting:
        return Verdict.illegal(
            "EH-REVEAL", f"{names(waiting)} {'has' if len(waiting) == 1 else 'have'} not played a card yet", "turn the card face down again and wait"
        )
    return None


def check_reveal(state: State, m: Reveal) -> Verdict:
    v = in_phase(state, m, Phase.ACTION)
    if v is not None:
        return v
    played = next((p for p in state.played if p.card == m.card), None)
    if played is None:
        return Verdict.illegal("EH-REVEAL", f"{card_name(state, m.card)} was not played face down this round", "take it off the tap pad")
    if m.by is not None and m.by != played.by:
        return Verdict.illegal("EH-PLAYER", f"{card_name(state, m.card)} was played by {played.by}, not {m.by}", "enter who played it")
    if played.revealed:
        return Verdict.illegal("EH-REVEAL", f"{card_name(state, m.card)} is already revealed", "nothing to do; take it off the tap pad")
    return _waiting(state) or _LEGAL


def apply_reveal(state: State, m: Reveal) -> State:
    return state.but(played=tuple(p.face_up() if p.card == m.card else p for p in state.played))


def check_resolve(state: State, m: Resolve) -> Verdict:
    return in_phase(state, m, Phase.ACTION) or _waiting(state) or _LEGAL


def apply_resolve(state: State, m: Resolve) -> State:
    """EH-SACRIFICE: reveal all, sacrifices first, then every other instruction on the played cards."""
    state = settle_follows(state)
    victims, killers = sacrifices(state)  # (reads where the tokens are, not the phase or the faces)
    # Cards that barred moving or playing have had their action phase.
    state = state.but(phase=Phase.RESOLVE,
        played=tuple(p if p.revealed else p.face_up() for p in state.played),
        no_move=frozenset(),
        no_play=frozenset(),
        moved=frozenset(),
        killers=killers,
    )
    state = sacrifice(state, victims)
    for played in state.played:  # cards of sacrificed players still count
        card = state.cards.cards[played.card]
        if card.kind in PLAYED_EFFECT_KINDS:
            state = follow_card(state, card, played.by, played.target, played.room)
    if not state.alive:
        return game_over(state, won=False)
    return state

