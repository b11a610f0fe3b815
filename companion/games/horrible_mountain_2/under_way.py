"""The checks of a table's actions under way (issue 21): ``half`` (a card of Swap Cubes or Claim a
Cube put down), ``lift`` (the top discard tapped before the cube paid for it is seen) and
``withdraw`` (either taken back). Beside checks.py, whose ``check`` gates every move while one is
under way."""

from __future__ import annotations

from companion.core import Move, Verdict
from . import rules as R
from .checks import check_take_discard, finishes
from .moves import Half, Lift, TakeDiscard, Withdraw
from .state import State, unlaid

_LEGAL = Verdict.legal()


def check_half(state: State, move: Move) -> Verdict:
    """A card put on the Discard Pile as one of the two of Swap Cubes or Claim a Cube: legal when the
    player can finish one of them with it (HM2-WHOLE-ACTION); on its own a card is discarded only
    right after a sixth card (HM2-HAND-LIMIT)."""
    assert isinstance(move, Half)
    seat = state.turn  # the acting player: check() made sure it is their turn
    if len(state.laid) >= 2:
        return Verdict.illegal(
            R.WHOLE_ACTION,
            f"{' and '.join(state.laid)} already lie on the Discard Pile: Swap Cubes and Claim a Cube discard two cards, not three",
            f"take {move.card} back into your hand and finish the action with the cubes",
        )
    if move.card not in state.hands[seat]:
        return Verdict.illegal(
            (R.WHOLE_ACTION, R.DISCARD_PILE),
            f"{move.card} is not in {move.by}'s hand; discarded cards come from hand",
            f"put {move.card} back where it came from",
        )
    first = state.laid + (move.card,)
    if not finishes(unlaid(state), first):
        shown = " and ".join(first)
        return Verdict.illegal(
            (R.SWAP_CUBES, R.CLAIM_CUBE, R.WHOLE_ACTION, R.HAND_LIMIT),
            f"with {shown} {move.by} can finish no Swap Cubes or Claim a Cube, and a card is discarded on its own "
            "only right after a sixth card is taken into hand",
            f"take {move.card} back into your hand",
        )
    return _LEGAL


def check_lift(state: State, move: Move) -> Verdict:
    """The top discard tapped into the hand before the Control Cube paid for it is seen: legal when
    paying one of the player's cubes would make a legal Take a Discard of it (nothing else under way)."""
    assert isinstance(move, Lift)
    if state.laid or state.lifted is not None:
        under_way = " and ".join(state.laid) or state.lifted
        return Verdict.illegal(
            R.WHOLE_ACTION,
            f"{under_way} already make an action under way; one action a turn",
            f"put {move.card} back on the Discard Pile and finish the action under way",
        )
    card = None if move.card == state.discard_top else move.card
    verdicts = [check_take_discard(state, TakeDiscard(by=move.by, cube=cube, card=card)) for cube in sorted(state.control[state.turn])]  # type: ignore[arg-type]
    if not verdicts:
        return Verdict.illegal(
            (R.TAKE_DISCARD, R.WHOLE_ACTION),
            f"to Take a Discard you discard one of your Control Cubes, and {move.by} has none",
            f"put {move.card} back on the Discard Pile and choose another action",
        )
    return next((v for v in verdicts if v.ok), verdicts[0])


def check_withdraw(state: State, move: Move) -> Verdict:
    assert isinstance(move, Withdraw)
    if move.card == state.lifted:
        return _LEGAL
    if move.card not in state.laid:
        return Verdict.illegal(
            (R.WHOLE_ACTION, R.DISCARD_PILE),
            f"{move.card} was not put down for a Swap Cubes or Claim a Cube under way; a discard stays on the Discard Pile",
            f"put {move.card} back on the Discard Pile",
        )
    return _LEGAL
