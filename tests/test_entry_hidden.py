"""The move builder's offers never show a player a card they may not see, over whole seeded games.

tests/browser/hidden.py checks the public payloads (board, log, stream); this file checks the
private ones a player's page gets from the builder (``/api/p/<p>/<t>/offer``). For the seeded games
of every game whose scene walks offers (tests/games/scenes.py: the games with hidden cards, a hand
or a face-down stock), at every state and for every player P, the offers P's page can get are
walked: no draft; each verb, step by step along a legal path and with "show every value" at each
step; and each card of P's own hand tapped as the focus. Every offer must hold:

(a) every card it names anywhere (one-tap moves, choices, labels, the finished move) is one P may
    see: in P's own view (``game.view(state, P)``) or the public scoreboard. The exception is a
    field whose pick is :attr:`Pick.UNSEEN_CARD` (a face-down draw), whose choices are every card P
    has not seen, and a card P named there themselves;
(b) an UNSEEN_CARD field's choices are all equally ``legal``: the offer cannot single out where a
    card lies;
(c) for a game whose scene has a twin (a state that differs only by a card swapped between another
    player's hand and the draw pile: it looks the same to P), the twin gets the same offers.

The check itself, and the games' own cases: tests/offers_seen.py, tests/games/test_<game>_offers_hidden.py.
"""

from __future__ import annotations

import pytest

from companion.games import get_game, specs
from tests.games.scenes import scene
from tests.offers_seen import Tally, check_state

GAMES = {
    f"{game_id} {label}".strip(): make
    for game_id, spec in specs().items()
    for offers in [scene(spec).offers] if offers is not None
    for label, make in offers.games.items()
}
"""Every registered game's seeded games whose offers are walked, by game id (and label)."""


@pytest.mark.parametrize("case", sorted(GAMES))
def test_offers_name_only_cards_the_player_sees(case: str) -> None:
    header, moves = GAMES[case]()
    game = get_game(header.game)
    offers = scene(specs()[header.game]).offers
    assert offers is not None
    state = game.new_state(header)
    tally = Tally()
    check_state(game, state, header.players, "the start", tally)
    for n, move in enumerate(moves, start=1):
        _, state = game.play(state, move)
        check_state(game, state, header.players, f"after move {n} ({move.verb})", tally)
    assert tally.leaks == [], f"{len(tally.leaks)} leaks, the first: {tally.leaks[:3]}"
    # the check is not blind: cards really were hidden, and face-down fields were offered
    assert tally.hidden_seen > len(moves) // 2 and tally.offers > 10 * len(moves)
    assert tally.unseen_fields > 0
    if offers.swap is not None:
        assert tally.twins > len(moves) // 2
