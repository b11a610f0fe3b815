"""``check``: is a move legal here? Pure and side-effect free; every refusal cites its rule ids."""

from __future__ import annotations

from itertools import combinations

from companion.core import Move, Verdict
from companion.contract.dispatch import Check
from companion.contract.players import not_a_player
from . import rules as R
from .cards import CENTRE_SLOT, PLACE_PAIRS, SLOTS, rank
from .moves import (
    ClaimCube,
    Dealt,
    Discard,
    Draw,
    Half,
    Place,
    SearchDiscard,
    Swap,
    SwapCubes,
    TakeDiscard,
    TakeTable,
    Withdraw,
)
from .setup import HAND_SIZE
from .state import ADVENTURER, EVIL, Phase, State, public_place, unlaid

_LEGAL = Verdict.legal()


def check(state: State, move: Move, verb: Check[State]) -> Verdict:
    """What every move must pass (a player, the setup steps in order, the turn, a sixth card
    discarded at once), then ``verb``, the check of the move's own verb (engine.MOVES)."""
    refused = not_a_player(R.TURN, state.names, move)
    if refused is not None:
        return refused
    if state.phase is Phase.DEAL or isinstance(move, Dealt):
        return check_dealt(state, move)
    if state.phase is Phase.PLACE:
        return check_place(state, move)
    if isinstance(move, Place):
        return Verdict.illegal(
            R.PLACE_ORDER, "the cubes were placed at setup; placing is not an action", "put the cubes back as they were"
        )
    if state.seat(move.by) != state.turn:
        return Verdict.illegal(
            R.TURN,
            f"it is {state.current}'s turn, not {move.by}'s",
            f"{move.by}: undo that and wait for your turn",
        )
    if state.must_discard and not isinstance(move, Discard):
        return Verdict.illegal(
            R.HAND_LIMIT,
            f"{move.by} holds six cards and must discard one immediately, before anything else",
            "undo that and discard one card onto the Discard Pile",
        )
    if state.laid and not isinstance(move, (Half, Withdraw, SwapCubes, ClaimCube)):
        laid = " and ".join(state.laid)
        return Verdict.illegal(
            R.WHOLE_ACTION,
            f"{move.by} has put {laid} on the Discard Pile for Swap Cubes or Claim a Cube and must finish that action first",
            f"undo that; {move.by}: finish the action begun with {laid}, or take {laid} back into your hand",
        )
    if state.lifted is not None and not isinstance(move, (TakeDiscard, Withdraw)):
        return Verdict.illegal(
            R.WHOLE_ACTION,
            f"{move.by} has taken {state.lifted} from the Discard Pile and must pay a Control Cube for it first",
            f"undo that; {move.by}: put the Control Cube you pay in the Cube Pile, or {state.lifted} back on the Discard Pile",
        )
    return verb(state, move)


# -- setup steps 5-6 -----------------------------------------------------------------------------


def check_dealt(state: State, move: Move) -> Verdict:
    """HM2-SETUP-HANDS at a live table: each player taps the three cards dealt to them, first of all."""
    seat = state.seat(move.by)
    assert seat is not None  # check() asked first
    if not isinstance(move, Dealt):
        short = ", ".join(state.names[s] for s in (ADVENTURER, EVIL) if len(state.hands[s]) < HAND_SIZE)
        return Verdict.illegal(R.SETUP_HANDS, f"the hands are dealt first: {short} still to tap their cards in",
                               "undo that; each player taps the three cards dealt to them")
    if state.phase is not Phase.DEAL:
        return Verdict.illegal(R.SETUP_HANDS, "the hands were dealt at setup; a card taken later is drawn", "undo that")
    if len(state.hands[seat]) >= HAND_SIZE:
        return Verdict.illegal(R.SETUP_HANDS, f"{move.by} already holds the three cards of a starting hand",
                               "give the card back to the dealer")
    if move.card not in state.draw_pile:
        # Never say where it is: it may be in the other player's hand.
        return Verdict.illegal(R.SETUP_CARDS, f"{move.card} is not a card {move.by} could have been dealt",
                               "check the card and tap the one you hold")
    return Verdict.legal()


