"""The engine's short cuts give exactly the answers of the plain definitions they stand in for.

EV-CONFLICT is decided by conflicts.find_conflict: it groups the units whose reaches (grown for yeti
that others could displace first) touch, tries only the orders within each group, and reads each
roar's footprint along the way; resolve.py does not even ask when no two reaches touch. The
reference here is the rulebook's definition done literally: every unit, in every order, on a fresh
copy, comparing where every yeti ends up and what every roar would see (the large generated check
is test_everest_conflict_property.py; the facts the reaches rest on are checked here). The other short cuts (remembered rays, PlanCoin's table,
quiet scratch copies, boards shared between games) are checked against plain walks, the
properties themselves, and a second run.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping
from itertools import permutations
from typing import Any

from companion.games.everest import GAME
from companion.games.everest.board import DIRECTIONS, VECTORS, Board, Direction, Square, make_board, step
from companion.games.everest.conflicts import Kind, Part, Unit, step_units, units_conflict
from companion.games.everest.reaches import _line, reach
from companion.games.everest.moves import COINS, PlanCoin, derive
from companion.games.everest.movement import Scratch, move, roar_footprint, snowballs
from companion.games.everest.playout import random_playout
from companion.games.everest.state import EverestState


def every_order_differs(t: Scratch, units: list[Unit]) -> bool:
    """The rulebook: do two orders of the units give different results?"""
    results = set()
    for order in permutations(units):
        s = t.copy()
        roars = []
        for kind, parts in order:
            if kind == "roar":
                seat, direction, _ = parts[0]
                roars.append((seat, roar_footprint(s, seat, direction)))
            else:
                perform_alone(s, kind, parts)
        results.add(s.signature() + tuple(sorted(roars)))
    return len(results) > 1


def perform_alone(s: Scratch, kind: Kind, parts: tuple[Part, ...]) -> None:
    if kind == "move":
        seat, direction, mp = parts[0]
        if seat not in s.off:
            move(s, seat, direction, mp)
    elif kind == "snowballs":
        snowballs(s, [(seat, direction) for seat, direction, _ in parts if seat not in s.off])


def random_actions(rng: random.Random, seats: list[int]) -> dict[int, tuple[Kind, Direction, int]]:
    actions: dict[int, tuple[Kind, Direction, int]] = {}
    for seat in seats:
        kind: Kind = rng.choice(("move", "move", "roar", "snowballs"))
        actions[seat] = (kind, rng.choice(DIRECTIONS), rng.randint(1, 5) if kind == "move" else 0)
    return actions


def unit_reach(t: Scratch, kind: Kind, parts: tuple[Part, ...]) -> int:
    squares = 0
    for seat, direction, mp in parts:
        here = t.pos[seat]
        if here is not None:
            squares |= reach(t.board, kind, here, direction, mp)
    return squares


def playout_tables(seed: int, options: Mapping[str, Any] | None = None, moves: int = 150) -> list[Scratch]:
    """The yeti as they stand after each move of a random game, as scratch copies."""
    header, played = random_playout(seed, max_moves=moves, options=options)
    state: EverestState = GAME.new_state(header)
    tables = []
    for m in played:
        verdict, state = GAME.play(state, m)
        assert verdict.ok
        tables.append(Scratch(state.board, state.players, state.positions, state.damage, state.off_edge, state.options.pushed_fall_damage))
    return tables


def on_board(t: Scratch) -> list[int]:
    return [seat for seat, here in enumerate(t.pos) if here is not None and seat not in t.off]


def test_conflict_detection_agrees_with_trying_every_order() -> None:
    rng = random.Random(7)
    found = {True: 0, False: 0}
    apart = 0
    for seed, options in ((1, None), (2, {"notches": "table"}), (3, {"pushed_fall_damage": False})):
        for t in playout_tables(seed, options):
            seats = on_board(t)
            for _ in range(6):
                acting = rng.sample(seats, rng.randint(min(2, len(seats)), len(seats)))
                units = step_units(random_actions(rng, acting))
                expected = every_order_differs(t, units)
                assert units_conflict(t, units) == expected, (t.pos, units)
                found[expected] += 1
                reaches = [unit_reach(t, kind, parts) for kind, parts in units]
                if not any(a & b for i, a in enumerate(reaches) for b in reaches[i + 1 :]):
                    apart += 1
                    assert not expected, (t.pos, units)  # resolve.py's short cut: nothing touches, no conflict
    assert found[True] > 50 and found[False] > 50 and apart > 50, (found, apart)


def test_a_unit_alone_moves_yeti_only_within_its_reach() -> None:
    """What the grouping relies on: a move or the snowballs move yeti only between reach squares."""
    rng = random.Random(11)
    checked = 0
    for seed in (4, 5):
        for t in playout_tables(seed):
            for kind, parts in step_units(random_actions(rng, on_board(t))):
                if kind == "roar":
                    continue  # a roar moves nobody
                squares: set[Square] = set()
                for seat, direction, mp in parts:
                    here = t.squares()[seat]
                    assert here is not None
                    squares |= _line(t.board, kind, here, direction, mp)
                s = t.copy()
                perform_alone(s, kind, parts)
                for before, after in zip(t.squares(), s.squares()):
                    if before != after:
                        assert before in squares and (after is None or after in squares), (kind, parts, before, after)
                checked += 1
    assert checked > 300


def test_a_displaced_yeti_moves_only_along_the_displacing_line() -> None:
    """What reaches.grown relies on: a unit moves another yeti only in the direction of one of its
    parts, square by square through that part's reach (or off the board from there)."""
    rng = random.Random(12)
    displaced = 0
    for seed in (4, 5, 9):
        for t in playout_tables(seed):
            for kind, parts in step_units(random_actions(rng, on_board(t))):
                if kind == "roar":
                    continue
                s = t.copy()
                perform_alone(s, kind, parts)
                movers = {seat for seat, _, _ in parts} if kind == "move" else set()
                for seat, (before, after) in enumerate(zip(t.squares(), s.squares())):
                    if before == after or seat in movers or before is None:
                        continue
                    displaced += 1
                    assert any(along(t, kind, part, before, after) for part in parts), (kind, parts, before, after)
    assert displaced > 30, displaced


