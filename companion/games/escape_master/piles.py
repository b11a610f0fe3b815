"""What fits on a pile: up or down by one whatever the suit, K and 1 wrap, Wisdom wild, traps
restricting the direction, and the two kinds of combination."""

from __future__ import annotations

import itertools
import logging

from companion.core import Verdict
from . import rules as R
from .cards import VALUE_RANK, Card, Kind
from .data import AbilityData
from .options import EscapeMasterOptions
from .state import NO_PILE, WILD, State

logger = logging.getLogger(__name__)

UP = "up"
DOWN = "down"


def _steps(top: int, direction: str | None) -> frozenset[int]:
    if direction == UP:
        return frozenset() if top == 13 else frozenset({top + 1})  # EM-TRAP-UP: never on a K
    if direction == DOWN:
        return frozenset() if top == 1 else frozenset({top - 1})  # EM-TRAP-DOWN: never on a 1
    return frozenset({1 if top == 13 else top + 1, 13 if top == 1 else top - 1})  # EM-PILE, K-1 wrap


STEPS: dict[tuple[int, str | None], frozenset[int]] = {
    (top, d): _steps(top, d) for top in range(1, 14) for d in (None, UP, DOWN)
}


def rank(value: int) -> str:
    return "a Wisdom" if value == WILD else f"{'an' if value == 8 else 'a'} {VALUE_RANK[value]}"


def direction(state: State, seat: int) -> str | None:
    """The direction a trap forces on ``seat`` (EM-TRAP-UP / EM-TRAP-DOWN), if any."""
    trap = state.rnd.lock[seat]
    if trap is None:
        return None
    return UP if state.table.cards[trap].kind is Kind.TRAP_UP else DOWN


def value_fits(value: int, top: int, way: str | None) -> bool:
    if top == WILD:
        return True
    if top == NO_PILE:
        return False
    return value in STEPS[(top, way)]


def single_fits(card: Card, top: int, way: str | None, options: EscapeMasterOptions) -> bool:
    """May ``card`` go where the top is ``top`` (a value, WILD, or NO_PILE for a free place)?"""
    kind = card.kind
    if top == NO_PILE:
        return kind is Kind.START or kind is Kind.WISDOM  # EM-NEW-PILE
    if kind is Kind.NUMBER or kind is Kind.DOOM:
        assert card.value is not None
        return value_fits(card.value, top, way)
    if kind is Kind.WISDOM:
        return top != WILD or options.wisdom_on_wisdom  # EM-WISDOM
    if kind is Kind.DEAD_END:
        return True
    if kind is Kind.START:
        return options.start_card_on_pile and value_fits(7, top, way)  # EM-START-CARD
    return False


def misfit(card: Card, top: int, way: str | None, player: str, pile: int, options: EscapeMasterOptions) -> Verdict:
    """Why ``card`` does not go on pile ``pile`` with top ``top`` (which it does not fit)."""
    fix = f"take the {card.name} back into your hand"
    kind = card.kind
    if kind is Kind.START:
        return Verdict.illegal(R.START_CARD, f"a start card starts a new pile; it cannot go on pile {pile}", fix)
    if kind is Kind.WISDOM:
        return Verdict.illegal(R.WISDOM, f"a Wisdom cannot go on a Wisdom (pile {pile})", fix)
    assert card.value is not None
    return value_misfit(card.value, top, way, player, pile, fix)


def value_misfit(value: int, top: int, way: str | None, player: str, pile: int, fix: str) -> Verdict:
    if way is not None and value in STEPS[(top, None)]:
        rule = R.TRAP_UP if way == UP else R.TRAP_DOWN
        word = "ascending" if way == UP else "descending"
        allowed = STEPS[(top, way)]
        if not allowed:
            why = f"{player} is on an {word}-only trap and may not play on {rank(top)} (pile {pile})"
        else:
            why = f"{player} is on an {word}-only trap: on {rank(top)} only {rank(min(allowed))} may go (pile {pile})"
        return Verdict.illegal(rule, why, fix)
    options = " or ".join(VALUE_RANK[v] for v in sorted(STEPS[(top, None)]))
    return Verdict.illegal(
        R.PILE, f"{rank(value)} cannot go on {rank(top)} (pile {pile}); play {options}, or a Wisdom", fix
    )


