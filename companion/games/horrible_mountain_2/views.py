"""What people see: the public scoreboard, a player's own view, and the referee's full view.

Hands are dealt and drawn face down and are shown only at the end of the game, when they are scored
(HM2-SCORE-HAND). So while the game goes on the public scoreboard gives each player's cube points
(Control Cubes and the cubes on the Table Cards are in plain sight) and leaves ``hand``, ``hand_name``
and ``total`` null; each player's own view fills them in for that player alone. Once the game is
over, every key is filled and the hands are shown.
"""

from __future__ import annotations

from companion.core import JsonObject
from companion.core.codec import dataclass_to_json
from .cards import SLOTS, sort_cards
from .scoring import score
from .state import ADVENTURER, EVIL, Phase, State


def _score_entry(state: State, seat: int, reveal: bool) -> JsonObject:
    full = score(state, seat)
    entry: JsonObject = {
        "total": full.total if reveal else None,
        "hand": full.hand.points if reveal else None,
        "hand_name": full.hand.name if reveal else None,
        "cubes": full.cubes,
        "control_cubes": sorted(state.control[seat]),
        "hand_size": len(state.hands[seat]),
    }
    return entry


def _board(state: State, revealed: frozenset[int]) -> JsonObject:
    over = state.phase is Phase.OVER
    seats = {state.names[EVIL]: EVIL, state.names[ADVENTURER]: ADVENTURER}
    board: JsonObject = {
        "scores": {p: _score_entry(state, seats[p], over or seats[p] in revealed) for p in state.players},
        "exhausted": state.exhausted,
        "turn": None if over else state.current,
        "phase": state.phase.value,
        "evil_master": state.names[EVIL],
        "table": [
            {"slot": slot, "card": state.table[slot - 1], "cube": state.slot_cubes[slot - 1]} for slot in SLOTS
        ],
        "cube_pile": sorted(state.cube_pile),
        "draw_pile": len(state.draw_pile),
        "discard_pile": state.discard_size,
        "discard_top": state.discard_top,
        "must_discard": state.must_discard,
    }
    if state.laid:  # Swap Cubes or Claim a Cube under way: its cards lie face up on the Discard Pile
        board["laid"] = list(state.laid)
    if state.lifted is not None:  # Take a Discard under way: the top discard, public, in the hand
        board["lifted"] = state.lifted
    if state.options.once_per_game_actions:
        board["once_per_game"] = {p: seats[p] not in state.used_once for p in state.players}
    if over:
        board["hands"] = {p: sort_cards(state.hands[seats[p]]) for p in state.players}
    return board


def scoreboard(state: State) -> JsonObject:
    """NOTATION.md's scoreboard plus public extras; never a hidden card (see the module docstring)."""
    return _board(state, frozenset())


def player_view(state: State, player: str) -> JsonObject:
    """The public board, plus the player's own hand and own projected score."""
    seat = state.seat(player)
    if seat is None:
        return scoreboard(state)
    view = _board(state, frozenset({seat}))
    view["you"] = player
    view["hand"] = sort_cards(state.hands[seat])
    if seat == EVIL and state.examined is not None:
        view["examined"] = list(state.examined)  # the adventurer's hand when the Evil Master looked
    return view


def referee_view(state: State) -> JsonObject:
    """Everything the engine knows, JSON-able. The Draw Pile's order is unknown: its cards are sorted."""
    view = _board(state, frozenset({EVIL, ADVENTURER}))
    view["hands"] = {state.names[s]: sort_cards(state.hands[s]) for s in (EVIL, ADVENTURER)}
    view["draw_pile_cards"] = sort_cards(state.draw_pile)
    view["discard_pile_cards"] = {"top_first": list(reversed(state.discard)), "below_unordered": sort_cards(state.discard_unordered)}
    view["used_once"] = [state.names[s] for s in sorted(state.used_once)]
    view["examined"] = list(state.examined) if state.examined is not None else None
    view["options"] = dataclass_to_json(state.options)
    return view
