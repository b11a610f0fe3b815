"""The resolve phase after the sacrifices: puzzle clears, the end of the round, penalty cards."""

from __future__ import annotations

from typing import Any

from companion.core import Verdict
from . import live
from .cards import Cond, Kind
from .common import card_name, in_phase, room_name
from .effects import clear, clear_by, follow_card, game_over, meets, new_round
from .moves import Clear, EndRound, Penalty
from .state import CLOCKS_TO_LOSE, MAIN_ROOM, Phase, State, without

_LEGAL = Verdict.legal()


def describe_conditions(state: State, puzzle: str) -> str:
    """'a Key and a Crowbar, or 2 of Candle, Matches, or a sacrifice'."""
    parts = []
    for cond in state.cards.cards[puzzle].clear:
        if cond.kind is Cond.SACRIFICE:
            parts.append("a sacrifice")
        elif cond.kind is Cond.ITEMS:
            parts.append(" and ".join(cond.items))
        else:
            parts.append(f"{cond.count} of {', '.join(cond.items)}")
    return ", or ".join(parts)


def check_clear(state: State, m: Clear) -> Verdict:
    v = in_phase(state, m, Phase.RESOLVE)
    if v is not None:
        return v
    room = puzzle_room(state, m)
    if room is None:
        what = "was cleared this round" if m.puzzle in state.cleared_now else "is not a puzzle still to clear"
        return Verdict.illegal("EH-CLEAR-PUZZLE", f"{card_name(state, m.puzzle)} {what}", "check the puzzle card")
    played = {p.card: p for p in state.played}
    for card in m.cards:
        if card not in played:
            return Verdict.illegal(
                "EH-CLEAR-CONDITION", f"{card_name(state, card)} was not played this round", "name the played cards that clear it"
            )
        kind = state.cards.kind_of(card)
        if kind is not Kind.ITEM and card not in state.killers:
            return Verdict.illegal(
                "EH-CLEAR-CONDITION",
                f"{card_name(state, card)} is neither an item nor a card that sacrificed a player",
                "name only the items (or the sacrifice) that clear the puzzle",
            )
        if kind is Kind.ITEM and played[card].room != room:
            return Verdict.illegal(
                "EH-CLEAR-ROOM",
                f"{card_name(state, card)} was played in {room_name(played[card].room)}; items count only in their own room, "
                f"and {card_name(state, m.puzzle)} is in {room_name(room)}",
                "name items played in the puzzle's room",
            )
    if len(set(m.cards)) != len(m.cards):
        return Verdict.illegal("EH-CLEAR-CONDITION", "a card is named twice", "name each card once")
    if meets(state, m.puzzle, m.cards):
        return _LEGAL
    if room == MAIN_ROOM and state.killers:
        return Verdict.illegal(
            "EH-CLEAR-SACRIFICE",
            "a sacrifice clears the main puzzle; name the card that sacrificed a player",
            "enter the clear with that card",
        )
    return Verdict.illegal(
        "EH-CLEAR-CONDITION",
        f"{card_name(state, m.puzzle)} needs {describe_conditions(state, m.puzzle)}",
        "the puzzle stays; take the clear back",
    )


def puzzle_room(state: State, m: Clear) -> str | None:
    """The room of the puzzle a clear names: an open puzzle's, or at a live table the room of the
    items played for a face-down side puzzle nobody has named yet (the clear turns it up)."""
    room = state.room_of_puzzle(m.puzzle)
    if room is None and state.live:
        rooms = {p.room for p in state.played if p.card in m.cards}
        if len(rooms) == 1 and live.unnamed_side_room(state, m.puzzle, next(iter(rooms))):
            return next(iter(rooms))
    return room


def apply_clear(state: State, m: Clear) -> State:
    room = puzzle_room(state, m)
    assert room is not None  # checked
    if room != MAIN_ROOM and room not in state.puzzles:  # a live table's face-down side puzzle, named now
        state = state.but(puzzles={**state.puzzles, room: m.puzzle}, unseen=state.unseen - {m.puzzle})
    return clear(state, m.puzzle, room)


