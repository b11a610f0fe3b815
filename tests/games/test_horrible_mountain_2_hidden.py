"""Horrible Mountain 2's hidden cards beyond the contract test (tests/contract/test_hidden.py): the
Optional Variant's secret ``search_discard`` and ``examine``, which the spec's playout does not play,
and a card named by its label ("4♣") rather than its id."""

from __future__ import annotations

import dataclasses

from companion.core.picks import Pick
from companion.entry.builder import Builder, Draft
from companion.games.horrible_mountain_2 import SPEC
from companion.games.horrible_mountain_2 import playout as horrible_mountain_2_playout
from companion.games.horrible_mountain_2.entry import card_label
from companion.games.horrible_mountain_2.secrets import SECRETS
from tests.contract.hidden import Names, checked_part, named_beyond, run

GAME = SPEC.game


def test_the_variant_keeps_hidden_cards_hidden() -> None:
    """The variant's game (a secret search, an examined hand), offers walked at every state."""
    header, moves = horrible_mountain_2_playout.random_playout(2, max_moves=40, variant=True)
    assert {"search_discard", "examine"} <= {m.verb for m in moves}
    tally = run(SPEC, header.players, GAME.new_state(header), moves)
    assert tally.leaks == [], f"{len(tally.leaks)} leaks, the first: {tally.leaks[:3]}"
    assert tally.hidden > len(moves) // 2 and tally.offers > 10 * len(moves)
    assert tally.unseen_fields > 0 and tally.twins > len(moves) // 2


def test_a_card_named_by_its_label_is_caught() -> None:
    """An offer naming another player's card as the page labels it ("take 4♣") is reported."""
    header, moves = horrible_mountain_2_playout.random_playout(2, max_moves=40, variant=True)
    state = GAME.new_state(header)
    for move in moves[:6]:
        _, state = GAME.play(state, move)
    player = header.players[0]
    other = next(s for s in range(len(state.hands)) if s != state.seat(player))
    card = min(state.hands[other])
    known = SECRETS.known(state, player)
    assert card not in known
    leaky = {"quick": [{"label": f"take {card_label(card)}"}], "next": None}
    assert named_beyond(Names(SECRETS.names(state)), known, checked_part(leaky, False)) == {card}
    twin = SECRETS.twin(state, player)
    assert twin is not None and twin != state
    assert GAME.view(twin, player) == GAME.view(state, player)


def test_after_a_secret_search_the_evil_masters_page_cannot_tell_which_card_left_the_pile() -> None:
    """Horrible Mountain 2's variant: the adventurer takes any card of the Discard Pile in secret. Two
    states that differ only in which card was taken look the same to the Evil Master, and his page
    offers the same: every card he saw go to the pile, each judged alike, whichever is gone."""
    header, moves = horrible_mountain_2_playout.random_playout(2, max_moves=200, variant=True)
    at = next(i for i, m in enumerate(moves) if m.verb == "search_discard")
    state = GAME.new_state(header)
    for move in moves[: at + 1]:
        _, state = GAME.play(state, move)
    taken = moves[at].card  # type: ignore[attr-defined]
    assert state.searched == taken and state.discard_unordered, "the search left an unordered pile"
    other = min(state.discard_unordered)
    adventurer = 1 - state.seat(header.players[0]) if state.seat(header.players[0]) == 0 else 0
    hands = list(state.hands)
    hands[adventurer] = hands[adventurer] - {taken} | {other}
    twin = dataclasses.replace(state, hands=tuple(hands), searched=other,
                               discard_unordered=state.discard_unordered - {other} | {taken})
    evil = state.names[0]
    assert GAME.view(twin, evil) == GAME.view(state, evil) and GAME.scoreboard(twin) == GAME.scoreboard(state)
    assert SECRETS.known(twin, evil) == SECRETS.known(state, evil)  # the declaration agrees: he cannot tell
    while state.turn != 0 or state.phase.value != "play":  # on to the Evil Master's turn, in both states alike
        nxt = moves[at + 1]
        at += 1
        _, state = GAME.play(state, nxt)
        _, twin = GAME.play(twin, nxt)
    players = header.players
    for draft in (Draft(evil), Draft(evil, verb="take_discard")):
        assert Builder(GAME, twin, players, evil).offer(draft).to_json() == Builder(GAME, state, players, evil).offer(draft).to_json()
    public = {c.value for c in GAME.choices(state, evil, evil, Pick.PUBLIC_CARD, False) or ()}
    assert {taken, other} <= public  # the pile as he saw it fill, whichever card is gone
    unseen = {c.value for c in GAME.choices(state, evil, evil, Pick.UNSEEN_CARD, False) or ()}
    assert taken not in unseen and other not in unseen
