"""Escape Master's own case of the offers check (tests/test_entry_hidden.py, tests/offers_seen.py): a
Draw! call is offered alike on two states that look the same to the player."""

from __future__ import annotations

from companion.entry.builder import Builder, Draft
from companion.games import get_game
from companion.games.escape_master.playout import random_playout
from tests.offers_seen import swapped


def test_call_draw_is_offered_alike_whether_or_not_others_can_play() -> None:
    """Escape Master: two states that look the same to ben (a card of anna's traded with the draw
    pile), on one of which nobody can play, get the same offer: a player's page judges a Draw! call
    only by what the player can see (``Game.judge_seen``), and the engine decides when it is sent."""
    header, moves = random_playout(3, max_moves=44)
    game = get_game("escape-master")
    state = game.new_state(header)
    for move in moves:
        _, state = game.play(state, move)
    twin = swapped(game, state, "ben")
    assert twin is not None and game.view(twin, "ben") == game.view(state, "ben")
    players = header.players
    assert Builder(game, twin, players, "ben").offer(Draft("ben")).to_json() == Builder(game, state, players, "ben").offer(Draft("ben")).to_json()
