"""The demo's script: a whole Escape Master game, turned into what happens at a real table.

Cards that move are tags arriving at readers (a play lands on the reader under its pile, a drawn or
dealt card is tapped on the player's hand pad, a trap lands on the target's action pad); what no
sensor sees ("Start!", "Escape Master!", the end of a round, story choices, escapes) is entered by a
person. A few plays are illegal (the card goes back into the hand), and now and then two players slap
a card on the same pile a few milliseconds apart: the second was beaten to the pile.

The game itself comes from the engine's seeded simulator, so every turn has an expected outcome; the
runner checks the real pipeline reaches it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from companion.core import Header, JsonObject, Move
from companion.contract.game import Game
from companion.games import get_game
from companion.games.escape_master.moves import Deal, Dealt, Draw, EndRound, Escape, Play, Trap
from companion.games.escape_master.playout import random_playout

from companion.demo.rig import PILE_READERS

PLAYERS = ("anna", "ben", "cleo")


@dataclass(frozen=True)
class Tap:
    """A card's tag arrives at a zone's reader, ``pause`` seconds after the previous action."""

    zone: str
    card: str
    pause: float


@dataclass(frozen=True)
class Lift:
    """A card is taken back off a zone's reader."""

    zone: str
    card: str
    pause: float


@dataclass(frozen=True)
class Say:
    """A person enters a move (the referee console's path)."""

    move: JsonObject
    pause: float


Action = Tap | Lift | Say


@dataclass(frozen=True)
class Turn:
    """What happens at the table for one move of the game, and the state it must lead to."""

    intended: tuple[Move, ...]
    legal: bool
    actions: tuple[Action, ...]
    expected_board: JsonObject
    note: str = ""
    settles_later: tuple[str, ...] = ()
    """Scoreboard keys that settle only with a later move: a deal tapped card by card stays in the
    "dealing" phase until the dealer calls Start!, since leader abilities change the hand sizes."""


@dataclass
class Script:
    header: Header
    turns: list[Turn] = field(default_factory=list)

    @property
    def beaten(self) -> int:
        return sum(1 for t in self.turns if t.note == "beaten")

    @property
    def illegal(self) -> int:
        return sum(1 for t in self.turns if not t.legal)


def _pile_of(state: Any, card: str) -> int | None:
    for pile in state.rnd.piles:
        if pile.open and card in pile.cards:
            return int(pile.number)
    return None


def _beaten_attempt(game: Game[Any], before: Any, after: Any, play: Play, number: int, rng: random.Random) -> Play | None:
    """Another player's card that fitted the pile a moment ago, but not after ``play`` landed."""
    mover = play.by
    candidates = []
    for seat, hand in enumerate(before.rnd.hands):
        who = before.name(seat)
        if who == mover:
            continue
        for card in sorted(hand):
            attempt = Play(card=card, pile=number, by=who)
            if game.judge(before, attempt).ok and not game.judge(after, attempt).ok:
                candidates.append(attempt)
    return rng.choice(candidates) if candidates else None


class _Table:
    """Which tags lie on which reader, so cards leave a reader when they are picked up."""

    def __init__(self) -> None:
        self.present: dict[str, list[str]] = {}

    def tap(self, zone: str, card: str, pause: float) -> Tap:
        self.present.setdefault(zone, []).append(card)
        return Tap(zone, card, pause)

    def lift(self, zone: str, card: str, pause: float) -> Lift:
        self.present[zone].remove(card)
        return Lift(zone, card, pause)

    def clear(self, zones: list[str], pace: float) -> list[Action]:
        """Everything picked up off these readers (a round ends, a Dead End takes a pile away)."""
        return [self.lift(z, c, 0.02 * pace) for z in zones for c in list(self.present.get(z, []))]


