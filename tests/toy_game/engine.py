"""The toy game's rules: a tiny real game for testing the spine (session, log, web) apart from any one rulebook.

Take-away: players take 1 to 3 counters in turn from a pile; whoever takes the last one wins.
``peek`` carries a hidden field, to test that public views leave it out.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from companion.core import JsonObject, Move, Outcome, Rule, RuleBook, Termination, Unexplained, Verdict
from companion.core.picks import Choice, FieldSpec, Pick
from companion.core.seen import Seen, TagSeen
from companion.core.zones import HAND_PAD
from companion.core.errors import SetupError
from companion.contract.game import Game


@dataclass(frozen=True)
class Take(Move):
    verb: ClassVar[str] = "take"
    picks = {"n": FieldSpec.one(Pick.NUMBER)}
    n: int

    def __post_init__(self) -> None:
        if self.n < 1:
            raise ValueError("n must be at least 1")


@dataclass(frozen=True)
class Peek(Move):
    verb: ClassVar[str] = "peek"
    hidden_fields: ClassVar[tuple[str, ...]] = ("card",)
    picks = {"card": FieldSpec.one(Pick.UNSEEN_CARD)}
    card: str


@dataclass(frozen=True)
class Options:
    pile: int = field(default=21, metadata={"doc": "Counters in the pile at the start."})
    most: int = field(default=3, metadata={"doc": "The most counters one turn may take."})


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    left: int
    turn: int
    most: int
    winner: str | None = None
    secrets: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Won:
    """Whoever took the last counter."""

    winner: str

    def to_json(self) -> JsonObject:
        return {"winner": self.winner}


RULES = RuleBook(
    [
        Rule("TOY-TURN", "Turns", "toy", "Players take turns."),
        Rule("TOY-MOST", "At most", "toy", "Take one, two or three."),
        Rule("TOY-LEFT", "Enough", "toy", "You cannot take more than is left."),
    ]
)


class ToyGame(Game[State]):
    id = "toy"
    title = "Take-away"
    min_players = 2
    max_players = 4
    move_types = (Take, Peek)
    options_type = Options
    rules = RULES
    zone_kinds = (HAND_PAD,)  # a counter tapped on a player's pad is a take of one

    def setup(self, players: tuple[str, ...], options: Any, setup: Mapping[str, Any]) -> State:
        if setup.get("bad"):
            raise SetupError("setup.bad: this table is not set up")
        return State(players, options.pile, 0, options.most)

    def check(self, state: State, move: Move) -> Verdict:
        if move.by != state.players[state.turn]:
            return Verdict.illegal("TOY-TURN", f"it is {state.players[state.turn]}'s turn", "wait your turn")
        if isinstance(move, Take):
            if move.n > state.most:
                return Verdict.illegal("TOY-MOST", f"take at most {state.most}", "put some back")
            if move.n > state.left:
                return Verdict.illegal("TOY-LEFT", f"only {state.left} left", "put some back")
        return Verdict.legal()

    def apply(self, state: State, move: Move) -> State:
        if isinstance(move, Peek):
            return replace(state, secrets=state.secrets + ((str(move.by), move.card),))
        assert isinstance(move, Take)
        left = state.left - move.n
        return replace(
            state,
            left=left,
            turn=(state.turn + 1) % len(state.players),
            winner=move.by if left == 0 else None,
        )

    def outcome(self, state: State) -> Outcome | None:
        if state.winner is None:
            return None
        return Outcome(Termination.GOAL, (state.winner,), Won(state.winner))

    def scoreboard(self, state: State) -> JsonObject:
        return {"left": state.left, "turn": state.players[state.turn]}

    def view(self, state: State, player: str | None) -> JsonObject:
        return {**self.scoreboard(state), "secrets": [c for p, c in state.secrets if player in (None, p)]}

    def candidates(self, state: State, by: str | None) -> Iterable[Move]:
        return [Take(by=by, n=n) for n in range(1, state.most + 1)]

    def choices(self, state: State, viewer: str | None, by: str | None, pick: Pick, every: bool) -> Sequence[Choice] | None:
        if pick is Pick.NUMBER:
            return [Choice(n, str(n)) for n in range(1, (9 if every else state.most) + 1)]
        if pick is Pick.UNSEEN_CARD:
            return [Choice(c, c) for c in ("ace", "king")]
        return None

    def interpret_table(self, state: State, seen: Seen) -> Move | Unexplained | None:
        if isinstance(seen, TagSeen):
            if seen.card is None:
                return Unexplained(seen.zone.name, "a tag no one enrolled", "enrol it")
            if not seen.arrived:
                return None
            return Take(n=1, by=seen.zone.player, t=seen.t)
        return None


GAME = ToyGame()
