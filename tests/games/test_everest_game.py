"""Everest as a whole: setup, options, notation, scoreboard, prompts, the camera, playouts, the catalogue."""

from __future__ import annotations

import dataclasses

import importlib
import json
from pathlib import Path

import pytest

from companion.core import Observation, ObservationKind, Unexplained
from companion.core.errors import ObservationError, SetupError
from companion.contract.game import option_fields
from companion.games import get_game
from companion.games.everest import GAME
from companion.games.everest.moves import EndRound, Order, Plan, PlanCoin, Roll
from companion.games.everest.playout import random_playout
from companion.log.notation import read_notation
from tests.games.test_everest_support import COVERED, A, B, C, D, at, covers, header, placed, plans, start
from companion.games import get_spec

DATA = get_spec("everest").path("acceptance")


def test_registered_under_its_id() -> None:
    assert get_game("everest") is GAME
    assert GAME.min_players == 2 and GAME.max_players == 4


# -- setup ------------------------------------------------------------------------------------------


@covers("EV-HOME", "legal")
def test_default_and_named_homes() -> None:
    state = start()
    assert state.positions == ((1, 5), (8, 5), (8, 2), (1, 2))
    state = start(homes={A: [1, 1], B: [8, 6], C: [8, 1], D: [1, 6]})
    assert at(state, A) == (1, 1) and GAME.scoreboard(state)["homes"][D] == [1, 6]
    two = start((A, B))
    assert two.positions == ((1, 5), (8, 5))
    moved = start(options={"homes": [[1, 1], [8, 1], [8, 6], [1, 6]]})
    assert moved.positions == ((1, 1), (8, 1), (8, 6), (1, 6))


@pytest.mark.parametrize(
    ("players", "options", "setup", "message"),
    [
        ((A,), {}, {}, "2 to 4 players, not 1"),
        ((A, B, C, D, "eve"), {}, {}, "2 to 4 players, not 5"),
        ((A, B), {}, {"deal": 1}, 'unknown field "deal"'),
        ((A, B), {}, {"homes": [[1, 1]]}, "must be an object"),
        ((A, B), {}, {"homes": {A: [1, 1]}}, "gives no home to ben"),
        ((A, B), {}, {"homes": {A: [1, 1], B: [8, 1], "zoe": [8, 6]}}, '"zoe", who is not playing'),
        ((A, B), {}, {"homes": {A: [1, 1], B: "north"}}, "must be [x, y]"),
        ((A, B), {}, {"homes": {A: [1, 1], B: [1, 3]}}, "(1,3) is not on the board"),
        ((A, B), {}, {"homes": {A: [1, 1], B: [1, 1]}}, "cannot share a home"),
        ((A, B), {"notches": "lava"}, {}, "notches"),
        ((A, B), {"edge_no_heal_rounds": 0}, {}, "edge_no_heal_rounds must be 1 or more"),
        ((A, B), {"speed": 2}, {}, 'unknown field "speed"'),
        ((A, B, C), {"homes": [[1, 1], [8, 1]]}, {}, "names 2 squares for 3 players"),
    ],
)
@covers("EV-HOME", "illegal")
def test_bad_setups_are_one_clear_sentence(players: tuple[str, ...], options: dict[str, object], setup: dict[str, object], message: str) -> None:
    with pytest.raises(SetupError) as caught:
        GAME.new_state(header(players, options, **setup))
    assert message in str(caught.value)


def test_a_home_on_a_notch_is_fine_when_notches_are_table_squares() -> None:
    state = start((A, B), {"notches": "table"}, homes={A: [1, 3], B: [8, 4]})
    assert state.positions == ((1, 3), (8, 4))


def test_every_option_has_a_doc_and_a_default() -> None:
    fields = {name: (default, doc) for name, default, doc in option_fields(GAME.options_type)}
    assert fields["notches"][0] == "off_board" and fields["homes"][0] == ((1, 5), (8, 5), (8, 2), (1, 2))
    assert fields["edge_no_heal_rounds"][0] == 1 and fields["edge_sets_aside_all"][0] is False
    assert fields["pushed_fall_damage"][0] is True
    assert all(doc for _, doc in fields.values())
    assert GAME.default_options()["notches"] == "off_board"


