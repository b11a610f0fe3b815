"""Pick kinds are open declarations: core's generic ones, and each game's own in its own package;
the builder keys on what a pick declares (never judged for players, each value once in a list, the
players at the table), never on which pick it is."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

from companion.core import Move, Verdict
from companion.core.picks import GENERIC, Choice, FieldSpec, Pick
from companion.entry.builder import Builder, Draft, field_specs
from companion.games import game_ids, get_game
from tests.conftest import TOY_HEADER
from tests.toy_game.engine import State, ToyGame


def _used(game_id: str) -> set[Pick]:
    game = get_game(game_id)
    used = {spec.pick for move_type in game.move_types for _, spec in field_specs(move_type)}
    form = game.setup_form()
    return used | ({f.spec.pick for f in form.fields} if form is not None else set())


@pytest.mark.parametrize("game_id", game_ids())
def test_a_game_uses_the_generic_picks_and_its_own_declared_ones(game_id: str) -> None:
    own = get_game(game_id).pick_kinds
    used = _used(game_id)
    assert used <= set(GENERIC) | set(own), sorted(p.value for p in used - set(GENERIC) - set(own))
    assert set(own) <= used, "a game declares only the picks its fields use"
    names = [p.value for p in (*GENERIC, *own)]
    assert len(names) == len(set(names)), "two picks of one game share a name"


def test_generic_picks_keep_their_names_and_properties() -> None:
    assert [p.value for p in GENERIC] == ["hand_card", "unseen_card", "public_card", "player", "number", "word"]
    assert [p.value for p in GENERIC if p.never_judged_for_players] == ["unseen_card"]
    assert [p.value for p in GENERIC if p.once_in_a_list] == ["hand_card", "player"]
    assert [p.value for p in GENERIC if p.of_players] == ["player"]


# -- a toy game whose own picks carry the properties ----------------------------------------------

SEATS = ("north", "east", "south", "west")
SEAT = Pick("seat", "A seat at the toy table; each named once.", once_in_a_list=True)
CALL = Pick("call", "A seat called out; the same one may be called again.")
FACE_DOWN = Pick("face_down", "A card turned face down: not judged for a player.", never_judged_for_players=True)
WHO = Pick("who", "Somebody at the table, from the players seated.", of_players=True)


@dataclass(frozen=True, kw_only=True)
class Seat(Move):
    verb: ClassVar[str] = "seat"
    picks = {"seats": FieldSpec.list_of(SEAT, 2, 2)}
    seats: tuple[str, str]


@dataclass(frozen=True, kw_only=True)
class Call(Move):
    verb: ClassVar[str] = "call"
    picks = {"calls": FieldSpec.list_of(CALL, 2, 2)}
    calls: tuple[str, str]


@dataclass(frozen=True, kw_only=True)
class Hide(Move):
    verb: ClassVar[str] = "hide"
    picks = {"card": FieldSpec.one(FACE_DOWN)}
    card: str


@dataclass(frozen=True, kw_only=True)
class Point(Move):
    verb: ClassVar[str] = "point"
    picks = {"at": FieldSpec.one(WHO)}
    at: str


class PickToy(ToyGame):
    """The toy game with four more verbs, whose legal moves are only a few of the values offered."""

    move_types = (*ToyGame.move_types, Seat, Call, Hide, Point)

    def check(self, state: State, move: Move) -> Verdict:
        if isinstance(move, (Seat, Call)):
            values = move.seats if isinstance(move, Seat) else move.calls
            return self._only(values[0] == "north", "start at north")
        if isinstance(move, Hide):
            return self._only(move.card == "ace", "only the ace")
        if isinstance(move, Point):
            return self._only(move.at == "ben", "point at ben")
        return super().check(state, move)

    @staticmethod
    def _only(ok: bool, why: str) -> Verdict:
        return Verdict.legal() if ok else Verdict.illegal("TOY-MOST", why)

    def candidates(self, state: State, by: str | None) -> Iterable[Move]:
        yield from super().candidates(state, by)
        yield from (Seat(by=by, seats=("north", s)) for s in SEATS)
        yield from (Call(by=by, calls=("north", s)) for s in SEATS)
        yield Hide(by=by, card="ace")
        yield Point(by=by, at="ben")

    def choices(self, state: State, viewer: str | None, by: str | None, pick: Pick, every: bool) -> Sequence[Choice] | None:
        if pick in (SEAT, CALL):
            return [Choice(s, s) for s in SEATS]
        if pick is FACE_DOWN:
            return [Choice(c, c) for c in ("ace", "king", "queen")]
        return super().choices(state, viewer, by, pick, every)


TOY = PickToy()


def _next(viewer: str | None, verb: str, fields: dict[str, Any] | None = None) -> dict[str, Any]:
    state = TOY.new_state(TOY_HEADER)
    page = Builder(TOY, state, TOY_HEADER.players, viewer).offer(Draft("anna", verb, fields or {})).to_json()
    nxt: dict[str, Any] = page["next"]
    return nxt


def test_a_pick_declared_once_in_a_list_is_not_offered_again() -> None:
    seat = _next("anna", "seat", {"seats": ["north"]})
    call = _next("anna", "call", {"calls": ["north"]})
    assert seat["pick"] == "seat" and [c["value"] for c in seat["choices"]] == ["east", "south", "west"]
    assert call["pick"] == "call" and [c["value"] for c in call["choices"]] == ["north", "east", "south", "west"]


def test_a_pick_never_judged_for_players_is_offered_whole_to_a_player_and_judged_for_the_referee() -> None:
    player = _next("anna", "hide")
    referee = _next(None, "hide")
    assert [(c["value"], c["legal"]) for c in player["choices"]] == [("ace", True), ("king", True), ("queen", True)]
    assert [(c["value"], c["legal"]) for c in referee["choices"]] == [("ace", True)]


def test_a_pick_of_players_offers_the_players_at_the_table() -> None:
    point = _next(None, "point")
    assert [(c["value"], c["legal"]) for c in point["choices"]] == [("ben", True)]
    assert point["hidden_choices"] == 1  # anna, one tap away under "show every value"