def check_place(state: State, move: Move) -> Verdict:
    seat = state.seat(move.by)
    if not isinstance(move, Place):
        return Verdict.illegal(
            R.PLACE_ORDER,
            f"the cubes are placed first: {state.current} places two cubes before any action",
            "undo that; " + state.current + " places two cubes on the 2 and 6 or the 3 and 5",
        )
    if seat != state.turn:
        first = "the unwitting adventurer places first" if seat == EVIL else "the adventurer has placed already"
        return Verdict.illegal(R.PLACE_ORDER, f"{first}; it is {state.current}'s turn to place", "take those cubes back")
    slots = frozenset(move.slots)
    if slots not in PLACE_PAIRS:
        listed = " and ".join(str(s) for s in move.slots)
        return Verdict.illegal(
            R.PLACE_SLOTS,
            f"cubes go on the 2 and 6 (slots 1 and 5) or the 3 and 5 (slots 2 and 4), not on slots {listed}",
            "move the two cubes to slots 1 and 5, or 2 and 4",
        )
    occupied = [s for s in move.slots if state.slot_cubes[s - 1] is not None]
    if occupied:
        slot = occupied[0]
        return Verdict.illegal(
            R.PLACE_FREE,
            f"slot {slot} already has the {state.slot_cubes[slot - 1]} cube; place on the Table Cards without cubes",
            "move your two cubes to the pair of slots that is still empty",
        )
    if CENTRE_SLOT in slots:  # pragma: no cover - slot 3 is in no placing pair
        return Verdict.illegal(R.PLACE_FREE, "the 4 already has the centre cube", "take your cube off the 4")
    return _LEGAL


# -- the six actions -----------------------------------------------------------------------------


def check_draw(state: State, move: Move) -> Verdict:
    assert isinstance(move, Draw)
    return _from_draw_pile(state, move.card, R.DRAW)


def _from_draw_pile(state: State, card: str, rule: str) -> Verdict:
    if card in state.draw_pile:
        return _LEGAL
    if not state.draw_pile:
        return Verdict.illegal(
            (rule, R.WHOLE_ACTION), "the Draw Pile is empty", f"put {card} back where it came from and choose another action"
        )
    place = public_place(state, card)
    if card in state.discard_cards():
        return Verdict.illegal(
            (rule, R.RESHUFFLE),
            f"{card} cannot come from the Draw Pile: {place}, and is shuffled in only when the Draw Pile runs out",
            f"put {card} back on the Discard Pile and take the top card of the Draw Pile",
        )
    return Verdict.illegal(
        rule,
        f"{card} cannot come from the Draw Pile: {place}",
        f"put {card} back where it came from and take the top card of the Draw Pile",
    )


def check_swap(state: State, move: Move) -> Verdict:
    assert isinstance(move, Swap)
    seat = state.turn  # the acting player: check() made sure it is their turn
    if move.card not in state.hands[seat]:
        return Verdict.illegal(
            R.SWAP, f"{move.card} is not in {move.by}'s hand", f"put {move.card} back and swap a card from your hand"
        )
    under = state.table[move.slot - 1]
    if rank(under) != rank(move.card):
        return Verdict.illegal(
            R.SWAP,
            f"{move.card} can only be swapped with a Table Card of rank {rank(move.card)}; slot {move.slot} holds {under}",
            f"take {move.card} back into your hand and put {under} back on slot {move.slot}",
        )
    return _LEGAL


def _pay_cube(state: State, seat: int, cube: str, rule: str, name: str) -> Verdict:
    if cube in state.control[seat]:
        return _LEGAL
    owned = state.control[seat]
    held = f"{state.names[seat]}'s Control Cubes are {', '.join(sorted(owned))}" if owned else f"{state.names[seat]} has no Control Cubes"
    return Verdict.illegal(
        (rule, R.WHOLE_ACTION),
        f"to {name} you discard one of your Control Cubes, and {cube} is not one: {held}",
        f"put the {cube} cube back where it was and choose another action",
    )


def check_take_table(state: State, move: Move) -> Verdict:
    assert isinstance(move, TakeTable)
    seat = state.turn  # the acting player: check() made sure it is their turn
    paid = _pay_cube(state, seat, move.cube, R.TAKE_TABLE, "Take a Table Card")
    if not paid.ok:
        return paid
    return _from_draw_pile(state, move.replacement, R.TAKE_TABLE)