# -- notation -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "move",
    [
        Plan(by=A, coins=(PlanCoin("blank", "value", "N"), PlanCoin("ace", "suit", "E"), PlanCoin("5", "value", "W"))),
        Plan(by=A, coins=()),
        Roll(by=B, value="ace", t=12.5),
        Order(by=C, sequence=(C, A, B)),
        EndRound(heal=(A,)),
        EndRound(heal=(), set_aside={B: ("5", "4")}),
    ],
)
def test_moves_round_trip(move: object) -> None:
    assert GAME.codec.from_json(GAME.codec.to_json(move)) == move  # type: ignore[arg-type]


def test_notation_spelled_as_notation_md() -> None:
    line = {"by": A, "do": "plan", "coins": [{"coin": "3", "face": "value", "dir": "E"}]}
    move = GAME.codec.from_json(line)
    assert GAME.codec.to_json(move) == line
    assert GAME.codec.to_json(GAME.codec.from_json({"do": "end_round", "heal": [A]})) == {"do": "end_round", "heal": [A]}
    assert GAME.codec.from_json({"do": "end_round"}) == EndRound()


# -- what the table sees ------------------------------------------------------------------------------


def test_scoreboard_has_the_notation_keys_and_the_page_extras() -> None:
    board = GAME.scoreboard(start())
    for key in ("positions", "damage", "coins", "peak", "round"):
        assert key in board
    assert board["positions"][A] == [1, 5] and board["coins"][B] == 6 and board["peak"] is None
    assert board["heights"][2][0] is None and board["heights"][3][4] == 5  # [y-1][x-1]
    assert board["phase"] == "plan" and board["waiting"] == {"verb": "plan", "players": [A, B, C, D], "why": "secret plans"}
    json.dumps(board)
    json.dumps(GAME.view(start(), None))


def test_views_are_json_in_every_phase() -> None:
    state = placed({A: (3, 6), B: (4, 6)})
    state = plans(state, anna=["rE", "sAN", "s2N"], ben=["sAN", "s2N", "s3N"])
    assert GAME.scoreboard(state)["waiting"] == {
        "verb": "roll",
        "players": [B],
        "why": "roar reaction",
        "rolls": {B: {"purpose": "reaction", "roarer": A, "for": "a reaction to anna's roar"}},
    }
    for who in (None, A, B):
        json.dumps(GAME.view(state, who))
    assert GAME.view(state, None)["need"]["kind"] == "RoarReactions"


# -- the camera -------------------------------------------------------------------------------------


def grid(pawns: object) -> Observation:
    return Observation("camera", 1.0, ObservationKind.VISION, {"zone": "grid", "zone_kind": "grid", "player": None, "index": None, "state": {"pawns": pawns}})


def test_camera_agreeing_with_the_state_is_nothing_to_do() -> None:
    state = start()
    assert GAME.interpret(state, grid({A: [1, 5], B: [8, 5], C: [8, 2], D: [1, 2]})) is None


def test_camera_disagreeing_names_the_yeti_and_where_to_put_it() -> None:
    state = start()
    seen = GAME.interpret(state, grid({A: [1, 5], B: [4, 3], C: [8, 2], D: [1, 2]}))
    assert isinstance(seen, Unexplained) and seen.zone == "grid"
    assert seen.fix == "move ben's yeti to (8,5)"
    missing = GAME.interpret(state, grid({A: [1, 5], B: [8, 5], C: [8, 2]}))
    assert isinstance(missing, Unexplained) and missing.fix == "put dev's yeti on (1,2)"
    stranger = GAME.interpret(state, grid({A: [1, 5], B: [8, 5], C: [8, 2], D: [1, 2], "zoe": [2, 2]}))
    assert isinstance(stranger, Unexplained) and "zoe" in stranger.what


