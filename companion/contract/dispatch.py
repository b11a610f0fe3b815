"""Move dispatch: one handler pair (check, apply) per move type, found by the move's exact type.

Every game keeps its rules in such a table and refuses a move of a type it does not have the one
same way, with :class:`~companion.core.errors.UnknownMoveError`, from both ``check`` and
``apply``. Looking a handler up by ``type(move)`` is one dict read, where an ``isinstance`` chain
pays a call for every verb tried before the right one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Generic, TypeVar

from companion.core import Move, Verdict
from companion.core.errors import UnknownMoveError

S = TypeVar("S")

Check = Callable[[S, Any], Verdict]
"""Is the move (of the handler's type) legal in the state? No side effects."""
Apply = Callable[[S, Any], S]
"""The state after the move; called only with a move its check found legal."""


class MoveTable(Generic[S]):
    """A game's rules by move type: ``MoveTable("Everest", {Plan: (check_plan, apply_plan), ...})``.

    Keyed by the exact class (a move type is never subclassed), so a lookup is one dict read.
    """

    __slots__ = ("game", "_check", "_apply")

    def __init__(self, game: str, handlers: Mapping[type[Move], tuple[Check[S], Apply[S]]]) -> None:
        self.game = game
        self._check: dict[type[Move], Check[S]] = {kind: pair[0] for kind, pair in handlers.items()}
        self._apply: dict[type[Move], Apply[S]] = {kind: pair[1] for kind, pair in handlers.items()}

    @property
    def move_types(self) -> tuple[type[Move], ...]:
        return tuple(self._check)

    def unknown(self, move: object) -> UnknownMoveError:
        """The refusal of a move this game does not have."""
        verb = getattr(move, "verb", "") or type(move).__name__
        return UnknownMoveError(f'"{verb}" ({type(move).__name__}) is not a move of {self.game}')

    def checker(self, move: Move) -> Check[S]:
        """The check for ``move``'s type, for a game that asks its own questions of every move
        first (whose turn, which phase) and only then the verb's. Raises :class:`UnknownMoveError`."""
        check = self._check.get(type(move))
        if check is None:
            raise self.unknown(move)
        return check

    def check(self, state: S, move: Move) -> Verdict:
        check = self._check.get(type(move))
        if check is None:
            raise self.unknown(move)
        return check(state, move)

    def apply(self, state: S, move: Move) -> S:
        apply = self._apply.get(type(move))
        if apply is None:
            raise self.unknown(move)
        return apply(state, move)
