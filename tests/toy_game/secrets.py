"""What the toy game hides (:class:`~companion.contract.secrets.Secrets`): the card each ``peek`` looked at.

A peek is made in secret: only the player who peeked knows the card (``peek.card`` is a hidden field,
and the view shows each player their own peeks only). A card goes by its name, ``ace`` or ``king``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from .engine import State

CARDS = ("ace", "king")


class HiddenPeeks:
    def names(self, state: State) -> Mapping[str, str]:
        return {c: c for c in CARDS}

    def public(self, state: State) -> frozenset[str]:
        return frozenset()

    def known(self, state: State, player: str) -> frozenset[str]:
        return frozenset(card for by, card in state.secrets if by == player)

    def twin(self, state: State, player: str) -> State | None:
        """Another player's peek at the other card."""
        for i, (by, card) in enumerate(state.secrets):
            if by != player:
                other = next(c for c in CARDS if c != card)
                return dataclasses.replace(state, secrets=state.secrets[:i] + ((by, other),) + state.secrets[i + 1 :])
        return None


SECRETS = HiddenPeeks()