def check_take_discard(state: State, move: Move) -> Verdict:
    assert isinstance(move, TakeDiscard)
    seat = state.turn  # the acting player: check() made sure it is their turn
    if state.discard_size == 0:
        return Verdict.illegal(
            (R.TAKE_DISCARD, R.WHOLE_ACTION),
            "the Discard Pile is empty, so there is no discard to take",
            "put the cube back and choose another action",
        )
    paid = _pay_cube(state, seat, move.cube, R.TAKE_DISCARD, "Take a Discard")
    if not paid.ok:
        return paid
    if state.lifted is not None and move.card not in (None, state.lifted):
        return Verdict.illegal(
            R.TAKE_DISCARD,
            f"{state.lifted} is the card taken from the Discard Pile, not {move.card}",
            f"put {move.card} back and pay for {state.lifted}",
        )
    top = state.discard_top
    if top is not None:
        if move.card is not None and move.card != top:
            return Verdict.illegal(
                (R.TAKE_DISCARD, R.DISCARD_PILE),
                f"only the top card of the Discard Pile may be taken, and that is {top}, not {move.card}",
                f"put {move.card} back and take {top}",
            )
        return _LEGAL
    if move.card is None:
        return Verdict.illegal(
            R.TAKE_DISCARD,
            "the Discard Pile was reordered without saying how, so the move must name the card taken",
            "enter take_discard again with the card you took",
        )
    if move.card not in state.discard_unordered:
        return Verdict.illegal(
            R.TAKE_DISCARD,
            f"{move.card} cannot be the top of the Discard Pile: {public_place(state, move.card)}",
            f"put {move.card} back and take the top card of the Discard Pile",
        )
    return _LEGAL


def _finishing(state: State, cards: tuple[str, str], rule: str) -> tuple[State, Verdict]:
    """A Swap Cubes or Claim a Cube whose first cards already lie on the Discard Pile (``half``) names
    them first; it is judged as made from the hand they came from."""
    if not state.laid:
        return state, _LEGAL
    laid = state.laid
    if tuple(cards[: len(laid)]) != laid:
        shown = " and ".join(laid)
        return state, Verdict.illegal(
            (rule, R.WHOLE_ACTION),
            f"{shown} already lie{'s' if len(laid) == 1 else ''} on the Discard Pile for this action; the move names {'it' if len(laid) == 1 else 'them'} first",
            f"name {shown} first, or take {shown} back into your hand",
        )
    return unlaid(state), _LEGAL


def _two_from_hand(state: State, seat: int, cards: tuple[str, str], rule: str) -> Verdict:
    if cards[0] == cards[1]:
        return Verdict.illegal((rule, R.WHOLE_ACTION), f"this needs two cards, and {cards[0]} is named twice", "name two different cards")
    missing = [c for c in cards if c not in state.hands[seat]]
    if missing:
        return Verdict.illegal(
            (rule, R.WHOLE_ACTION),
            f"{missing[0]} is not in {state.names[seat]}'s hand; both discarded cards come from hand",
            f"take {missing[0]} back off the Discard Pile",
        )
    return _LEGAL


def check_swap_cubes(state: State, move: Move) -> Verdict:
    assert isinstance(move, SwapCubes)
    seat = state.turn  # the acting player: check() made sure it is their turn
    fix = "take the two cards back into your hand and put the cubes back as they were"
    state, laid = _finishing(state, move.cards, R.SWAP_CUBES)
    if not laid.ok:
        return laid
    held = _two_from_hand(state, seat, move.cards, R.SWAP_CUBES)
    if not held.ok:
        return held
    if move.slots[0] == move.slots[1]:
        return Verdict.illegal(R.SWAP_CUBES, f"cubes are swapped between two Table Cards, not slot {move.slots[0]} with itself", fix)
    # the two ranks as a multiset: sorted pairs compare as Counters would, without building them
    wanted = sorted([rank(c) for c in move.cards])
    under = sorted([state.slot_rank(s) for s in move.slots])
    if wanted != under:
        cards = " and ".join(move.cards)
        tables = " and ".join(f"{state.table[s - 1]} (slot {s})" for s in move.slots)
        return Verdict.illegal(
            R.SWAP_CUBES, f"the Table Cards must match the ranks of the discards {cards}, but they are {tables}", fix
        )
    return _LEGAL


