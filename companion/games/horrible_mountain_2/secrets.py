"""What Horrible Mountain 2 hides (:class:`~companion.contract.secrets.Secrets`): the hands and the Draw Pile.

Hands are dealt and drawn face down and laid open only when the game ends (HM2-SCORE-HAND); the
Draw Pile is face down. The Table Cards lie face up, and every card of the Discard Pile was laid
there face up by a public move. The Evil Master also knows the adventurer's hand as he examined it.
A card goes by its id (``4C``) and by its label on a page (``4♣``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from .cards import DECK
from .entry import card_label
from .state import EVIL, Phase, State

NAMES: Mapping[str, str] = {**{c: c for c in DECK}, **{card_label(c): c for c in DECK}}


class HiddenCards:
    def names(self, state: State) -> Mapping[str, str]:
        return NAMES

    def public(self, state: State) -> frozenset[str]:
        # After the adventurer's secret search the table cannot tell which card left the Discard
        # Pile: it still counts the card taken among the pile's (State.discard_as_seen).
        seen = frozenset(state.table) | state.discard_as_seen(EVIL) | frozenset(state.laid)
        if state.phase is Phase.OVER:
            seen |= state.hands[0] | state.hands[1]
        return seen

    def known(self, state: State, player: str) -> frozenset[str]:
        seat = state.seat(player)
        if seat is None:
            return self.public(state)
        seen = self.public(state) | state.hands[seat] | state.discard_as_seen(seat)
        if seat == EVIL and state.examined is not None:
            seen |= frozenset(state.examined)
        return seen

    def twin(self, state: State, player: str) -> State | None:
        """A card of the other hand that ``player`` has not seen traded with one of the Draw Pile."""
        seat = state.seat(player)
        if state.phase is Phase.OVER or not state.draw_pile:
            return None
        unseen = frozenset(DECK) - self.known(state, player)
        for other, hand in enumerate(state.hands):
            if other == seat or not hand & unseen:
                continue
            give, take = min(hand & unseen), min(state.draw_pile)
            hands = list(state.hands)
            hands[other] = hand - {give} | {take}
            return dataclasses.replace(state, hands=(hands[0], hands[1]), draw_pile=state.draw_pile - {take} | {give})
        return None


SECRETS = HiddenCards()