def _actions(table: _Table, move: Move, before: Any, after: Any, legal: bool, pace: float) -> tuple[Action, ...]:
    """The taps or entry that make ``move`` happen at the table."""
    steps: list[Action] = []
    if isinstance(move, Deal):
        hands = {p: list(cards) for p, cards in move.hands.items()}
        while any(hands.values()):
            for player in PLAYERS:
                if hands.get(player):
                    card = hands[player].pop(0)
                    steps += [table.tap(f"hand-{player}", card, pace * 0.06), table.lift(f"hand-{player}", card, pace * 0.02)]
        return tuple(steps)
    if isinstance(move, (Draw, Dealt)) and move.by is not None:
        zone = f"hand-{move.by}"  # tapped on the hand pad on its way into the hand
        return (table.tap(zone, move.card, pace * 0.8), table.lift(zone, move.card, pace * 0.15))
    if isinstance(move, Trap):
        zone = f"action-{move.target}"
        steps = [table.tap(zone, move.card, pace)]
        if not legal:
            steps.append(table.lift(zone, move.card, pace * 0.8))
        return tuple(steps)
    if isinstance(move, Play):
        cards = (move.card,) if move.card is not None else tuple(move.cards or ())
        number = move.pile if isinstance(move.pile, int) else _pile_of(after, cards[-1]) if legal else None
        if number is not None and 1 <= number <= PILE_READERS and all(cards):
            zone = f"pile-{number}"
            steps = [table.tap(zone, cards[0], pace)]
            steps += [table.tap(zone, c, 0.12 * pace) for c in cards[1:]]
            if not legal:
                steps += [table.lift(zone, c, pace * 0.8) for c in cards]
            elif _pile_of(after, cards[-1]) is None:  # a Dead End closed it: the pile leaves the table
                steps += table.clear([zone], pace)
            return tuple(steps)
    steps = [Say(_entry(move), pace)]
    if legal and isinstance(move, Escape):
        steps += table.clear([f"action-{p}" for p in PLAYERS if before.rnd.actions != after.rnd.actions], pace)
    if legal and isinstance(move, EndRound):
        steps += table.clear(sorted(table.present), pace)
    return tuple(steps)


def _entry(move: Move) -> JsonObject:
    data = get_game("escape-master").codec.to_json(move)
    data.pop("t", None)  # a person's entry takes the table time of the moment it is entered
    return data


def build_script(seed: int = 7, illegal_every: int | None = 13, beaten_every: int = 40, pace: float = 0.7) -> Script:
    """The whole demo game, turn by turn, with the board each turn must leave behind."""
    header, moves = random_playout(seed, 5000, illegal_every=illegal_every, players=PLAYERS, options={})
    game = get_game(header.game)
    rng = random.Random(seed)
    script = Script(header)
    state = game.new_state(header)
    table = _Table()
    since_beaten = 0
    dealt_by_taps = False  # from a Deal until Start!: the phase reads "dealing" on the real table
    for move in moves:
        verdict, after = game.play(state, move)
        if verdict.ok and isinstance(move, Deal):
            dealt_by_taps = True
        elif verdict.ok and move.verb == "start":
            dealt_by_taps = False
        since_beaten += 1
        beaten = None
        if verdict.ok and isinstance(move, Play) and move.card is not None and since_beaten >= beaten_every:
            number = move.pile if isinstance(move.pile, int) else _pile_of(after, move.card)
            if number is not None and number <= PILE_READERS:
                beaten = _beaten_attempt(game, state, after, move, number, rng)
        script.turns.append(
            Turn(
                (move,),
                verdict.ok,
                _actions(table, move, state, after, verdict.ok, pace),
                game.scoreboard(after),
                settles_later=("phase",) if dealt_by_taps else (),
            )
        )
        if beaten is not None:
            number = int(beaten.pile)
            assert beaten.card is not None
            zone = f"pile-{number}"
            slap = (table.tap(zone, beaten.card, 0.03), table.lift(zone, beaten.card, pace))
            script.turns.append(Turn((beaten,), False, slap, game.scoreboard(after), note="beaten"))
            since_beaten = 0
        state = after
    return script


def deck() -> tuple[str, ...]:
    found = get_game("escape-master").deck()
    if not found:
        raise RuntimeError("the Escape Master engine does not list its deck")
    return found
