"""What a game hides, and from whom: the declaration of its hidden information (``GameSpec.secrets``).

DESIGN.md: hidden cards stay hidden. The pages only ever show what ``Game.view`` and
``Game.scoreboard`` give, what the move builder offers and what the public log carries; a game says
here, from its own state, what each of those may name, so that one contract test
(tests/contract/test_hidden.py) checks every registered game the same way:

- every name a secret value may go by on a page (a card's id, Horrible Mountain 2's label "4♣",
  an Everest plan as the notation spells it), to the value's id;
- which of those values a player may know now (the cards in their hand, on the table face up, ...),
  and which anyone watching may know (the public board and log);
- a *twin*: a state that a given player cannot tell apart from this one, differing only in what
  that player cannot see (a card swapped between another hand and a face-down pile, another
  player's plan changed). The player's page must not tell the two apart either.

A secret is named by its id; two secrets that read alike on a page (two plans with the same coins)
share one id, so a player who knows one knows the words of the other.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol, TypeVar

S = TypeVar("S")


class Secrets(Protocol[S]):
    """A game's hidden information, read from its state (a pure function of it, like the views)."""

    def names(self, state: S) -> Mapping[str, str]:
        """Every name a secret value (a card, a plan) may go by on a page, to the value's id.

        A name is matched as a whole word in the canonical JSON of a page (``teen-1`` is not inside
        ``teen-10``), so a name is spelled as that JSON spells it."""
        ...

    def known(self, state: S, player: str) -> frozenset[str]:
        """The ids of the values ``player`` may know now: what they hold or see, and what is public."""
        ...

    def public(self, state: S) -> frozenset[str]:
        """The ids of the values anyone watching may know now (the public board and log): known to
        every player as well."""
        ...

    def twin(self, state: S, player: str) -> S | None:
        """A state ``player`` cannot tell apart from ``state`` (it differs only in values hidden from
        them), or None when the state has none (nothing hidden from them that could be otherwise)."""
        ...
