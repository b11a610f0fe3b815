"""``apply``: the state after a legal move. Small, allocation-light updates with ``evolve``."""

from __future__ import annotations

from .cards import sort_cards
from .moves import (
    Dealt,
    ClaimCube,
    Discard,
    Draw,
    Examine,
    Half,
    Lift,
    Place,
    SearchDiscard,
    Swap,
    SwapCubes,
    TakeDiscard,
    TakeTable,
    Withdraw,
)
from .setup import HAND_SIZE
from .state import ADVENTURER, EVIL, Phase, State, evolve, unlaid

HAND_LIMIT = 5
LAST_EXHAUSTION = 3
"""HM2-GAME-END: the game ends at the end of the turn in which the Draw Pile runs out for the third time."""


def _pair(values: tuple[frozenset[str], frozenset[str]], seat: int, new: frozenset[str]) -> tuple[frozenset[str], frozenset[str]]:
    return (new, values[1]) if seat == EVIL else (values[0], new)


def _end_turn(state: State) -> State:
    """After the action (and its discard): HM2-GAME-END, else the other player's turn (HM2-TURN)."""
    return evolve(state, **_turn_over(state, state.exhausted))


def _turn_over(state: State, exhausted: int) -> dict[str, object]:
    """``_end_turn``'s changes, the Draw Pile having run out ``exhausted`` times."""
    if exhausted >= LAST_EXHAUSTION:
        return {"phase": Phase.OVER, "must_discard": False, "turns": state.turns + 1}
    return {"turn": 1 - state.turn, "must_discard": False, "turns": state.turns + 1}


def _after_taking(state: State) -> State:
    """HM2-HAND-LIMIT: a sixth card in hand means discard now; otherwise the turn is over."""
    if len(state.hands[state.turn]) > HAND_LIMIT:
        return evolve(state, must_discard=True)
    return _end_turn(state)


def _take_from_draw_pile(state: State, card: str) -> State:
    """Take ``card`` off the Draw Pile; if that empties it, reshuffle the Discard Pile (HM2-RESHUFFLE).

    A sixth-card discard still to come is made after this, so it starts the new Discard Pile.
    """
    return evolve(state, **_draw_pile_without(state, card))


def _draw_pile_without(state: State, card: str) -> dict[str, object]:
    """``_take_from_draw_pile``'s changes."""
    pile = state.draw_pile - {card}
    if pile:
        return {"draw_pile": pile}
    return {
        "draw_pile": state.discard_cards(),
        "discard": (),
        "discard_unordered": frozenset(),
        "exhausted": state.exhausted + 1,
    }


def _known_if_single(state: State) -> State:
    """A Discard Pile of one card of unknown order is a known top card."""
    if not state.discard and len(state.discard_unordered) == 1:
        return evolve(state, discard=tuple(state.discard_unordered), discard_unordered=frozenset())
    return state


def _discard(state: State, seat: int, cards: tuple[str, ...]) -> State:
    """Cards from hand face up onto the Discard Pile, in order (the last on top; HM2-DISCARD-PILE)."""
    return evolve(
        state,
        hands=_pair(state.hands, seat, state.hands[seat].difference(cards)),
        discard=state.discard + cards,
    )


def settled(state: State) -> State:
    """Every state change ends here (engine.apply): the secretly searched card is forgotten once it
    is out in the open again."""
    if state.searched is not None and state.searched not in state.hands[ADVENTURER]:
        return evolve(state, searched=None)
    return state


# -- one function per verb (engine.MOVES); the acting seat is the turn's, as check() made sure ----


def draw(state: State, move: Draw) -> State:
    # _take_from_draw_pile, the card into hand and _after_taking, in one evolve (the commonest move)
    seat = state.turn
    changes = _draw_pile_without(state, move.card)
    hand = state.hands[seat] | {move.card}
    changes["hands"] = _pair(state.hands, seat, hand)
    if len(hand) > HAND_LIMIT:
        changes["must_discard"] = True
    else:
        changes.update(_turn_over(state, state.exhausted + 1 if "exhausted" in changes else state.exhausted))
    return evolve(state, **changes)


def discard(state: State, move: Discard) -> State:
    seat = state.turn  # _discard and _end_turn in one evolve
    return evolve(
        state,
        hands=_pair(state.hands, seat, state.hands[seat] - {move.card}),
        discard=state.discard + (move.card,),
        **_turn_over(state, state.exhausted),
    )


def swap(state: State, move: Swap) -> State:
    # HM2-CUBE-SLOT / HM2-GAP-CUBE: the cube stays on the slot, now on top of the new card.
    seat = state.turn
    index = move.slot - 1
    old = state.table[index]
    table = state.table[:index] + (move.card,) + state.table[index + 1 :]
    hands = _pair(state.hands, seat, (state.hands[seat] - {move.card}) | {old})
    return _end_turn(evolve(state, table=table, hands=hands))


