"""Hidden cards stay hidden through views, offers and public rows (issue 20), for every registered game.

Each game declares its secrets (``GameSpec.secrets``): the names its hidden values go by, what each
player may know, what anyone may know, and twin states a player cannot tell apart. Over a seeded
playout of each game (its spec's playout, with illegal attempts mixed in), tests/contract/hidden.py
checks at every state and for every player (a) the view and the move builder's offers, (b) the
public scoreboard and every public log row, and (c) that a twin state gets the same view, board and
offers. Offers, the costly part, are walked at every state for the first :data:`WALKED` moves and
at every :data:`SPREAD`-th state after; ``HIDDEN_STEPS=n`` plays ``n`` moves, walked at every state.
"""

from __future__ import annotations

import os

import pytest

from companion.core import Move
from companion.core.picks import Pick
from companion.games import game_ids, get_spec
from tests.contract.hidden import Names, Tally, as_value, checked_part, named_beyond, run

SEED = 3
MOVES = 40
"""Moves of each playout by default: a few turns at every seat, a round of Escape Master under way."""
WALKED = 12
SPREAD = 4
ILLEGAL_EVERY = 9
"""Every ninth move of the playout is an illegal attempt (its refusal is a public row too)."""
STEPS = int(os.environ.get("HIDDEN_STEPS", "0"))
"""Moves to play with offers walked at every state (0: the default budget above)."""


def _draws_face_down(move_type: type[Move]) -> bool:
    return any(field.pick.value == Pick.UNSEEN_CARD.value for field in move_type.picks.values())


def _play(game_id: str) -> tuple[Tally, int]:
    spec = get_spec(game_id)
    header, moves = spec.playout(SEED, max_moves=STEPS or MOVES, illegal_every=ILLEGAL_EVERY)
    tally = run(spec, header.players, spec.game.new_state(header), moves, None if STEPS else WALKED, SPREAD)
    return tally, len(moves)


@pytest.mark.parametrize("game_id", game_ids())
def test_hidden_values_stay_hidden(game_id: str) -> None:
    if get_spec(game_id).secrets is None:  # nothing hidden: then no move may hide a field or draw face down
        game = get_spec(game_id).game
        hiding = [mt.verb for mt in game.move_types if mt.hidden_fields or _draws_face_down(mt)]
        assert not hiding, f"{game_id} hides what {hiding} name, yet declares no secrets (GameSpec.secrets)"
        return
    tally, played = _play(game_id)
    assert tally.leaks == [], f"{len(tally.leaks)} leaks, the first: {tally.leaks[:3]}"
    # the check is not blind: values really were hidden, offers were walked, rows were read
    assert tally.hidden > tally.states // 2, (tally.hidden, tally.states)
    assert tally.offers > 10 * tally.walked and tally.rows == played
    if any(_draws_face_down(mt) for mt in get_spec(game_id).game.move_types):
        assert tally.unseen_fields > 0
    # where another player knows something this one does not, there is mostly a twin to compare
    assert tally.twins >= tally.others_know // 2, (tally.twins, tally.others_know)


@pytest.mark.parametrize("game_id", game_ids())
def test_the_check_catches_a_leak(game_id: str) -> None:
    """A board, view or offer naming a value hidden from a player is reported, and a twin really differs."""
    spec = get_spec(game_id)
    if spec.secrets is None:
        pytest.skip(f"{game_id} hides nothing")
    secrets = spec.secrets
    header, moves = spec.playout(SEED, max_moves=MOVES)
    game, state = spec.game, spec.game.new_state(header)
    for move in moves:
        names = Names(secrets.names(state))
        hidden = {p: names.all - secrets.known(state, p) for p in header.players}
        player = next((p for p in header.players if hidden[p]), None)
        if player is not None:
            break
        _, state = game.play(state, move)
    assert player is not None, "some value is hidden from some player during the playout"
    secret = min(hidden[player])
    leak = as_value(next(n for n, i in secrets.names(state).items() if i == secret))
    known, public = secrets.known(state, player), secrets.public(state)
    assert named_beyond(names, public, {**game.scoreboard(state), "note": leak}) == {secret}
    assert named_beyond(names, known, {**game.view(state, player), "note": leak}) == {secret}
    offer = {"quick": [{"label": "take", "move": {"card": leak}}], "next": None}
    assert named_beyond(names, known, checked_part(offer, False)) == {secret}
    face_down = {"next": {"pick": Pick.UNSEEN_CARD.value, "choices": [{"value": leak, "legal": True}]}}
    assert named_beyond(names, known, checked_part(face_down, False)) == set()  # a face-down draw offers every card
    twin = secrets.twin(state, player)
    if twin is not None:
        assert twin != state and game.view(twin, player) == game.view(state, player)