def test_a_camera_report_that_cannot_be_read_is_an_error_naming_what_is_wrong() -> None:
    state = start()
    with pytest.raises(ObservationError, match=r"state\.pawns\.anna: an unreadable square 'top'"):
        GAME.interpret(state, grid({A: "top", B: [8, 5], C: [8, 2], D: [1, 2]}))
    with pytest.raises(ObservationError, match="state.pawns must map each player to a square"):
        GAME.interpret(state, grid("nope"))
    cards = Observation("camera", 1.0, ObservationKind.VISION, {"zone": "grid", "zone_kind": "grid", "state": {"occupied": True}})
    seen = GAME.interpret(state, cards)  # a view the camera can give, but not of a grid
    assert isinstance(seen, Unexplained) and "no pawns" in seen.what


def test_a_pawn_the_camera_cannot_see_is_not_judged_the_others_are() -> None:
    state = start()
    hidden = Observation("camera", 1.0, ObservationKind.VISION, {"zone": "grid", "zone_kind": "grid", "player": None,
                         "index": None, "state": {"pawns": {A: [1, 5], B: [8, 5], C: [8, 2]}, "unseen_pawns": [D]}})
    assert GAME.interpret(state, hidden) is None  # glare may hide dev's pawn: nothing to say of it
    wrong = dataclasses.replace(hidden, payload={**hidden.payload, "state": {"pawns": {A: [1, 5], B: [4, 3], C: [8, 2]}, "unseen_pawns": [D]}})
    seen = GAME.interpret(state, wrong)
    assert isinstance(seen, Unexplained) and seen.fix == "move ben's yeti to (8,5)" and "dev" not in seen.what


def test_camera_after_resolution_and_off_the_board() -> None:
    state = plans(placed({A: (2, 6)}), anna=["3W", "2E", "AE"])  # anna went off the edge
    off = GAME.interpret(state, grid({A: [1, 6], B: [8, 5], C: [8, 2], D: [1, 2]}))
    assert isinstance(off, Unexplained) and off.fix == "take anna's yeti off the board until the round ends"
    assert GAME.interpret(state, grid({B: [8, 5], C: [8, 2], D: [1, 2]})) is None


def test_other_observations() -> None:
    state = start()
    tag = Observation("nfc:x", 1.0, ObservationKind.TAG, {"zone": "pile-1", "zone_kind": "pile", "event": "arrive", "uid": "04", "card": None})
    assert GAME.interpret(state, tag) is None
    other_zone = Observation("camera", 1.0, ObservationKind.VISION, {"zone": "slot-1", "zone_kind": "table_slot", "state": {"cubes": []}})
    assert GAME.interpret(state, other_zone) is None
    typed = Observation("cli", 7.0, ObservationKind.MOVE, {"by": A, "do": "roll", "value": "2"})
    assert GAME.interpret(state, typed) == Roll(by=A, value="2", t=7.0)


# -- whole games ---------------------------------------------------------------------------------------


def test_random_playouts_replay_legal() -> None:
    for seed in range(3):
        head, moves = random_playout(seed, max_moves=300)
        state = GAME.new_state(head)
        for move in moves:
            verdict, state = GAME.play(state, move)
            assert verdict.ok, (seed, GAME.codec.to_json(move), verdict)


def test_playout_with_illegal_attempts_and_options() -> None:
    head, moves = random_playout(5, max_moves=200, illegal_every=7, options={"notches": "table"})
    assert head.options == {"notches": "table"}
    state = GAME.new_state(head)
    refused = 0
    for n, move in enumerate(moves, start=1):
        verdict, state = GAME.play(state, move)
        refused += not verdict.ok
        if not verdict.ok:
            assert verdict.rules and verdict.why
    assert refused >= 5


def test_a_game_can_be_won_in_a_playout() -> None:
    head, moves = random_playout(68, 400, illegal_every=11, options={"notches": "table"})
    state = GAME.new_state(head)
    for move in moves:
        _, state = GAME.play(state, move)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.to_json() == {"winner": "blue"}