def take_table(state: State, move: TakeTable) -> State:
    seat = state.turn
    slot = state.slot_of_cube(move.cube)
    assert slot is not None  # every colour sits on a slot once play begins (HM2-CUBE-SLOT)
    index = slot - 1
    taken = state.table[index]
    state = evolve(
        state,
        control=_pair(state.control, seat, state.control[seat] - {move.cube}),
        cube_pile=state.cube_pile | {move.cube},
        hands=_pair(state.hands, seat, state.hands[seat] | {taken}),
        table=state.table[:index] + (move.replacement,) + state.table[index + 1 :],
    )
    return _after_taking(_take_from_draw_pile(state, move.replacement))


def take_discard(state: State, move: TakeDiscard) -> State:
    seat = state.turn
    hand = state.hands[seat]
    if state.discard:
        card = state.discard[-1]
        state = evolve(state, discard=state.discard[:-1])
    else:
        assert move.card is not None  # check() demands the card when the order is unknown
        card = move.card
        state = _known_if_single(evolve(state, discard_unordered=state.discard_unordered - {card}))
    state = evolve(
        state,
        control=_pair(state.control, seat, state.control[seat] - {move.cube}),
        cube_pile=state.cube_pile | {move.cube},
        hands=_pair(state.hands, seat, hand | {card}),
        lifted=None,
        lifted_t=None,
    )
    return _after_taking(state)


def half(state: State, move: Half) -> State:
    seat = state.turn
    return evolve(
        state,
        hands=_pair(state.hands, seat, state.hands[seat] - {move.card}),
        laid=state.laid + (move.card,),
        laid_t=state.laid_t if state.laid else move.t,
    )


def lift(state: State, move: Lift) -> State:
    return evolve(state, lifted=move.card, lifted_t=move.t)


def withdraw(state: State, move: Withdraw) -> State:
    if move.card == state.lifted:  # it never left the Discard Pile here
        return evolve(state, lifted=None, lifted_t=None)
    seat = state.turn
    laid = tuple(c for c in state.laid if c != move.card)
    return evolve(
        state,
        hands=_pair(state.hands, seat, state.hands[seat] | {move.card}),
        laid=laid,
        laid_t=state.laid_t if laid else None,
    )


def swap_cubes(state: State, move: SwapCubes) -> State:
    state = unlaid(state)  # the cards put down so far come from the hand with the rest
    first, second = move.slots[0] - 1, move.slots[1] - 1
    cubes = list(state.slot_cubes)
    cubes[first], cubes[second] = cubes[second], cubes[first]
    return _end_turn(evolve(_discard(state, state.turn, move.cards), slot_cubes=tuple(cubes)))


def claim_cube(state: State, move: ClaimCube) -> State:
    state = unlaid(state)
    seat = state.turn
    state = _discard(state, seat, move.cards)
    state = evolve(
        state,
        cube_pile=state.cube_pile - {move.cube},
        control=_pair(state.control, seat, state.control[seat] | {move.cube}),
    )
    return _end_turn(state)


def place(state: State, move: Place) -> State:
    seat = state.turn
    cubes = list(state.slot_cubes)
    for colour, slot in zip(state.colours[seat], move.slots):
        cubes[slot - 1] = colour
    if seat == ADVENTURER:
        return evolve(state, slot_cubes=tuple(cubes), turn=EVIL)
    # Setup done: the Evil Master goes first (HM2-SETUP-ROLES, HM2-TURN).
    return evolve(state, slot_cubes=tuple(cubes), turn=EVIL, phase=Phase.PLAY)


def examine(state: State, move: Examine) -> State:
    seen = tuple(sort_cards(state.hands[ADVENTURER]))
    return _end_turn(evolve(state, used_once=state.used_once | {state.turn}, examined=seen))


def search_discard(state: State, move: SearchDiscard) -> State:
    seat = state.turn
    hand = state.hands[seat]
    pile = state.discard_cards() - {move.card}
    if move.order is not None:
        state = evolve(state, discard=tuple(reversed(move.order)), discard_unordered=frozenset())
    else:
        state = _known_if_single(evolve(state, discard=(), discard_unordered=pile))
    state = evolve(state, used_once=state.used_once | {seat}, hands=_pair(state.hands, seat, hand | {move.card}),
                   searched=move.card)
    return _after_taking(state)


def dealt(state: State, move: Dealt) -> State:
    """One dealt card into its player's hand; with both hands in, the cubes are placed (adventurer first)."""
    seat = state.seat(move.by)
    assert seat is not None  # checked
    hands = _pair(state.hands, seat, state.hands[seat] | {move.card})
    state = evolve(state, hands=hands, draw_pile=state.draw_pile - {move.card})
    if all(len(hand) == HAND_SIZE for hand in hands):
        state = evolve(state, phase=Phase.PLACE, turn=ADVENTURER)
    return state
