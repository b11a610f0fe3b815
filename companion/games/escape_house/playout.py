"""A simulator: deals a house and plays random legal moves (randomness lives here, never in the engine).

Used by the benchmark, the demo and the tests. ``illegal_every=N`` slips in an illegal attempt every
Nth move (the engine must refuse it, and the game goes on from the state before it).
"""

from __future__ import annotations

import random
from typing import Any

from companion.core import Header, Move
from .cards import DECK_KINDS, PENALTY_KINDS, CardSet, Do, Kind
from .cardset import load_card_set
from .engine import GAME
from .moves import (
    Clear,
    Dealt,
    Discard,
    Draw,
    DrawDiscard,
    EndExplore,
    EndRound,
    Flip,
    Follow,
    MoveTo,
    Penalty,
    Play,
    Resolve,
    Reveal,
    Stash,
    Trade,
)
from .resolve import missed_clears
from .setup import DEALT_PER_PLAYER, ROOM_NAMES, main_count, room_count
from .state import MAIN_ROOM, SEEN_PER_DRAW, Phase, State

PLAYERS = ("anna", "ben", "cleo", "dev", "eli", "fay", "gus", "hana")


def deal(card_set: CardSet, players: tuple[str, ...], rng: random.Random, set_name: str = "example") -> dict[str, Any]:
    """A setup object for ``players`` dealt from a shuffled ``card_set`` (EH-SETUP-*)."""
    n = len(players)
    main = list(card_set.ids(Kind.MAIN))
    side = list(card_set.ids(Kind.SIDE))
    betray = list(card_set.ids(Kind.BETRAY))
    deck = list(card_set.ids(*DECK_KINDS))
    penalties = list(card_set.ids(*PENALTY_KINDS))
    for pile in (main, side, betray, deck, penalties):
        rng.shuffle(pile)
    rooms = {name: [side[i]] for i, name in enumerate(ROOM_NAMES[: room_count(n)])}
    hands = {p: [betray[i]] + deck[i * DEALT_PER_PLAYER : (i + 1) * DEALT_PER_PLAYER] for i, p in enumerate(players)}
    names = list(rooms)
    for i, card in enumerate(deck[n * DEALT_PER_PLAYER :]):
        rooms[names[i % len(names)]].append(card)
    return {"card_set": set_name, "main": main[: main_count(n)], "rooms": rooms, "hands": hands, "penalties": penalties}


def _candidates(state: State, rng: random.Random) -> list[Move]:
    """A spread of plausible moves for this moment; the engine decides which are legal."""
    out: list[Move] = []
    rooms = (MAIN_ROOM,) + state.rooms
    if state.penalties_due:
        out.append(Penalty(card=state.penalties[0]))
    for p in state.alive:
        hand = state.hands[p]
        here = state.where[p]
        if state.owed(p):
            out.append(Discard(by=p, card=rng.choice(hand)))
        pile = [c for c in state.discard if c not in state.credit_seen.get(p, frozenset())]
        if pile:
            seen = tuple(rng.sample(pile, min(SEEN_PER_DRAW, len(pile))))
            out.append(DrawDiscard(by=p, seen=seen, keep=rng.choice(seen)))
        if state.phase is Phase.EXPLORE:
            out.append(MoveTo(by=p, room=rng.choice(rooms)))
            deck = state.decks.get(here, ())
            if deck:
                card = rng.choice(deck) if here in state.cleared else deck[0]
                out.append(Draw(by=p, room=here, card=card))
            mates = [q for q in state.in_room(here) if q != p]
            if mates and hand:
                out.append(Trade(by=p, to=rng.choice(mates), card=rng.choice(hand)))
            if len(hand) > 5:
                size = len(state.discard) if here == MAIN_ROOM else len(state.decks[here])
                out.append(Stash(by=p, card=rng.choice(hand), room=here, position=rng.randint(0, size)))
        elif state.phase is Phase.ACTION:
            out.append(MoveTo(by=p, room=rng.choice(rooms)))
            others = [q for q in state.alive if q != p]
            out.append(Follow(by=p, target=rng.choice(others)) if others else MoveTo(by=p, room=here))
            if hand:
                out.append(Play(by=p, card=rng.choice(hand), target=rng.choice(state.alive)))
    if state.phase is Phase.EXPLORE:
        out.append(EndExplore())
    elif state.phase is Phase.ACTION:
        if state.played:
            out.append(Reveal(card=rng.choice(state.played).card))
        out.append(Resolve())
    elif state.phase is Phase.RESOLVE:
        out.extend(Clear(puzzle=puzzle, cards=by) for puzzle, _room, by in missed_clears(state))
        out.append(EndRound())
    return out


