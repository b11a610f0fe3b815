"""The Everest notation verbs (NOTATION.md "Everest"), one frozen dataclass per verb.

Core verbs: ``plan``, ``roll``, ``order``, ``end_round``. Extensions (docs/notation.md, Everest):
``roll`` may name its ``purpose`` and the ``roarer``; ``end_round`` takes an optional ``set_aside``
naming which coins a damaged player puts aside; ``heal`` and ``set_aside`` are one player's own
choice at the end of a round, each its own entry.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, Literal

from companion.core import Move
from companion.core.picks import FieldSpec, Pick
from .picks import COIN, PLANNED_COIN

CoinValue = Literal["blank", "ace", "2", "3", "4", "5"]
Face = Literal["value", "suit"]
DieFace = Literal["blank", "ace", "2", "3", "4", "5"]
RollPurpose = Literal["conflict", "check", "reaction"]

COINS: tuple[CoinValue, ...] = ("blank", "ace", "2", "3", "4", "5")
"""GAPS.md: each player's six coins are the values blank, ace, 2, 3, 4, 5."""

DIE_VALUE: dict[str, int] = {"blank": 0, "ace": 1, "2": 2, "3": 3, "4": 4, "5": 5}
"""A piecepack die shows blank, ace, 2..5; for movement and for the high roll an ace is 1, a blank 0."""
DIE_FACES: tuple[DieFace, ...] = ("blank", "ace", "2", "3", "4", "5")
"""The face of each die value, as the table says it (``DIE_FACES[DIE_VALUE[face]] == face``)."""

MAX_PLAN = 3

_set = object.__setattr__


Kind = Literal["move", "roar", "snowball"]


def derive(coin: str, face: str, direction: str) -> tuple[Kind, int, str]:
    """What a coin does, from its value, its face and its tick mark: its kind (the value side: a
    number moves, ace = 1, a blank roars; the suit side: a snowball), its movement points, and how
    the reveal names it (EV-SECRET): "move 3 N", "roar E", "snowball S"."""
    if face == "suit":
        return "snowball", 0, f"snowball {direction}"
    if coin == "blank":
        return "roar", 0, f"roar {direction}"
    return "move", DIE_VALUE[coin], f"move {coin} {direction}"


_DERIVED: dict[tuple[str, str, str], tuple[Kind, int, str]] = {
    (coin, face, direction): derive(coin, face, direction)
    for coin in COINS
    for face in ("value", "suit")
    for direction in ("N", "E", "S", "W")
}
"""Each of the 48 coins a plan can hold, worked out once."""


@dataclass(frozen=True)
class PlanCoin:
    """One coin of a plan: which coin, which side is up, and where its tick mark points.

    ``kind``, ``mp`` and ``label`` (``derive``) are set as the coin is made, from a table of the 48
    coins: the engine reads them for every coin it carries out. They are fields without a class
    default (not properties), so the interpreter reads them at full speed (core/frozen.py says why);
    they follow from the other three, so they are not compared, hashed or written."""

    coin: CoinValue
    face: Face
    dir: Literal["N", "E", "S", "W"]
    kind: Kind = field(init=False, compare=False, repr=False)
    mp: int = field(init=False, compare=False, repr=False)
    label: str = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        kind, mp, label = _DERIVED.get((self.coin, self.face, self.dir)) or derive(self.coin, self.face, self.dir)
        _set(self, "kind", kind)  # (frozen: set once, here)
        _set(self, "mp", mp)
        _set(self, "label", label)

    def text(self) -> str:
        return self.label


@dataclass(frozen=True, kw_only=True)
class Plan(Move):
    """A player's secret plan: up to three coins, performed left to right."""

    verb: ClassVar[str] = "plan"
    hidden_fields: ClassVar[tuple[str, ...]] = ("coins",)
    picks = {"coins": FieldSpec(PLANNED_COIN, many=True, least=0, most=MAX_PLAN, free=True, full_at_most=True, ask="Plan your coins, first to last")}
    coins: tuple[PlanCoin, ...]

    def __post_init__(self) -> None:
        if len(self.coins) > MAX_PLAN:
            raise ValueError(f"a plan has at most {MAX_PLAN} coins, not {len(self.coins)}")


@dataclass(frozen=True, kw_only=True)
class Roll(Move):
    """A die roll the engine asked for (a conflict, a roar check, a roar reaction).

    ``purpose`` and ``roarer`` (optional; files written before them have neither) say what the roll
    is for, so that a log line reads on its own; when given, they must be what the engine asks.
    """

    verb: ClassVar[str] = "roll"
    picks = {
        "value": FieldSpec.one(Pick.WORD),
        "purpose": FieldSpec.one(Pick.WORD, optional=True),
        "roarer": FieldSpec.one(Pick.PLAYER, optional=True),
    }
    value: DieFace
    purpose: RollPurpose | None = None
    roarer: str | None = None
    """The roaring yeti's player, for a roar check or a reaction."""


@dataclass(frozen=True, kw_only=True)
class Order(Move):
    """The high roller's order for conflicting actions (players, first to last)."""

    verb: ClassVar[str] = "order"
    picks = {"sequence": FieldSpec.list_of(Pick.PLAYER, 2, 4)}
    sequence: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class EndRound(Move):
    """The end of a round: who goes home to heal, and (optionally) which coins the damaged set aside."""

    verb: ClassVar[str] = "end_round"
    picks = {
        "heal": FieldSpec.list_of(Pick.PLAYER, 0, 4, ordered=False),
        "set_aside": FieldSpec.by_player(COIN, 0, 6, optional=True),
    }
    heal: tuple[str, ...] = ()
    set_aside: dict[str, tuple[CoinValue, ...]] | None = None


@dataclass(frozen=True, kw_only=True)
class Heal(Move):
    """One player's choice at the end of a round: the yeti goes home to heal (EV-HEAL)."""

    verb: ClassVar[str] = "heal"


@dataclass(frozen=True, kw_only=True)
class SetAside(Move):
    """One player names the coins the round's damage sets aside (EV-DAMAGE)."""

    verb: ClassVar[str] = "set_aside"
    picks = {"coins": FieldSpec.list_of(COIN, 0, 6, ordered=False)}
    coins: tuple[CoinValue, ...]


MOVE_TYPES: tuple[type[Move], ...] = (Plan, Roll, Order, EndRound, Heal, SetAside)

