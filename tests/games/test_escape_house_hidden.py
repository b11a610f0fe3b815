"""Escape House's hidden cards beyond the contract test (tests/contract/test_hidden.py): a live table,
where each player taps their dealt cards in and the room decks are named only as cards turn up."""

from __future__ import annotations

from companion.games.escape_house import SPEC
from companion.games.escape_house import playout as escape_house_playout
from tests.contract.hidden import run


def test_a_live_table_keeps_hidden_cards_hidden() -> None:
    header, moves = escape_house_playout.as_live_table(*escape_house_playout.random_playout(5, max_moves=12))
    tally = run(SPEC, header.players, SPEC.game.new_state(header), moves)
    assert tally.leaks == [], f"{len(tally.leaks)} leaks, the first: {tally.leaks[:3]}"
    assert tally.hidden > len(moves) // 2 and tally.offers > 10 * len(moves)
    assert tally.unseen_fields > 0 and tally.twins > len(moves) // 2