def along(t: Scratch, kind: Kind, part: Part, before: Square, after: Square | None) -> bool:
    """``after`` is reached from ``before`` square by square in the part's direction, every square
    on the way in its reach (None: off the board from there)."""
    seat, direction, mp = part
    here = t.squares()[seat]
    assert here is not None
    line = _line(t.board, kind, here, direction, mp)
    square = before
    while square in line:
        square = step(square, VECTORS[direction])
        if square == after or (after is None and square not in t.board.heights):
            return True
    return False


def plain_ray(board: Board, square: Square, direction: str) -> list[tuple[object, ...]]:
    out: list[tuple[object, ...]] = []
    v = VECTORS[direction]
    here = square
    while True:
        there = step(here, v)
        h = board.height(there)
        if h is None:
            return out
        rise = h - board.heights[here]
        after = step(there, v)
        h_after = board.height(after)
        push_rise = None if h_after is None else h_after - h
        out.append((there, rise, 2 if rise == 1 else 1, after if h_after is not None else None, push_rise))
        here = there


def test_remembered_rays_are_the_plain_walk() -> None:
    boards = [make_board("off_board"), make_board("table"), Board({(1, 1): 1, (2, 1): 1, (3, 1): 3, (3, 2): 0})]
    for board in boards:
        for square in board.heights:
            for direction in DIRECTIONS:
                assert list(board.ray(square, direction)) == plain_ray(board, square, direction)
                assert board.ray(square, direction) is board.ray(square, direction)  # worked out once


def test_the_coin_table_is_what_derive_says() -> None:
    for coin in COINS:
        for face in ("value", "suit"):
            for direction in DIRECTIONS:
                made = PlanCoin(coin, face, direction)
                assert (made.kind, made.mp, made.label) == derive(coin, face, direction)
    assert PlanCoin("3", "value", "N").text() == "move 3 N"
    assert PlanCoin("3", "value", "N").mp == 3
    assert PlanCoin("blank", "value", "E").text() == "roar E"
    assert PlanCoin("ace", "suit", "S").text() == "snowball S"
    odd = PlanCoin("3", "value", "NE")  # type: ignore[arg-type]  # (no such tick mark: not in the table)
    assert (odd.kind, odd.mp, odd.label) == ("move", 3, "move 3 NE")


def test_a_coin_is_its_value_face_and_direction() -> None:
    """The derived fields are not compared, hashed or shown: a coin is what the table names."""
    one, same = PlanCoin("4", "value", "S"), PlanCoin("4", "value", "S")
    assert one == same and hash(one) == hash(same)
    assert repr(one) == "PlanCoin(coin='4', face='value', dir='S')"
    assert [f.name for f in dataclasses.fields(one) if f.init] == ["coin", "face", "dir"]


def test_quiet_copies_end_where_loud_ones_do() -> None:
    rng = random.Random(3)
    for t in playout_tables(6):
        for kind, parts in step_units(random_actions(rng, on_board(t))):
            if kind == "roar":
                continue
            loud, quiet = t.copy(), t.copy(loud=False)
            perform_alone(loud, kind, parts)
            perform_alone(quiet, kind, parts)
            assert loud.signature() == quiet.signature()
            assert quiet.events == [] and loud.events  # a move or a throw always says something aloud


def test_a_second_game_on_the_shared_board_plays_the_same() -> None:
    """Boards (with their remembered rays and reaches) are shared between games."""
    header, played = random_playout(8, max_moves=300)
    runs = []
    for _ in range(2):
        state: EverestState = GAME.new_state(header)
        seen = []
        for m in played:
            verdict, state = GAME.play(state, m)
            seen.append((verdict, state.positions, state.damage, state.events, state.need))
        runs.append(seen)
    assert runs[0] == runs[1]
    assert GAME.new_state(header).board is make_board("off_board")