@pytest.mark.parametrize("name", ["whole-game", "table-notches-playout", "three-way-conflict", "playout-conflicts"])
def test_data_games_replay_as_expected(name: str) -> None:
    from companion.log.replay import replay

    with open(DATA / f"{name}.jsonl", encoding="utf-8") as handle:
        record = read_notation(handle)
    got = [json.dumps(row, sort_keys=True) for row in replay(record)]
    expected = (DATA / f"{name}.expected").read_text(encoding="utf-8").splitlines()
    assert got == expected


def test_the_whole_game_key_lines() -> None:
    """The acceptance game, checked by hand against the rulebook (see companion/games/everest/GAME.md)."""
    with open(DATA / "whole-game.jsonl", encoding="utf-8") as handle:
        record = read_notation(handle)
    state = GAME.new_state(record.header)
    verdicts = []
    for _, move in record.moves:
        verdict, state = GAME.play(state, move)
        verdicts.append(verdict)
    refused = {n: v.rules for n, v in enumerate(verdicts, start=1) if not v.ok}
    assert refused == {
        2: ("EV-ROLL",),
        9: ("EV-PLAN-TIME",),
        11: ("EV-ORDER",),
        16: ("EV-PLAN-COINS",),
        23: ("EV-EDGE-HOME",),
        25: ("EV-PLAN-COINS",),
        27: ("EV-PLAN-COINS",),
        33: ("EV-PLAN-THREE",),
        38: ("GAME-OVER",),
    }
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.to_json() == {"winner": "dev"}
    assert GAME.scoreboard(state)["round"] == 4


def test_the_three_way_conflict_key_lines() -> None:
    """Issue #17's acceptance game, checked by hand (companion/games/everest/GAME.md, "Acceptance games")."""
    with open(DATA / "three-way-conflict.jsonl", encoding="utf-8") as handle:
        record = read_notation(handle)
    state = GAME.new_state(record.header)
    refused = {}
    for n, (_, move) in enumerate(record.moves, start=1):
        verdict, state = GAME.play(state, move)
        if not verdict.ok:
            refused[n] = verdict.rules
        if n == 4:  # the last plan: coin 1 conflicts among anna, ben and dev, though no two of them do
            assert GAME.scoreboard(state)["conflict"]["line"] == "conflict: anna, ben, dev — roll"
        if n == 10:  # ben's order: he steps west first, so anna's snowball splats before dev pushes her
            assert [e for e in state.events if e.startswith(("EV-ORDER", "EV-SNOWBALL-SPLAT", "EV-PUSH: anna"))] == [
                "EV-ORDER: ben has the high roll (anna 3, ben 5, cleo 2, dev 4) and chooses the order of anna, ben, cleo, dev",
                "EV-ORDER: ben, anna, dev, cleo act in that order",
                "EV-SNOWBALL-SPLAT: anna's snowball thrown S goes splat on the slope up to (3,4)",
                "EV-PUSH: anna's yeti is pushed W by dev's to (2,5)",
            ]
            assert (state.positions, state.damage) == (((2, 5), (2, 1), (8, 1), (3, 4)), (0, 0, 0, 0))
    assert refused == {6: ("EV-ROLL",), 12: ("EV-PLAYER",), 23: ("EV-ROLL",), 25: ("GAME-OVER",)}
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.to_json() == {"winner": "dev"}


# -- the catalogue --------------------------------------------------------------------------------------


def test_every_rule_quotes_its_source() -> None:
    for rule in GAME.rules.values():
        assert rule.id.startswith("EV-") and rule.title and rule.passage
        assert rule.source in ("everest.txt", "GAPS.md")


def test_every_rule_has_a_legal_and_an_illegal_test() -> None:
    for name in ("movement", "conflicts", "roars", "rounds"):
        importlib.import_module(f"tests.games.test_everest_{name}")
    missing = {rid: sorted({"legal", "illegal"} - COVERED[rid]) for rid in GAME.rules if COVERED[rid] != {"legal", "illegal"}}
    assert not missing


def test_every_rule_is_documented() -> None:
    doc = get_spec("everest").path("GAME.md").read_text(encoding="utf-8")
    for rule in GAME.rules.values():
        assert f"`{rule.id}`" in doc, rule.id
    for name, _, _ in option_fields(GAME.options_type):
        assert f"`{name}`" in doc, name