def check_claim_cube(state: State, move: Move) -> Verdict:
    assert isinstance(move, ClaimCube)
    seat = state.turn  # the acting player: check() made sure it is their turn
    state, laid = _finishing(state, move.cards, R.CLAIM_CUBE)
    if not laid.ok:
        return laid
    if not state.cube_pile:
        return Verdict.illegal(
            (R.CLAIM_CUBE, R.WHOLE_ACTION), "the Cube Pile is empty, so there is no cube to claim", "take the two cards back"
        )
    if move.cube not in state.cube_pile:
        return Verdict.illegal(
            (R.CLAIM_CUBE, R.WHOLE_ACTION),
            f"the {move.cube} cube is not in the Cube Pile; it holds {', '.join(sorted(state.cube_pile))}",
            f"put the {move.cube} cube back and claim one from the Cube Pile",
        )
    held = _two_from_hand(state, seat, move.cards, R.CLAIM_CUBE)
    if not held.ok:
        return held
    if rank(move.cards[0]) != rank(move.cards[1]):
        return Verdict.illegal(
            R.CLAIM_CUBE,
            f"a cube is claimed with two cards of the same rank, not {move.cards[0]} and {move.cards[1]}",
            "take the two cards back into your hand",
        )
    return _LEGAL


def finishes(state: State, first: tuple[str, ...]) -> list[SwapCubes | ClaimCube]:
    """Every legal Swap Cubes and Claim a Cube of the player to act whose cards begin with ``first``
    (one card or both), made from the hand (``state`` with nothing laid)."""
    by = state.current
    seconds = [first[1]] if len(first) > 1 else sorted(state.hands[state.turn] - {first[0]})
    out: list[SwapCubes | ClaimCube] = []
    for second in seconds:
        cards = (first[0], second)
        for slots in combinations(SLOTS, 2):
            swap = SwapCubes(by=by, cards=cards, slots=slots)
            if check_swap_cubes(state, swap).ok:
                out.append(swap)
        for cube in sorted(state.cube_pile):
            claim = ClaimCube(by=by, cards=cards, cube=cube)  # type: ignore[arg-type]
            if check_claim_cube(state, claim).ok:
                out.append(claim)
    return out


def check_discard(state: State, move: Move) -> Verdict:
    assert isinstance(move, Discard)
    seat = state.turn  # the acting player: check() made sure it is their turn
    if not state.must_discard:
        return Verdict.illegal(
            R.HAND_LIMIT,
            "a card is discarded on its own only right after a sixth card is taken into hand",
            f"take {move.card} back into your hand",
        )
    if move.card not in state.hands[seat]:
        return Verdict.illegal(
            R.HAND_LIMIT,
            f"{move.card} is not in {move.by}'s hand; discard one of the six cards you hold",
            f"put {move.card} back where it came from and discard a card from your hand",
        )
    return _LEGAL


# -- the Optional Variant ------------------------------------------------------------------------


def _once(state: State, seat: int, verb: str) -> Verdict:
    if not state.options.once_per_game_actions:
        return Verdict.illegal(
            R.VARIANT,
            f"{verb} is an action of the Optional Variant, which this game does not use",
            "undo that and choose one of the six actions",
        )
    if seat in state.used_once:
        return Verdict.illegal(
            R.VARIANT, f"{state.names[seat]} has already used the once-per-game action", "undo that and choose one of the six actions"
        )
    return _LEGAL


def check_examine(state: State, move: Move) -> Verdict:
    seat = state.turn  # the acting player: check() made sure it is their turn
    once = _once(state, seat, "examine")
    if not once.ok:
        return once
    if seat != EVIL:
        return Verdict.illegal(R.EXAMINE, "only the Evil Master may examine the other player's hand", "choose another action")
    if not state.hands[ADVENTURER]:
        return Verdict.illegal(
            (R.EXAMINE, R.WHOLE_ACTION), f"{state.names[ADVENTURER]}'s hand is empty, so it cannot be examined", "choose another action"
        )
    return _LEGAL


def check_search(state: State, move: Move) -> Verdict:
    assert isinstance(move, SearchDiscard)
    seat = state.turn  # the acting player: check() made sure it is their turn
    once = _once(state, seat, "search_discard")
    if not once.ok:
        return once
    if seat != ADVENTURER:
        return Verdict.illegal(R.SEARCH, "only the unwitting adventurer may search the Discard Pile", "choose another action")
    pile = state.discard_cards()
    if not pile:
        return Verdict.illegal((R.SEARCH, R.WHOLE_ACTION), "the Discard Pile is empty", "choose another action")
    if move.card not in pile:
        return Verdict.illegal(
            R.SEARCH, f"{move.card} is not in the Discard Pile: {public_place(state, move.card)}", f"put {move.card} back where it came from"
        )
    if move.order is not None:
        rest = pile - {move.card}
        if len(move.order) != len(rest) or set(move.order) != rest:
            return Verdict.illegal(
                R.SEARCH,
                "the new order must list every other card of the Discard Pile exactly once",
                "enter the order of the whole remaining Discard Pile, top card first",
            )
    return _LEGAL
