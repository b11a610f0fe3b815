"""Horrible Mountain 2's own cases of the offers check (tests/test_entry_hidden.py, tests/offers_seen.py):
the check is not blind, and the Evil Master's page cannot tell which card a secret search took."""

from __future__ import annotations

import dataclasses

from companion.core.picks import Pick
from companion.entry.builder import Builder, Draft
from companion.games import get_game
from companion.games.horrible_mountain_2.entry import card_label
from companion.games.horrible_mountain_2.playout import random_playout
from tests.offers_seen import checked_part, named, swapped, text, universe, visible


def test_the_check_catches_a_leak() -> None:
    """An offer naming another player's card, or marking one face-down card legal, is reported."""
    header, moves = random_playout(2, max_moves=40, variant=True)  # the game the generic check walks
    game = get_game("horrible-mountain-2")
    state = game.new_state(header)
    for move in moves[:6]:
        _, state = game.play(state, move)
    player = header.players[0]
    other = next(s for s in range(len(state.hands)) if s != state.seat(player))
    card = min(state.hands[other])
    names = universe(game, state)
    seen = visible(game, state, player, names)
    assert card not in seen
    leaky = {"quick": [{"label": f"take {card_label(card)}"}], "next": None}
    assert named(text(checked_part(leaky, False)), {n: c for n, c in names.items() if c not in seen}) == {card}
    twin = swapped(game, state, player)
    assert twin is not None and twin != state
    assert game.view(twin, player) == game.view(state, player)


def test_after_a_secret_search_the_evil_masters_page_cannot_tell_which_card_left_the_pile() -> None:
    """Horrible Mountain 2's variant: the adventurer takes any card of the Discard Pile in secret. Two
    states that differ only in which card was taken look the same to the Evil Master, and his page
    offers the same: every card he saw go to the pile, each judged alike, whichever is gone."""
    game = get_game("horrible-mountain-2")
    header, moves = random_playout(2, max_moves=200, variant=True)
    at = next(i for i, m in enumerate(moves) if m.verb == "search_discard")
    state = game.new_state(header)
    for move in moves[: at + 1]:
        _, state = game.play(state, move)
    taken = moves[at].card  # type: ignore[attr-defined]
    assert state.searched == taken and state.discard_unordered, "the search left an unordered pile"
    other = min(state.discard_unordered)
    adventurer = 1 - state.seat(header.players[0]) if state.seat(header.players[0]) == 0 else 0
    hands = list(state.hands)
    hands[adventurer] = hands[adventurer] - {taken} | {other}
    twin = dataclasses.replace(state, hands=tuple(hands), searched=other,
                               discard_unordered=state.discard_unordered - {other} | {taken})
    evil = state.names[0]
    assert game.view(twin, evil) == game.view(state, evil) and game.scoreboard(twin) == game.scoreboard(state)
    while state.turn != 0 or state.phase.value != "play":  # on to the Evil Master's turn, in both states alike
        nxt = moves[at + 1]
        at += 1
        _, state = game.play(state, nxt)
        _, twin = game.play(twin, nxt)
    players = header.players
    for draft in (Draft(evil), Draft(evil, verb="take_discard")):
        assert Builder(game, twin, players, evil).offer(draft).to_json() == Builder(game, state, players, evil).offer(draft).to_json()
    public = {c.value for c in game.choices(state, evil, evil, Pick.PUBLIC_CARD, False) or ()}
    assert {taken, other} <= public  # the pile as he saw it fill, whichever card is gone
    unseen = {c.value for c in game.choices(state, evil, evil, Pick.UNSEEN_CARD, False) or ()}
    assert taken not in unseen and other not in unseen