def combo_shape(a: Card, b: Card, ability: AbilityData | None, beast: bool) -> Verdict | None:
    """Is (a, b) a combination at all (EM-COMBO-DOOM, EM-ONE-CARD, EM-COMBO)? None if it is."""
    if a.kind is Kind.DOOM or b.kind is Kind.DOOM:
        return Verdict.illegal(
            R.COMBO_DOOM, "a Doom Master card is never part of a combination", "take both cards back into your hand"
        )
    if a.kind is not Kind.NUMBER or b.kind is not Kind.NUMBER:
        return Verdict.illegal(
            R.ONE_CARD, f"{a.name} and {b.name} are no combination: only numbered cards combine; one card at a time",
            "take both cards back into your hand",
        )
    assert a.value is not None and b.value is not None
    if a.value <= 5 and b.value <= 5:
        if a.suit == b.suit:
            return None
        if ability is not None and ability.key == "teen_combos":
            if beast or ability.suit in (a.suit, b.suit):  # EM-LEADER: the Teen leader's combinations
                return None
        return Verdict.illegal(
            R.COMBO, f"{a.name} and {b.name} are not of the same suit, so they do not combine",
            "take both cards back into your hand",
        )
    if a.value >= 11 and b.value >= 11:
        if a.value == b.value:
            return None
        return Verdict.illegal(
            R.COMBO, f"{a.name} and {b.name} are not the same letter, so they do not combine",
            "take both cards back into your hand",
        )
    return Verdict.illegal(
        R.ONE_CARD, f"{a.name} and {b.name} are no combination (two 1-5 cards of a suit, or two equal face cards); "
        "one card at a time", "take both cards back into your hand",
    )


def combo_value(a: Card, b: Card) -> int:
    """The value a combination is played as: the sum of two 1-5 cards, or the face cards' value."""
    assert a.value is not None and b.value is not None
    return a.value if a.value >= 11 else a.value + b.value


def combo_misfit(a: Card, b: Card, top: int, way: str | None, player: str, pile: int) -> Verdict:
    value = combo_value(a, b)
    fix = "take both cards back into your hand"
    if top == WILD:  # pragma: no cover - anything fits a Wisdom
        raise AssertionError("a combination always fits a Wisdom")
    verdict = value_misfit(value, top, way, player, pile, fix)
    if verdict.rules == (R.PILE,) and a.value is not None and a.value <= 5:
        return Verdict.illegal(R.COMBO, f"{a.name} and {b.name} add up to {value}, which does not go on "
                               f"{rank(top)} (pile {pile})", fix)
    return verdict


def ability(state: State, seat: int) -> AbilityData | None:
    """The Escape Leader ability seat ``seat`` has this round (None if none, or lost to Story card 6)."""
    if state.mods.lost[seat]:
        return None
    return state.table.leader_data.ability(state.leaders[seat])


def has_playable(state: State, seat: int) -> bool:
    """Does ``seat`` hold a card it could play now (a numbered card, Wisdom, start card or combination)?"""
    table = state.table
    rnd = state.rnd
    hand = rnd.hands[seat]
    if not hand:
        return False
    way = direction(state, seat)
    values: set[int] = set()
    wild = False
    for pile in rnd.piles:
        if pile.open:
            if pile.top == WILD:
                wild = True
            else:
                values |= STEPS[(pile.top, way)]
    low: list[Card] = []
    for name in hand:
        card = table.cards[name]
        kind = card.kind
        if kind is Kind.WISDOM:
            return True
        if kind is Kind.START and table.options.start_card_blocks_draw:
            return True
        if kind is Kind.NUMBER or kind is Kind.DOOM:
            assert card.value is not None
            if wild or card.value in values:
                return True
            if kind is Kind.NUMBER and card.value <= 5:
                low.append(card)
    if len(low) >= 2 and values:
        power = ability(state, seat)
        beast = state.mods.beast[seat]
        for a, b in itertools.combinations(low, 2):
            if combo_shape(a, b, power, beast) is None and combo_value(a, b) in values:
                return True
    return False
