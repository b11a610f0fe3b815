"""A simulator: deal a random table and play a whole legal game with random choices.

Randomness lives here, never in the engine. ``bench/engine.py`` and the demo use it; the tests
replay its games through the engine.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Mapping
from typing import Any

from companion.core import Header, Move
from .cards import DECK, POSITIONS, RANK_OF, SLOTS, SUIT_OF, THREATS
from .engine import GAME
from .moves import Act, Discard, Draw, EndTurn, Skip
from .state import MountainState, Phase

logger = logging.getLogger(__name__)

PLAYER = "solo"


def deal(rng: random.Random, options: Mapping[str, Any] | None = None, player: str = PLAYER) -> Header:
    """A header for a shuffled deck: the 12 threats and 9 others in the mountain, 10 health cards."""
    threats = [c for c in DECK if c in THREATS]
    others = [c for c in DECK if c not in THREATS]
    rng.shuffle(others)
    pile = threats + others[:9]
    rng.shuffle(pile)
    rows = [pile[r * (r - 1) // 2 : r * (r + 1) // 2] for r in range(1, 7)]
    setup = {"mountain": rows, "health": others[9:19]}
    return Header(GAME.id, (player,), dict(options or {}), setup)


def random_playout(
    seed: int, max_moves: int = 1000, illegal_every: int | None = None, options: Mapping[str, Any] | None = None
) -> tuple[Header, list[Move]]:
    """A whole game (or ``max_moves`` moves) of random legal choices; every ``illegal_every``-th move
    is an illegal attempt instead (rejected on replay, the game goes on from the state before it)."""
    rng = random.Random(seed)
    header = deal(rng, options)
    state = GAME.new_state(header)
    moves: list[Move] = []
    while len(moves) < max_moves and GAME.outcome(state) is None:
        if illegal_every and (len(moves) + 1) % illegal_every == 0:
            bad = _illegal_move(rng, state)
            if bad is not None:
                moves.append(bad)
                continue
        move = _legal_move(rng, state)
        verdict, state = GAME.play(state, move)
        if not verdict.ok:  # the simulator only offers moves the engine accepts
            raise RuntimeError(f"playout {seed} chose an illegal move {move!r}: {verdict.why}")
        moves.append(move)
    return header, moves


def _legal(state: MountainState, move: Move) -> bool:
    return GAME.judge(state, move).ok


def _legal_move(rng: random.Random, state: MountainState) -> Move:
    by = state.player
    hand = state.hand
    if state.phase is Phase.DISCARD and hand and rng.random() < 0.25:
        return Discard(by=by, cards=tuple(rng.sample(hand, rng.randint(1, min(2, len(hand))))))
    if state.phase is not Phase.ACTIONS and len(hand) < state.hand_limit:
        if state.health and (not state.stock or rng.random() < 0.08) and rng.random() < 0.5:
            card = state.health[0] if state.options.health_draw == "top" else rng.choice(state.health)
            return Draw(by=by, card=card, from_="health")
        if state.stock:
            return Draw(by=by, card=rng.choice(sorted(state.stock)), from_="stock")
    acts = [a for a in _candidate_acts(rng, state) if _legal(state, a)]
    if acts and (state.acted or rng.random() < 0.9):
        if not state.acted or rng.random() < 0.7:
            return rng.choice(acts)
    if state.phase is Phase.ACTIONS:
        return EndTurn(by=by)
    exposed = state.geo.exposed(state.mountain)
    return Skip(by=by, target=POSITIONS[rng.choice(exposed)])


def _candidate_acts(rng: random.Random, state: MountainState) -> list[Act]:
    if state.skipped or len(state.acted) >= 2:
        return []
    out: list[Act] = []
    for suit in "SHDC":
        cards = [c for c in state.hand if SUIT_OF[c] == suit]
        if len(cards) < 2 or suit in state.acted:
            continue
        for size in (2, 3) if len(cards) >= 3 else (2,):
            chosen = tuple(rng.sample(cards, size))
            out.append(_random_act(rng, state, suit, chosen))
    return out


def _random_act(rng: random.Random, state: MountainState, suit: str, cards: tuple[str, ...]) -> Act:
    geo = state.geo
    board: list[str | None] = list(state.mountain)
    times = len(cards) - 1
    taken: list[int] = []

    def exposed(pred: Any = None) -> list[int]:
        return [s for s in range(SLOTS) if geo.is_exposed(board, s) and (pred is None or pred(s))]

    def take(slot: int) -> None:
        board[slot] = None
        taken.append(slot)

    if suit == "S":
        choices: list[str] = []
        for _ in range(times):
            pick = exposed()
            if not pick:
                break
            card = board[rng.choice(pick)]
            assert card is not None
            kind = rng.choice(("rank", "suit"))
            value = RANK_OF[card] if kind == "rank" else SUIT_OF[card]
            choices.append(f"{kind}:{value}")
            of = RANK_OF if kind == "rank" else SUIT_OF
            while True:  # the engine cascades; the simulator follows so the next choice sees the new mountain
                hits = exposed(lambda s: of[board[s] or ""] == value)
                if not hits:
                    break
                for s in hits:
                    take(s)
        return Act(by=state.player, cards=cards, choose=choices[0] if times == 1 and choices else tuple(choices))
    if suit == "C":
        for _ in range(times):
            pick = exposed()
            if not pick:
                break
            chain = [rng.choice(pick)]
            take(chain[0])
            while len(chain) < 3:
                nexts = exposed(lambda s: s in geo.neighbours[chain[-1]])
                if not nexts:
                    break
                chain.append(rng.choice(nexts))
                take(chain[-1])
        return Act(by=state.player, cards=cards, targets=tuple(POSITIONS[s] for s in taken))
    heal = suit == "H"
    for _ in range(2 * times):
        pick = exposed(lambda s: board[s] not in THREATS) if heal else exposed()
        if not pick:
            break
        take(rng.choice(pick))
    targets = tuple(POSITIONS[s] for s in taken)
    short = 2 * times - len(taken)
    from_hand = cards[: min(short, len(cards))] if heal and short else None
    return Act(by=state.player, cards=cards, targets=targets, from_hand=from_hand)


def _illegal_move(rng: random.Random, state: MountainState) -> Move | None:
    """One illegal attempt of a random kind that the engine must reject, or None if none fits."""
    by = state.player
    covered = [s for s in range(SLOTS) if state.mountain[s] is not None and not state.geo.is_exposed(state.mountain, s)]
    on_mountain = [c for c in state.mountain if c is not None]
    tries: list[Move] = [
        Draw(by=by, card=rng.choice(on_mountain), from_="stock"),
        EndTurn(by=by) if state.phase is not Phase.ACTIONS else Discard(by=by, cards=(rng.choice(on_mountain),)),
    ]
    if covered:
        tries.append(Skip(by=by, target=POSITIONS[rng.choice(covered)]))
    if state.hand and state.phase is not Phase.DISCARD:
        tries.append(Discard(by=by, cards=(rng.choice(state.hand),)))
    rng.shuffle(tries)
    for move in tries:
        if not GAME.judge(state, move).ok:
            return move
    return None
