"""Escape Master's hidden cards beyond the contract test (tests/contract/test_hidden.py): a Draw! call
judged on a player's page by what that player sees."""

from __future__ import annotations

from companion.entry.builder import Builder, Draft
from companion.games.escape_master import SPEC
from companion.games.escape_master import playout as escape_master_playout
from companion.games.escape_master.secrets import SECRETS

GAME = SPEC.game


def test_call_draw_is_offered_alike_whether_or_not_others_can_play() -> None:
    """Two states that look the same to ben (a card of another hand traded with the draw pile), on one
    of which nobody can play, get the same offer: a player's page judges a Draw! call only by what the
    player can see (``Game.judge_seen``), and the engine decides when it is sent."""
    header, moves = escape_master_playout.random_playout(3, max_moves=44)
    state = GAME.new_state(header)
    for move in moves:
        _, state = GAME.play(state, move)
    twin = SECRETS.twin(state, "ben")
    assert twin is not None and GAME.view(twin, "ben") == GAME.view(state, "ben")
    players = header.players
    assert Builder(GAME, twin, players, "ben").offer(Draft("ben")).to_json() == Builder(GAME, state, players, "ben").offer(Draft("ben")).to_json()
