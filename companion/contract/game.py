"""What a game is: a declaration the session drives (after boardgame.io and python-chess).

A game module defines frozen move dataclasses, a frozen options dataclass (every rulebook variant
and every gap in ``rules/GAPS.md`` is a field with its default), a :class:`RuleBook`, and a
subclass of :class:`Game` whose methods are pure functions of (state, move): no I/O, no clock,
no randomness. The module exposes the instance as ``GAME``; ``companion.games`` finds it by id.
"""

from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from dataclasses import dataclass
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar, Generic, TypeVar

from companion.core import (
    Header,
    JsonObject,
    Move,
    Observation,
    ObservationKind,
    Outcome,
    Prompt,
    Rule,
    RuleBook,
    Unexplained,
    Verdict,
    ZoneKind,
)
from companion.core.picks import Choice, Pick
from companion.core.seen import PressSeen, Seen, read_press, read_seen
from companion.core.setup_form import SetupForm
from companion.core.errors import NotationError, SetupError
from companion.contract.copies import settle as settle_copies
from companion.contract.dispatch import MoveTable
from companion.contract.sensors import Pending
from companion.core.codec import MoveCodec, dataclass_from_json, dataclass_to_json

S = TypeVar("S")


@dataclass(frozen=True)
class Narrowed:
    """A wide verb's moves that agree with a draft so far (:meth:`Game.narrowed`)."""

    moves: Sequence[Move]
    whole: bool
    """All of them. False: only enough to show which next taps lead to a legal move; the builder
    offers no one-tap moves from them (it cannot say they are the few that fit)."""

@dataclass(frozen=True)
class Points:
    """Each player's points once the game is over, for a play record (BG Stats): ``highest_wins``
    False where fewer is better (Escape Master's faults)."""

    by_player: Mapping[str, int]
    highest_wins: bool = True


GAME_OVER = Rule(
    "GAME-OVER",
    "The game is over",
    "DESIGN.md",
    "Once a game has an outcome no further move is made; a new game starts from a new header.",
)