def _needed(state: State) -> frozenset[str]:
    """Item names that help clear the face-up main puzzle."""
    main = state.current_main()
    if main is None:
        return frozenset()
    return frozenset(name for cond in state.cards.cards[main].clear for name in cond.items)


def _helps(state: State, move: Move, needed: frozenset[str]) -> bool:
    """Moves a cooperative table would favour: bring the main puzzle's items to the main room."""
    cards = state.cards.cards
    if isinstance(move, (Clear, EndRound, Penalty, Resolve, Discard, EndExplore)):
        return True
    if isinstance(move, Play):
        card = cards[move.card]
        if card.item in needed and state.where.get(move.by or "") == MAIN_ROOM:
            return True
        harmless = {Do.PROTECT, Do.NO_PENALTY, Do.DRAW_DISCARD}
        return card.kind is Kind.TRAP or (card.kind is Kind.ACTION and all(e.do in harmless for e in card.effects))
    if isinstance(move, MoveTo) and state.phase is Phase.ACTION:
        hand = state.hands.get(move.by or "", ())
        return move.room == MAIN_ROOM and any(cards[c].item in needed for c in hand)
    if isinstance(move, (Draw, DrawDiscard)):
        return True
    return False


def _illegal(state: State, rng: random.Random) -> Move | None:
    """A move the engine must refuse: random cards, rooms and players thrown at random verbs."""
    cards = list(state.cards.cards)
    rooms = [MAIN_ROOM, *state.rooms]
    players = list(state.players)
    for _ in range(40):
        p = rng.choice(players)
        card = rng.choice(cards)
        move: Move = rng.choice(
            [
                Draw(by=p, room=rng.choice(rooms), card=card),
                Trade(by=p, to=rng.choice(players), card=card),
                Play(by=p, card=card, target=rng.choice(players)),
                Stash(by=p, card=card, room=rng.choice(rooms), position=0),
                Penalty(card=card),
                Clear(puzzle=card, cards=(rng.choice(cards),)),
                EndRound(),
                Resolve(),
            ]
        )
        if not GAME.judge(state, move).ok:
            return move
    return None


def random_playout(
    seed: int,
    max_moves: int = 1000,
    illegal_every: int | None = None,
    players: int | None = None,
    teamwork: float = 0.6,
) -> tuple[Header, list[Move]]:
    """A whole random game (or ``max_moves`` of it) with the example set; every move is judged.

    ``teamwork`` is how often the table picks a helpful move (bringing items to the main puzzle)
    over any legal one: 0 is pure chance (the cultists nearly always win), 1 a determined table.
    """
    rng = random.Random(seed)
    n = players if players is not None else rng.choice((6, 7, 8))
    names = PLAYERS[:n]
    header = Header("escape-house", names, {}, deal(load_card_set("example"), names, rng))
    state = GAME.new_state(header)
    moves: list[Move] = []
    while len(moves) < max_moves and GAME.outcome(state) is None:
        if illegal_every and (len(moves) + 1) % illegal_every == 0:
            bad = _illegal(state, rng)
            if bad is not None:
                moves.append(bad)
                continue
        legal = [m for m in _candidates(state, rng) if GAME.check(state, m).ok]
        if not legal:  # cannot happen while the game goes on; stop rather than loop
            break
        if rng.random() < teamwork:
            needed = _needed(state)
            legal = [m for m in legal if _helps(state, m, needed)] or legal
        move = rng.choice(legal)
        state = GAME.apply(state, move)
        moves.append(move)
    return header, moves


def as_live_table(header: Header, moves: list[Move], rng: random.Random | None = None) -> tuple[Header, list[Move]]:
    """The same game as a live table plays it: the setup names only the face-up main puzzle and the
    rooms; each player taps their four dealt cards in (``dealt``, in a shuffled order when ``rng`` is
    given); each main puzzle is tapped as it turns up (``flip``). Nothing else changes: a draw names
    the card drawn, and a clear names a face-down side puzzle as it clears it."""
    setup = header.setup
    live = Header(header.game, header.players, header.options,
                  {"card_set": setup["card_set"], "main": [setup["main"][0]], "rooms": list(setup["rooms"])})
    hands = [Dealt(by=p, card=c) for p in header.players for c in setup["hands"][p]]
    if rng is not None:
        rng.shuffle(hands)
    out: list[Move] = list(hands)
    state = GAME.new_state(header)
    for move in moves:
        out.append(move)
        verdict, after = GAME.play(state, move)
        if verdict.ok and after.main and after.main[0] != (state.main[0] if state.main else None) and after.phase is not Phase.OVER:
            out.append(Flip(card=after.main[0]))
        state = after
    return live, out
