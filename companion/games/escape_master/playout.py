"""A random but legal Escape Master game, for the benchmark, the demo and the tests.

This is a simulator: it shuffles with ``random.Random(seed)`` and stands in for the players, so
randomness is allowed here (never in the engine). Every move it returns was judged legal when it
was made, except the deliberate illegal attempts every ``illegal_every`` moves (not applied).
"""

from __future__ import annotations

import itertools
import logging
import random
from collections.abc import Mapping, Sequence
from typing import Any

from companion.core import Header, Move
from .cards import ESCAPE_KINDS, TRAP_KINDS, Kind
from .engine import EscapeMaster
from .leaders import expected_size
from .moves import (
    Beast,
    CallDraw,
    Deal,
    Dealt,
    DiscardSpecial,
    Draw,
    EndRound,
    Escape,
    GiveFault,
    Leader,
    Out,
    Play,
    Start,
    Story,
    Trap,
)
from .rounds import round_deck
from .setup import build_state
from .state import Phase, State

logger = logging.getLogger(__name__)

PLAYERS = ("anna", "ben", "carl", "dora")
TRIBES = ("joe", "mouse", "lumberjack", "teen", "robot", "ninja")


class _Sim:
    def __init__(self, rng: random.Random, game: EscapeMaster) -> None:
        self.rng = rng
        self.game = game
        self.order: list[str] = []
        self.t = 0.0

    def tick(self) -> float:
        self.t = round(self.t + self.rng.uniform(0.05, 1.2), 3)
        return self.t

    def legal(self, state: State, move: Move) -> bool:
        return self.game.judge(state, move).ok

    def next_unseen(self, state: State) -> str:
        for card in self.order:
            if card in state.rnd.draw_pile:
                return card
        raise AssertionError("the draw pile is empty")

    def shuffle_deal(self, state: State) -> dict[str, tuple[str, ...]]:
        deck = sorted(round_deck(state))
        self.rng.shuffle(deck)
        hands: dict[str, tuple[str, ...]] = {}
        for i in state.players_in:
            n = expected_size(state, i)
            hands[state.name(i)] = tuple(deck[:n])
            deck = deck[n:]
        self.order = deck
        return hands

    # -- choosing a move -------------------------------------------------------------------------

    def choose(self, state: State) -> Move:
        phase = state.phase
        if phase is Phase.ROUND_OVER:
            return self.between(state)
        if phase is Phase.WAITING:
            return self.before_start(state)
        if phase is Phase.COUNTING:
            for i in state.players_in:
                if state.playing(i) and not state.rnd.hands[i]:
                    return Out(by=state.name(i), t=self.t)
            return EndRound(t=self.tick())
        return self.during_play(state)

    def between(self, state: State) -> Move:
        rng = self.rng
        if state.story_eligible and not state.story_drawn and rng.random() < 0.8:
            who = rng.choice(state.story_eligible)
            used = {u.card for u in state.mods.story if u is not None}
            for card in rng.sample(sorted(state.table.stories), len(state.table.stories)):
                if card in used:
                    continue
                data = state.table.stories[card]
                need = data.for_tribe("targets", state.leaders[who])
                others = [state.name(i) for i in state.players_in if i != who]
                if need > len(others):
                    continue
                move = Story(by=state.name(who), card=card, targets=tuple(rng.sample(others, need)) if need else None)
                if self.legal(state, move):
                    return move
        for i, change in enumerate(state.mods.leader_change):
            if change:
                return Leader(by=state.name(i), tribe=rng.choice(TRIBES))
        for i in state.players_in:
            if state.xp[i] >= state.table.options.beast_cost_xp and not state.mods.beast[i] and rng.random() < 0.5:
                others = [state.name(j) for j in state.players_in if j != i]
                beast = Beast(by=state.name(i), target=rng.choice(others) if others else None)
                if self.legal(state, beast):
                    return beast
        return Deal(by=state.name(state.dealer), hands=self.shuffle_deal(state), t=self.tick())

    def before_start(self, state: State) -> Move:
        for i in state.players_in:
            if len(state.rnd.hands[i]) < expected_size(state, i) and state.rnd.draw_pile:
                return Dealt(by=state.name(i), card=self.next_unseen(state), t=self.tick())
        for i in state.players_in:
            others = [state.name(j) for j in state.players_in if j != i]
            if others and self.rng.random() < 0.5:
                move = GiveFault(by=state.name(i), target=self.rng.choice(others))
                if self.legal(state, move):
                    return move
        return Start(by=state.name(state.dealer), t=self.tick())

    def during_play(self, state: State) -> Move:
        rnd = state.rnd
        rng = self.rng
        if rnd.call is not None:
            return Draw(by=state.name(rnd.call.pending[0]), card=self.next_unseen(state), t=self.tick())
        for i in state.players_in:
            if state.playing(i) and rnd.owes(i):
                return Draw(by=state.name(i), card=self.next_unseen(state), t=self.tick())
            if state.playing(i) and not rnd.hands[i]:
                return Out(by=state.name(i), t=self.tick())
        seats = [i for i in state.players_in if state.playing(i)]
        rng.shuffle(seats)
        t = self.tick()
        for i in seats:
            options = self.options_for(state, i, t)
            if options:
                return rng.choice(options)
        for i in seats:
            if rnd.draw_pile:
                move: Move = Draw(by=state.name(i), card=self.next_unseen(state), t=t)
                if self.legal(state, move) and rng.random() < 0.5:
                    return move
        if rnd.draw_pile:
            call = CallDraw(by=state.name(rng.choice(seats)), t=t)
            if self.legal(state, call):
                return call
            for i in seats:
                move = Draw(by=state.name(i), card=self.next_unseen(state), t=t)
                if self.legal(state, move):
                    return move
        return EndRound(t=t)

    def options_for(self, state: State, seat: int, t: float) -> list[Move]:
        """Some legal moves of one player (plays first; specials now and then)."""
        rnd = state.rnd
        table = state.table
        by = state.name(seat)
        hand = sorted(rnd.hands[seat])
        open_piles = [p.number for p in rnd.piles if p.open]
        out: list[Move] = []
        for name in hand:
            card = table.cards[name]
            if card.kind in (Kind.START, Kind.WISDOM):
                targets: list[int | str] = ["new", *open_piles]
            elif card.numbered or card.kind is Kind.DEAD_END:
                targets = list(open_piles)
            else:
                targets = []
            for pile in targets:
                move = Play(by=by, card=name, pile=pile, t=t)  # type: ignore[arg-type]
                if self.legal(state, move):
                    if card.kind is Kind.DEAD_END and self.rng.random() < 0.7:
                        continue
                    out.append(move)
        low = [c for c in hand if table.cards[c].kind is Kind.NUMBER]
        for a, b in itertools.combinations(low, 2):
            for pile in open_piles:
                combo = Play(by=by, cards=(a, b), pile=pile, t=t)
                if self.legal(state, combo):
                    out.append(combo)
        specials = [c for c in hand if table.cards[c].kind in TRAP_KINDS | ESCAPE_KINDS]
        for name in specials:
            kind = table.cards[name].kind
            if kind in TRAP_KINDS:
                others = [state.name(j) for j in state.players_in if j != seat and state.playing(j)]
                if others:
                    trap = Trap(by=by, card=name, target=self.rng.choice(others), t=t)
                    if self.legal(state, trap):
                        out.append(trap)
            else:
                discard = None
                if kind is Kind.ESCAPE_DISCARD:
                    rest = [c for c in hand if c != name and table.cards[c].kind is not Kind.WISDOM]
                    discard = self.rng.choice(rest) if rest else None
                escape = Escape(by=by, card=name, discard=discard, t=t)
                if self.legal(state, escape) and (rnd.lock[seat] or discard):
                    out.append(escape)
        if specials and self.rng.random() < 0.05:
            out.append(DiscardSpecial(by=by, cards=(specials[0],), t=t))
        return [m for m in out if self.legal(state, m)]

    # -- deliberate mistakes -----------------------------------------------------------------------

    def illegal(self, state: State) -> Move | None:
        rnd = state.rnd
        rng = self.rng
        t = self.t
        tries: list[Move] = []
        for i in state.players_in:
            by = state.name(i)
            hand = sorted(rnd.hands[i])
            if hand:
                tries.append(Out(by=by, t=t))
                for pile in [p.number for p in rnd.piles if p.open]:
                    tries.append(Play(by=by, card=rng.choice(hand), pile=pile, t=t))
                tries.append(Play(by=by, card=rng.choice(hand), pile="new", t=t))
            if rnd.draw_pile:
                tries.append(Draw(by=by, card=sorted(rnd.draw_pile)[0], t=t))
        rng.shuffle(tries)
        for move in tries:
            if not self.legal(state, move):
                return move
        return None


