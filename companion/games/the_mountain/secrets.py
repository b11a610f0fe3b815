"""What The Mountain hides (:class:`~companion.contract.secrets.Secrets`): the face-down stock.

A solitaire: the player knows every card but those of the stock (GAME.md, ``draw``: the hand, the
mountain, the health pile and the discard pile they laid there), and every move names its cards in
the public log, so anyone watching knows as much. The stock's order is unknown to everyone, the
engine too (it holds the stock as a set), so no state differs from another only in what the player
cannot see: there is no twin.
"""

from __future__ import annotations

from collections.abc import Mapping

from .cards import DECK
from .state import MountainState

NAMES: Mapping[str, str] = {c: c for c in DECK}


class HiddenCards:
    def names(self, state: MountainState) -> Mapping[str, str]:
        return NAMES

    def public(self, state: MountainState) -> frozenset[str]:
        return frozenset(state.hand) | frozenset(state.health) | frozenset(state.discard) | {c for c in state.mountain if c is not None}

    def known(self, state: MountainState, player: str) -> frozenset[str]:
        return self.public(state)

    def twin(self, state: MountainState, player: str) -> MountainState | None:
        return None


SECRETS = HiddenCards()
