"""Escape House's draw from the discard pile, narrowed tap by tap (issue 26, hole 3).

A 21-card pile has 3,990 ways to look at three cards and keep one. The builder no longer judges them
all on every tap: the game lists one draw per card that may be looked at next until the cards tapped
leave few enough (:func:`companion.games.escape_house.entry.discard_draws`). The offers must be the
very ones the builder gave when every draw was listed and judged: the game as it was is kept here
as the oracle, the real engine with every draw proposed.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from itertools import combinations
from typing import Any

import pytest

from companion.core import JsonObject, Move
from companion.contract.game import Narrowed
from companion.entry.builder import Builder, Draft
from companion.games.escape_house import GAME
from companion.games.escape_house.engine import EscapeHouse
from companion.games.escape_house.entry import may_draw_discard
from companion.games.escape_house.moves import DrawDiscard
from companion.games.escape_house.state import State
from tests.games.test_escape_house_support import A, B, PLAYERS, new


class EveryDraw(EscapeHouse):
    """The engine with every draw from the discard pile proposed whole, as before the narrowing."""

    def candidates(self, state: State, by: str | None) -> Iterator[Move]:
        yield from (m for m in super().candidates(state, by) if not isinstance(m, DrawDiscard))
        if by is not None and by in state.where and may_draw_discard(state, by):
            pile = sorted(set(state.discard) - state.credit_seen.get(by, frozenset()))
            for seen in combinations(pile, min(3, len(pile))):
                for keep in seen:
                    yield DrawDiscard(by=by, seen=seen, keep=keep)

    def narrowed(self, state: State, by: str | None, verb: str, given: Mapping[str, Any]) -> Narrowed | None:
        return None


ORACLE = EveryDraw()


def pile_of(size: int, credit_seen: int = 0) -> State:
    """A house whose discard pile holds ``size`` cards taken from the room decks, and anna may draw one
    from it (``credit_seen``: she has already looked at that many of them for this effect)."""
    state = new()
    pile = [c for room in state.rooms for c in state.decks[room]][:size]
    assert len(pile) == size
    decks = {room: tuple(c for c in cards if c not in pile) for room, cards in state.decks.items()}
    seen = {A: frozenset(pile[:credit_seen])} if credit_seen else {}
    return state.but(decks=decks, discard=tuple(pile), draw_credit={A: 1}, credit_seen=seen)


def drafts(state: State, by: str) -> Iterator[JsonObject]:
    """The drafts of a draw tapped in card by card, and some a page may send out of turn."""
    pile = sorted(set(state.discard) - state.credit_seen.get(by, frozenset()))
    others = sorted(set(state.discard) & state.credit_seen.get(by, frozenset())) + ["front-door", "no-such-card"]
    yield {}
    yield {"verb": "draw_discard"}
    for n in range(1, min(3, len(pile)) + 1):
        yield {"verb": "draw_discard", "fields": {"seen": pile[:n]}}
        yield {"verb": "draw_discard", "fields": {"seen": pile[-n:]}, "every": True}
    seen = pile[:3]
    yield {"verb": "draw_discard", "fields": {"seen": seen}, "closed": ["seen"]}
    yield {"verb": "draw_discard", "fields": {"seen": pile[:1]}, "closed": ["seen"]}  # finished too early
    yield {"verb": "draw_discard", "fields": {"seen": seen, "keep": seen[-1]}, "closed": ["seen"]}
    yield {"verb": "draw_discard", "fields": {"seen": [others[0]]}}  # a card that is not there to see
    yield {"verb": "draw_discard", "fields": {"seen": pile[:2] + [others[-1]]}}
    yield {"verb": "draw_discard", "fields": {"keep": pile[4 % len(pile)]}}  # out of order: keep first
    yield {"verb": "draw_discard", "fields": {"seen": pile[:1], "keep": pile[-1]}}


@pytest.mark.parametrize("size,credit_seen", [(21, 0), (21, 6), (9, 0), (4, 0), (3, 0), (2, 0), (1, 0)])
@pytest.mark.parametrize("viewer", [None, A, B])
def test_a_narrowed_draw_offers_what_every_draw_judged_offered(size: int, credit_seen: int, viewer: str | None) -> None:
    state = pile_of(size, credit_seen)
    for draft in drafts(state, A):
        narrowed = Builder(GAME, state, PLAYERS, viewer).offer(Draft.from_json(draft, A)).to_json()
        whole = Builder(ORACLE, state, PLAYERS, viewer).offer(Draft.from_json(draft, A)).to_json()
        assert narrowed == whole, draft


def test_a_21_card_pile_is_not_listed_whole() -> None:
    """The first taps get one draw per card that may be seen next; the third lists the few that are left."""
    state = pile_of(21)
    first = GAME.narrowed(state, A, "draw_discard", {})
    assert first is not None and not first.whole and len(first.moves) == 21
    second = GAME.narrowed(state, A, "draw_discard", {"seen": [sorted(state.discard)[0]]})
    assert second is not None and not second.whole and len(second.moves) == 20
    third = GAME.narrowed(state, A, "draw_discard", {"seen": sorted(state.discard)[:2]})
    assert third is not None and third.whole and len(third.moves) == 19 * 3
    assert sum(1 for m in GAME.candidates(state, A) if isinstance(m, DrawDiscard)) == 21
    assert sum(1 for m in ORACLE.candidates(state, A) if isinstance(m, DrawDiscard)) == 3990
