"""What Escape Master hides (:class:`~companion.contract.secrets.Secrets`): the hands, the history piles and
the draw pile.

Cards are dealt and drawn face down; a player sees their own hand and history pile, and in Escape
Alliance their teammate's hand (EM-ALLIANCE). Whatever is played lies face up: the central piles
(every card of them, laid in sight), half combinations, traps on the action piles, the Doom pile.
When a round ends the hands are counted face up (``end_round`` names them).
"""

from __future__ import annotations

from collections.abc import Mapping

from .state import Phase, State, put, replace

COUNTED = (Phase.ROUND_OVER, Phase.GAME_OVER)
"""Phases in which the round's hands lie open, as they were counted."""


def seen_by(state: State, seat: int) -> frozenset[str]:
    """Every card of this round that seat ``seat`` has seen: its own hand and history, its teammate's
    hand, and whatever lies face up."""
    rnd = state.rnd
    seen = set(rnd.hands[seat]) | set(rnd.histories[seat])
    mate = state.table.mate(seat)
    if mate is not None:
        seen |= rnd.hands[mate]
    return frozenset(seen) | _face_up(state)


def _face_up(state: State) -> frozenset[str]:
    rnd = state.rnd
    seen: set[str] = set()
    for pile in rnd.piles:
        seen.update(pile.cards)
        if pile.pending is not None:
            seen.add(pile.pending.card)
    for action in rnd.actions:
        seen.update(action)
    return frozenset(seen)


class HiddenCards:
    def names(self, state: State) -> Mapping[str, str]:
        return {c: c for c in state.table.cards}

    def public(self, state: State) -> frozenset[str]:
        seen = _face_up(state) | frozenset(state.doom_pile)
        if state.phase in COUNTED:
            seen = seen.union(*state.rnd.hands)
        return seen

    def known(self, state: State, player: str) -> frozenset[str]:
        seat = state.table.seat.get(player)
        if seat is None:
            return self.public(state)
        return self.public(state) | seen_by(state, seat)

    def twin(self, state: State, player: str) -> State | None:
        """A card of another player's hand (not a teammate's) traded with one of the draw pile."""
        rnd = state.rnd
        if state.phase in COUNTED or not rnd.draw_pile:
            return None
        unseen = frozenset(state.table.cards) - self.known(state, player)
        for other, hand in enumerate(rnd.hands):
            if not hand & unseen:
                continue
            give, take = min(hand & unseen), min(rnd.draw_pile)
            hands = put(rnd.hands, other, hand - {give} | {take})
            return state.with_round(replace(rnd, hands=hands, draw_pile=rnd.draw_pile - {take} | {give}))
        return None


SECRETS = HiddenCards()