def missed_clears(state: State) -> tuple[tuple[str, str, tuple[str, ...]], ...]:
    """(puzzle, room, cards) for every open puzzle the played cards clear but no one entered."""
    if not state.played:
        return ()
    cards = state.cards.cards
    # Only rooms where an item was played (and the main room after a sacrifice) can hold a clear.
    rooms = {p.room for p in state.played if cards[p.card].kind is Kind.ITEM}
    if state.killers:
        rooms.add(MAIN_ROOM)
    if not rooms:
        return ()
    out = []
    for puzzle, room in state.open_puzzles():
        if room not in rooms:
            continue
        by = clear_by(state, puzzle, room)
        if by is not None:
            out.append((puzzle, room, by))
    return tuple(out)


def check_end_round(state: State, m: EndRound) -> Verdict:
    v = in_phase(state, m, Phase.RESOLVE)
    if v is not None:
        return v
    missed = missed_clears(state)
    if missed:
        puzzle, room, by = missed[0]
        cards = ", ".join(card_name(state, c) for c in by)
        return Verdict.illegal(
            "EH-CLEAR-MISSED", f"{card_name(state, puzzle)} in {room_name(room)} is cleared by {cards}", "enter the clear first"
        )
    if state.penalties_due:
        return Verdict.illegal("EH-OWED", "a penalty card is still to be drawn", "draw the penalty card first")
    return _LEGAL


def apply_end_round(state: State, m: EndRound) -> State:
    """EH-TO-DISCARD, then EH-NEXT-MAIN: the next main puzzle, or a penalty card."""
    played = tuple(p.card for p in state.played)
    changes: dict[str, Any]
    if state.sacrificed_now:
        gone = set(state.sacrificed_now)
        dead_hands = tuple(c for p in state.players if p in gone for c in state.hands[p])
        changes = {
            "discard": state.discard + played + dead_hands,
            "hands": {p: (() if p in gone else h) for p, h in state.hands.items()},
        }
    else:  # (most rounds: nobody's hand goes to the discard pile)
        changes = {"discard": state.discard + played}
    # (one copy of the state for the whole turn of the round)
    if state.main_cleared:
        return new_round(state, main=state.main[1:], **changes)
    if state.no_penalty or not state.penalties:
        return new_round(state, **changes)
    return state.but(closing=True, penalties_due=1, **changes)


def check_penalty(state: State, m: Penalty) -> Verdict:
    if not state.penalties_due:
        return Verdict.illegal("EH-PENALTY", "no penalty card is due now", "put the card back on top of the penalty deck")
    if m.card not in state.penalties:
        # Worded as for a card lower in the deck: a refusal never tells what the face-down deck holds.
        return Verdict.illegal("EH-PENALTY", f"{card_name(state, m.card)} is not the top card of the penalty deck", "check the card")
    if state.order_known() and state.penalties[0] != m.card:
        return Verdict.illegal(
            "EH-PENALTY", f"{card_name(state, m.card)} is not the top card of the penalty deck", "put it back and draw the top card"
        )
    return _LEGAL


def apply_penalty(state: State, m: Penalty) -> State:
    card = state.cards.cards[m.card]
    clock = card.kind is Kind.CLOCK
    state = state.but(penalties=without(state.penalties, m.card),
        drawn_penalties=state.drawn_penalties + (m.card,),
        penalties_due=state.penalties_due - 1,
        clocks=(state.clocks + 1) if clock else state.clocks,
    )
    if clock and state.clocks >= CLOCKS_TO_LOSE:  # EH-CLOCKS
        return game_over(state, won=False)
    state = follow_card(state, card, None, None, MAIN_ROOM)
    due = min(state.penalties_due, len(state.penalties))
    if state.closing and not due:
        return new_round(state, penalties_due=due)
    return state if due == state.penalties_due else state.but(penalties_due=due)
