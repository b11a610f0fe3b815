"""What people see: the public scoreboard (never a hand's cards), a player's view, the referee's view."""

from __future__ import annotations

from typing import Any

from companion.core import JsonObject
from companion.core.codec import dataclass_to_json
from .state import MAIN_ROOM, Phase, State


def _card(state: State, card: str) -> dict[str, str]:
    return state.cards.cards[card].public()


def scoreboard(state: State) -> JsonObject:
    """NOTATION.md's keys first, then public extras (GAME.md)."""
    main = state.current_main()
    played: list[dict[str, Any]] = []
    for p in state.played:
        entry: dict[str, Any] = {"by": p.by, "room": p.room}
        if p.revealed:  # a face-down card is public only once revealed (and its target token with it)
            entry.update(card=_card(state, p.card), target=p.target)
        played.append(entry)
    return {
        "clocks": state.clocks,
        "main_left": state.main_left(),
        "round": state.round,
        "phase": state.phase.value,
        "alive": list(state.alive),
        "sacrificed": list(state.sacrificed),
        "main_puzzle": None if main is None else _card(state, main),
        "rooms": {room: list(state.in_room(room)) for room in (MAIN_ROOM,) + state.rooms},
        # Sorted, not in the setup's order: the log keeps the header with its keys sorted, so a
        # session reopened on its log lists a setup's "rooms" object alphabetically.
        "cleared_rooms": sorted(state.cleared),
        "cleared_now": [_card(state, c) for c in state.cleared_now],
        "hand_sizes": {p: len(state.hands[p]) for p in state.alive},
        "deck_sizes": {r: state.deck_size(r) for r in state.rooms},
        "discard_size": len(state.discard),
        "penalties_left": len(state.penalties),
        "penalties_drawn": [_card(state, c) for c in state.drawn_penalties],
        "penalties_due": state.penalties_due,
        "follows": dict(state.follows),
        "played": played,
        "card_set": state.cards.title,
    }


def player_view(state: State, player: str) -> JsonObject:
    """The scoreboard plus what ``player`` alone knows: their hand, their played card, their effects."""
    out = scoreboard(state)
    room = state.where.get(player)
    mine = state.played_by(player)
    out["you"] = {
        "player": player,
        "alive": player in state.where,
        "room": room,
        "hand": [_card(state, c) for c in state.hands.get(player, ())],
        # The side obstacle of the room you stand in is on the table in front of you.
        "room_puzzle": (
            _card(state, state.puzzles[room]) if room is not None and room in state.puzzles and room not in state.cleared else None
            # (at a live table a face-down side puzzle is named only when it is cleared)
        ),
        "played": None if mine is None else {"card": _card(state, mine.card), "target": mine.target},
        "no_move": player in state.no_move,
        "no_play": player in state.no_play,
        "owed_discards": state.owed(player),
        "discard_draws": state.draw_credit.get(player, 0),
    }
    return out


def referee_view(state: State) -> JsonObject:
    """Everything, for the referee console and disputes."""
    out = scoreboard(state)
    out.update(
        {
            "players": list(state.players),
            "where": dict(state.where),
            "hands": {p: list(h) for p, h in state.hands.items()},
            "main": list(state.main),
            "side_puzzles": dict(state.puzzles),
            "decks": {r: list(d) for r, d in state.decks.items()},
            "live": state.live,
            "unnamed_in_decks": dict(state.hidden_in),
            "main_face_down": state.main_hidden,
            "discard": list(state.discard),
            "penalty_deck": list(state.penalties),
            "played": [
                {"by": p.by, "card": p.card, "target": p.target, "room": p.room, "revealed": p.revealed} for p in state.played
            ],
            "no_move": sorted(state.no_move),
            "no_play": sorted(state.no_play),
            "owed_discards": dict(state.owed_discards),
            "discard_draws": dict(state.draw_credit),
            "traded": sorted(state.traded),
            "killers": sorted(state.killers),
            "main_cleared": state.main_cleared,
            "closing": state.closing,
            "over": state.phase is Phase.OVER,
            "options": dataclass_to_json(state.options),
        }
    )
    return out
