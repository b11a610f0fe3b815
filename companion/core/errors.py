"""One exception tree for the whole companion.

Every error a person can cause (bad notation, bad config, a garbled serial frame, a tag no one
enrolled) is a subclass of :class:`CompanionError` and carries one plain sentence naming the
input and the problem. An *illegal move* is not an exception: it is a :class:`~companion.core.Verdict`
value that reaches the log and the screen. :class:`IllegalMoveError` exists only for code that
calls ``apply`` without checking first, which is a programming error.
"""

from __future__ import annotations


class CompanionError(Exception):
    """Base of every error the companion raises on purpose."""


class NotationError(CompanionError, ValueError):
    """A notation line (header or move) that cannot be read: bad JSON, unknown verb, missing field."""

    def __init__(self, message: str, line: int | None = None) -> None:
        self.message = message
        self.line = line
        super().__init__(f"line {line}: {message}" if line is not None else message)

    def at_line(self, line: int) -> "NotationError":
        """The same problem, now naming the line of the file it came from."""
        return type(self)(self.message, line)


class SetupError(NotationError):
    """A game header whose players, options or setup break the rules of setting up."""


class UnknownGameError(NotationError):
    """A game id that no registered game answers to."""


class UnknownMoveError(NotationError):
    """A move of a type the game does not have (another game's move, or none at all): the same
    refusal from ``check`` and ``apply`` of every game (:mod:`companion.contract.dispatch`)."""


class IllegalMoveError(CompanionError, ValueError):
    """``apply`` was called with a move that ``check`` rejects."""


class ObservationError(CompanionError, ValueError):
    """A TAG or VISION observation whose payload does not say what its kind documents (a zone
    without a name, an event that is neither arrive nor depart, a square that is not [x, y])."""


class ConfigError(CompanionError, ValueError):
    """The table config file is missing, unreadable, or has a bad key."""


class LogError(CompanionError):
    """The game log cannot be opened, or does not belong to the game being asked about."""


class LogIntegrityError(LogError):
    """The hash chain of a log is broken: a row was edited, removed or reordered."""

    def __init__(self, message: str, seq: int) -> None:
        self.seq = seq
        super().__init__(message)


class HardwareError(CompanionError):
    """A reader, serial link or camera failed in a way the service must report."""


class FrameError(HardwareError, ValueError):
    """A serial frame from the reader array that does not parse or fails its checksum."""


class EnrolmentError(CompanionError, ValueError):
    """A tag or card enrolment that would make the registry ambiguous."""