def random_playout(
    seed: int,
    max_moves: int = 1000,
    illegal_every: int | None = None,
    players: Sequence[str] = PLAYERS,
    options: Mapping[str, Any] | None = None,
) -> tuple[Header, list[Move]]:
    """A whole legal game (several rounds), or its first ``max_moves`` moves.

    ``illegal_every``: every Nth move is an illegal attempt (judged illegal, so a replay reports it
    and goes on from the state before it). The default options play to a Breaking Point of 100 so a
    game runs well past 1,000 moves.
    """
    rng = random.Random(seed)
    game = EscapeMaster()
    opts: dict[str, Any] = {"breaking_point": 100} if options is None else dict(options)
    names = tuple(players)
    leaders = {p: rng.choice(TRIBES) for p in names}
    probe = build_state(names, game.parse_options(opts), {"dealer": names[0], "leaders": leaders})
    sim = _Sim(rng, game)
    hands = sim.shuffle_deal(probe)
    header = Header("escape-master", names, opts, {"dealer": names[0], "hands": {p: list(h) for p, h in hands.items()},
                                                  "leaders": leaders})
    state = game.new_state(header)
    moves: list[Move] = []
    while len(moves) < max_moves and game.outcome(state) is None:
        if illegal_every and (len(moves) + 1) % illegal_every == 0:
            bad = sim.illegal(state)
            if bad is not None:
                moves.append(bad)
                continue
        move = sim.choose(state)
        verdict, state = game.play(state, move)
        if not verdict.ok:  # pragma: no cover - the simulator only makes legal moves here
            raise AssertionError(f"playout {seed}: {game.codec.to_json(move)} was judged {verdict}")
        moves.append(move)
    logger.debug("playout %d: %d moves, %d rounds", seed, len(moves), state.round_no)
    return header, moves