class Game(ABC, Generic[S]):
    """A game's rules. Subclasses fill in the class attributes and the abstract methods."""

    id: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    move_types: ClassVar[tuple[type[Move], ...]]
    options_type: ClassVar[type[Any]]
    """A frozen dataclass; every field has a default (the rulebook's, or the GAPS.md default)."""
    rules: ClassVar[RuleBook]
    zone_kinds: ClassVar[tuple[ZoneKind, ...]] = ()
    """The kinds of zone this game reads (its own, declared in its package, and shared ones from
    :mod:`companion.core.zones`); a table config's zones may be only of these kinds."""
    move_table: ClassVar["MoveTable[Any] | None"] = None
    """The game's rules by move type (:mod:`companion.contract.dispatch`), the one idiom of dispatch."""
    player_rule: ClassVar[str] = ""
    """The rule id this game cites when a move's player is not at the table (old logs cite it)."""
    pick_kinds: ClassVar[tuple[Pick, ...]] = ()
    """The kinds of pick this game declares for its own move fields (the generic ones are core's,
    :data:`companion.core.picks.GENERIC`)."""

    def __init__(self) -> None:
        self.codec = MoveCodec(self.id, self.move_types)

    # -- setting up -------------------------------------------------------------------------

    def parse_options(self, raw: Mapping[str, Any]) -> Any:
        try:
            return dataclass_from_json(self.options_type, raw, "options")
        except NotationError as exc:
            raise SetupError(exc.message) from exc

    def default_options(self) -> JsonObject:
        return dataclass_to_json(self.options_type())

    def new_state(self, header: Header) -> S:
        """The state before the first move, from a notation header. Raises :class:`SetupError`."""
        if header.game != self.id:
            raise SetupError(f'header is for "{header.game}", not "{self.id}"')
        n = len(header.players)
        if not self.min_players <= n <= self.max_players:
            span = (
                f"{self.min_players}" if self.min_players == self.max_players else f"{self.min_players} to {self.max_players}"
            )
            raise SetupError(f"{self.title} is for {span} players, not {n}")
        options = self.parse_options(header.options)
        return self.setup(header.players, options, header.setup)

    @abstractmethod
    def setup(self, players: tuple[str, ...], options: Any, setup: Mapping[str, Any]) -> S:
        """The state after the table is set up as ``setup`` (NOTATION.md) says. Raises SetupError."""

    # -- the rules ----------------------------------------------------------------------------

    @abstractmethod
    def check(self, state: S, move: Move) -> Verdict:
        """Is ``move`` legal in ``state``? No side effects."""

    @abstractmethod
    def apply(self, state: S, move: Move) -> S:
        """The state after ``move``. Precondition: ``check(state, move)`` is legal."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """None while the game goes on."""

    def judge(self, state: S, move: Move) -> Verdict:
        """``check``, after the rules every game shares (no moves once the game is over)."""
        if self.outcome(state) is not None:
            return Verdict.illegal(GAME_OVER.id, "the game is over; start a new game to play on")
        return self.check(state, move)

    def judge_seen(self, state: S, move: Move, viewer: str | None) -> Verdict:
        """How a page may mark ``move`` for ``viewer`` (None: the referee, who sees everything): the
        engine's own judgment, except where a game's verdict turns on cards the viewer cannot see
        (Escape Master's Draw! call is legal only when nobody can play). There the game judges only
        what the viewer can see, the page offers the move, and the engine decides when it is sent."""
        return self.judge(state, move)

    def play(self, state: S, move: Move) -> tuple[Verdict, S]:
        """Judge and, if legal, apply. An illegal move leaves the state as it was."""
        verdict = self.judge(state, move)
        return verdict, (self.apply(state, move) if verdict.ok else state)

    def copies(self, state: S, card: str) -> Sequence[str]:
        """The cards identical to ``card`` (itself included, in deck order): copies a reader tells apart
        by their tags and the rules do not. Empty for a card without copies, the default."""
        return ()

    def card_name(self, state: S, card: str) -> str:
        """A card as a person names it: identical copies alike ("7 START" for any start card), since a
        copy's own name is the engine's (a reader's tag). Any other word is given back as it is, the
        default."""
        return card

    def settle(self, state: S, move: Move) -> Move:
        """``move`` as a person meant it: where it names a copy that is not where the move needs it and
        an identical copy is, made with that copy (:mod:`companion.contract.copies`)."""
        return settle_copies(move, lambda card: self.copies(state, card), lambda m: self.judge(state, m))

    def rule(self, rule_id: str) -> Rule:
        if rule_id == GAME_OVER.id:
            return GAME_OVER
        return self.rules[rule_id]

    # -- what people see ------------------------------------------------------------------------

    @abstractmethod
    def scoreboard(self, state: S) -> JsonObject:
        """The public scoreboard (NOTATION.md). Never carries a hidden card."""

    def points(self, state: S) -> Points | None:
        """Each player's points as the rules count them at the end (a play record's scores), or None
        for a game that keeps no points but a winner (the default)."""
        return None

    @abstractmethod
    def view(self, state: S, player: str | None) -> JsonObject:
        """What ``player`` may see (their own hand, ...); ``None`` is the referee's full view."""

    def deck(self) -> tuple[str, ...] | None:
        """Every card id that can carry a tag, in enrolment order; None for a game without a fixed deck."""
        return None

    def public_move(self, move: Move) -> JsonObject:
        """The move as anyone at the table may see it: hidden fields (a drawn card) left out."""
        out = self.codec.to_json(move)
        for name in move.hidden_fields:
            out.pop(name, None)
        return out

    def prompts(self, state: S) -> tuple[Prompt, ...]:
        """What the session must ask a person for before the game can go on (die rolls, plans)."""
        return ()

    def pending(self, state: S) -> tuple[Pending, ...]:
        """Moves the table has begun and not finished (the first card of two put down), each with where
        and since when: the referee turns one left too long into an alert (issue 21)."""
        return ()

    # -- entry by tapping (companion.entry) ---------------------------------------------------

    def candidates(self, state: S, by: str | None) -> Iterable[Move]:
        """Moves worth offering ``by`` now: every legal move at least (the builder judges each, so
        extra candidates cost only time). A draw may range over every card it could be.

        A verb with too many moves to judge on every tap (every way to look at three cards of a
        21-card pile) may be listed here only in part, if :meth:`narrowed` answers for it."""
        return ()

    def out_of_game(self, state: S, player: str) -> str | None:
        """Why ``player`` takes no further part in this game (sacrificed), in words; None, the default,
        while they play on. The builder offers such a player no move, only this sentence."""
        return None

    def narrowed(self, state: S, by: str | None, verb: str, given: Mapping[str, Any]) -> "Narrowed | None":
        """For a wide verb, the moves worth offering once a draft has chosen it: those that agree
        with ``given`` (the draft's fields so far that are judged for this viewer, a list field's
        values so far included). None, the default: :meth:`candidates` lists the verb whole.

        The game decides how far to list: all such moves, or, while they are too many, enough that
        each way to take the draft's next tap toward a legal move (a value of the next field, or
        finishing a list) is in one of them; each tap narrows the next answer."""
        return None

    def choices(self, state: S, viewer: str | None, by: str | None, pick: Pick, every: bool) -> Sequence[Choice] | None:
        """The values a field drawn from ``pick`` may take, as ``viewer`` knows the table (None: the
        referee, who sees everything). ``every``: the whole domain (the deck, every slot), for a move
        entered illegal on purpose. None: the builder's default (players, a field's Literal/Enum words).

        A player's domain is built from what that player may see and nothing else."""
        return None

    def setup_form(self) -> "SetupForm | None":
        """The setup as the referee's console taps it in (:mod:`companion.core.setup_form`): only what is
        face up or chosen at the table. None: this game cannot be set up by taps yet."""
        return None

    # -- from the table to a move ---------------------------------------------------------------

    def interpret(self, state: S, observation: Observation) -> Move | Unexplained | None:
        """Turn an observation into a move. ``None``: nothing to do (logged, no verdict).

        Notation moves (from a person or a file) are read with the codec; what a reader or the
        camera saw is read once into its typed value (an unreadable payload raises
        :class:`~companion.core.errors.ObservationError`) and handed to :meth:`interpret_table`.
        """
        if observation.kind is ObservationKind.MOVE:
            move = self.codec.from_json(dict(observation.payload))
            if move.t is None:
                move = move.replace(t=observation.table_time)
            return move
        if observation.kind in (ObservationKind.TAG, ObservationKind.VISION):
            return self.interpret_table(state, read_seen(observation))
        if observation.kind is ObservationKind.PRESS:
            return self.interpret_press(state, read_press(observation))
        return None

    def interpret_table(self, state: S, seen: Seen) -> Move | Unexplained | None:
        """What a reader (:class:`~companion.core.seen.TagSeen`) or the camera
        (:class:`~companion.core.seen.VisionSeen`) saw: the move it makes, an :class:`Unexplained`
        alert naming the zone and the fix, or None (nothing to do). Games with sensors override it."""
        return None

    def interpret_press(self, state: S, seen: PressSeen) -> Move | Unexplained | None:
        """A button at the table was pressed (a call button on a player's pad, wired to the reader
        array): the call it makes now. A game with call buttons overrides it; any other game says the
        button is not one of its zones."""
        zone = seen.zone.name
        return Unexplained(zone, f"a button was pressed at {zone}, and {self.title} has no buttons",
                           f"take the button at {zone} out of the table config")


def option_fields(options_type: type[Any]) -> list[tuple[str, Any, str]]:
    """(name, default, doc) of every option, for ``companion init`` and the setup page."""
    out = []
    for f in dataclasses.fields(options_type):
        if f.default is not dataclasses.MISSING:
            default: Any = f.default
        elif f.default_factory is not dataclasses.MISSING:
            default = f.default_factory()
        else:
            default = None
        out.append((f.name, default, str(f.metadata.get("doc", ""))))
    return out
