"""The game as a whole: registry, setup, notation, views, prompts, whole games, the rules catalogue."""

from __future__ import annotations

import dataclasses
import importlib
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest

from companion.core import Header
from companion.core.errors import NotationError, SetupError
from companion.contract.game import option_fields
from companion.games import get_game
from companion.games.escape_master import GAME
from companion.games.escape_master import rules as R
from companion.games.escape_master.cards import card_problem, parse_card
from companion.games.escape_master.moves import MOVE_TYPES
from companion.games.escape_master.playout import random_playout
from companion.log.notation import read_notation
from companion.log.replay import replay
from tests.games.test_escape_master_support import A, B, C, D, COVERED, dealt, header, mv, ok, started
from companion.games import get_spec

ROOT = Path(__file__).parents[2]
DATA = get_spec("escape-master").path("acceptance")
TEN = {A: ["start-1", "teen-8", "teen-9", "robot-10", "joe-J", "teen-3", "teen-4", "trap-up-1", "escape-1", "wisdom-1"],
       B: ["start-2", "robot-6", "robot-5", "mouse-8", "robot-8", "doom-K", "joe-2", "escape-discard-1", "dead-end",
           "ninja-Q"]}


def test_registered_under_its_id() -> None:
    assert get_game("escape-master") is GAME
    assert GAME.min_players == 2 and GAME.max_players == 8


def test_the_standard_deck() -> None:
    state = dealt(TEN)
    deck = state.table.deck.cards
    assert len(deck) == 106
    assert {"start-8", "wisdom-4", "dead-end", "trap-draw-2", "escape-discard-3", "doom-K", "ninja-K"} <= deck
    assert "start-9" not in deck and "dead-end-2" not in deck


# -- setup ------------------------------------------------------------------------------------------


def test_setup_from_the_header() -> None:
    state = GAME.new_state(Header(GAME.id, (A, B), {}, {"dealer": B, "hands": TEN, "leaders": {A: "teen"}}))
    board = GAME.scoreboard(state)
    assert board["dealer"] == B and board["phase"] == "waiting_for_start" and board["hand_sizes"] == {A: 10, B: 10}
    assert board["draw_pile"] == 86 and board["leaders"][A]["ability"] == "teen_combos" and board["leaders"][B] is None
    assert GAME.scoreboard(GAME.new_state(Header(GAME.id, (A, B), {}, {"dealer": A})))["phase"] == "dealing"


@pytest.mark.parametrize(
    ("options", "setup", "message"),
    [
        ({}, {"hands": TEN}, "setup.dealer must name one of the players"),
        ({}, {"dealer": "zoe"}, "setup.dealer must name one of the players"),
        ({}, {"dealer": A, "deck": 1}, 'setup has an unknown field "deck"'),
        ({}, {"dealer": A, "hands": {A: ["teen-8"]}}, "setup.hands has no hand for ben"),
        ({}, {"dealer": A, "hands": {A: ["teen-8"], B: ["teen-88"]}}, 'setup.hands.ben: "teen-88" is not an Escape Master'),
        ({}, {"dealer": A, "hands": {A: ["teen-8"], B: ["start-9"]}}, "setup.hands.ben: start-9 is not a card of this deck"),
        ({}, {"dealer": A, "hands": {A: ["teen-8"], B: ["teen-8"]}}, "setup.hands: teen-8 is dealt to both anna and ben"),
        ({}, {"dealer": A, "hands": {A: [], B: [], "zoe": []}}, 'setup.hands names "zoe"'),
        ({}, {"dealer": A, "hands": {A: "teen-8", B: []}}, "setup.hands.anna must be a list"),
        ({}, {"dealer": A, "leaders": {A: "pirate"}}, 'setup.leaders.anna: "pirate" is not a tribe'),
        ({}, {"dealer": A, "leaders": {"zoe": "teen"}}, 'setup.leaders names "zoe"'),
        ({"teams": [[A, B]]}, {"dealer": A}, "options.teams needs at least two teams"),
        ({"teams": [[A, "zoe"]]}, {"dealer": A}, 'options.teams names "zoe"'),
        ({"teams": [[A, A]]}, {"dealer": A}, "options.teams names \"anna\" twice"),
        ({"fixed_rounds": 0}, {"dealer": A}, "options.fixed_rounds must be at least 1"),
        ({"breaking_point": 0}, {"dealer": A}, "options.breaking_point must be at least 1"),
        ({"beaten_window_s": -1}, {"dealer": A}, "options.beaten_window_s cannot be negative"),
        ({"deck_file": "../secrets.json"}, {"dealer": A}, "must be a plain file name"),
        ({"deck_file": "nowhere.json"}, {"dealer": A}, 'the deck file "nowhere.json" is not in the Escape Master package'),
        ({"speed": 3}, {"dealer": A}, 'options has an unknown field "speed"'),
    ],
)
def test_bad_setups_get_one_clear_sentence(options: dict[str, object], setup: dict[str, object], message: str) -> None:
    with pytest.raises(SetupError) as exc:
        GAME.new_state(Header(GAME.id, (A, B), options, setup))
    assert message in str(exc.value)


def test_player_count() -> None:
    with pytest.raises(SetupError, match="2 to 8 players, not 1"):
        GAME.new_state(Header(GAME.id, (A,), {}, {"dealer": A}))


def test_every_option_has_a_default_and_a_doc() -> None:
    for name, default, doc in option_fields(GAME.options_type):
        assert doc, name
        assert name in GAME.default_options() or default is None
    assert GAME.default_options()["breaking_point"] == 30 and GAME.default_options()["beaten_window_s"] == 1.0


# -- notation ---------------------------------------------------------------------------------------

SAMPLES: list[dict[str, Any]] = [
    {"by": A, "do": "deal", "hands": {A: ["teen-8"], B: ["robot-K"]}},
    {"by": A, "do": "start", "t": 1.5},
    {"do": "play", "card": "teen-5", "pile": "new", "t": 2.125},
    {"by": A, "do": "play", "cards": ["teen-3", "teen-4"], "pile": 2},
    {"by": A, "do": "draw", "card": "joe-9"},
    {"by": A, "do": "call_draw"},
    {"by": A, "do": "trap", "card": "trap-draw-1", "target": B},
    {"by": A, "do": "escape", "card": "escape-discard-2", "trap": "trap-up-1", "discard": "doom-Q"},
    {"by": A, "do": "escape", "card": "escape-1"},
    {"by": A, "do": "discard_special", "cards": ["dead-end", "trap-down-2"]},
    {"by": A, "do": "out"},
    {"by": A, "do": "out", "discard": ["joe-2"]},
    {"do": "end_round"},
    {"do": "end_round", "hands": {A: [], B: ["wisdom-3"]}},
    {"by": A, "do": "dealt", "card": "ninja-1"},
    {"by": A, "do": "half", "card": "teen-3", "pile": 1},
    {"by": A, "do": "withdraw", "card": "teen-3"},
    {"by": A, "do": "discard", "card": "robot-9"},
    {"by": A, "do": "give_fault", "target": B},
    {"by": A, "do": "beast", "target": B},
    {"by": A, "do": "story", "card": 6, "targets": [B]},
    {"by": A, "do": "leader", "tribe": "robot"},
    {"by": A, "do": "leader", "swap_with": B},
    {"by": A, "do": "swap_draw", "give": ["joe-1"], "take": ["joe-2"]},
    {"by": A, "do": "pass_card", "cards": ["joe-1"], "to": B},
    {"by": A, "do": "defuse", "trap": "trap-up-2"},
]


@pytest.mark.parametrize("obj", SAMPLES, ids=lambda o: str(o["do"]))
def test_moves_round_trip_through_the_notation(obj: dict[str, object]) -> None:
    move = GAME.codec.from_json(obj)
    assert GAME.codec.to_json(move) == obj
    assert GAME.codec.from_json(GAME.codec.to_json(move)) == move


def test_every_verb_has_a_sample() -> None:
    assert {cls.verb for cls in MOVE_TYPES} == {str(o["do"]) for o in SAMPLES}


@pytest.mark.parametrize(
    ("obj", "message"),
    [
        ({"by": A, "do": "draw", "card": "Teen-5"}, '"Teen-5" is not an Escape Master card name'),
        ({"by": A, "do": "play", "pile": 1}, 'either "card" or "cards"'),
        ({"by": A, "do": "play", "card": "teen-5"}, 'missing the field "pile"'),
        ({"by": A, "do": "play", "card": "teen-5", "pile": "old"}, "pile"),
        ({"by": A, "do": "escape", "card": "escape-1", "discard": "escape-1"}, "cannot discard itself"),
        ({"by": A, "do": "discard_special", "cards": []}, "at least one card"),
        ({"by": A, "do": "leader", "tribe": "pirate"}, '"pirate" is not a tribe'),
        ({"by": A, "do": "leader"}, "either"),
        ({"by": A, "do": "story", "card": 0}, "numbered from 1"),
        ({"by": A, "do": "swap_draw", "give": ["joe-1"], "take": []}, "as many cards"),
        ({"by": A, "do": "deal", "hands": {A: ["start-01"]}}, '"start-01" is not'),
    ],
)
def test_malformed_moves_are_notation_errors(obj: dict[str, object], message: str) -> None:
    with pytest.raises(NotationError) as exc:
        GAME.codec.from_json(obj)
    assert message in str(exc.value)


def test_card_names() -> None:
    assert parse_card("robot-K").value == 13 and parse_card("teen-10").suit == "teen"
    assert parse_card("doom-Q").numbered and parse_card("start-3").value == 7
    assert parse_card("trap-draw-1").special and not parse_card("wisdom-1").special
    for name in ("robot-11", "robot-0", "start-0", "dead-end-1", "doom-10", "joe-k", "", "escape--1"):
        assert card_problem(name) is not None, name
    assert card_problem(5) is not None


# -- what people see --------------------------------------------------------------------------------


def test_the_scoreboard_has_the_notation_keys_and_no_hand() -> None:
    state = ok(started(TEN), mv(A, "play", card="start-1", pile="new", t=1.0))
    board = GAME.scoreboard(state)
    for key in ("faults", "round_faults", "round", "piles", "breaking_point"):
        assert key in board
    assert board["piles"] == [{"pile": 1, "top": "start-1", "open": True, "cards": 1, "half": None}]
    assert board["breaking_point"] == 30
    text = json.dumps(board)
    for card in [*TEN[A][1:], *TEN[B]]:
        assert card not in text, card
    json.dumps(GAME.view(state, None))


def test_each_player_sees_their_own_hand_and_the_referee_sees_all() -> None:
    state = ok(started(TEN), mv(A, "play", card="start-1", pile="new", t=1.0))
    mine = GAME.view(state, A)
    assert mine["hand"] == sorted(TEN[A][1:]) and "robot-6" not in json.dumps(mine)
    assert mine["can_draw"] is False
    referee = GAME.view(state, None)
    assert referee["hands"][B] == sorted(TEN[B]) and len(referee["draw_pile_cards"]) == 86
    assert GAME.view(state, "zoe")["phase"] == "playing"


def test_prompts_follow_the_round() -> None:
    state = dealt(TEN, leaders={A: "lumberjack"})
    assert [(p.who, p.verb) for p in GAME.prompts(state)] == [(A, "give_fault"), (A, "start")]
    state = ok(state, mv(A, "start"), mv(A, "play", card="start-1", pile="new", t=1.0))
    assert GAME.prompts(state) == ()
    fresh = GAME.new_state(header(None, players=(A, B)))
    assert [(p.who, p.verb) for p in GAME.prompts(fresh)] == [(A, "dealt"), (B, "dealt"), (A, "start")]
    assert "(0 of 10)" in GAME.prompts(fresh)[0].text
    tapping = ok(GAME.new_state(header(None, players=(A, B), leaders={A: "lumberjack"})), mv(B, "dealt", card="robot-2"))
    assert [(p.who, p.verb) for p in GAME.prompts(tapping)] == [(A, "dealt"), (B, "dealt"), (A, "give_fault"), (A, "start")]
    assert "(1 of 10)" in GAME.prompts(tapping)[1].text
    hands = {A: ["start-1"], B: ["robot-2"]}
    state = ok(started(hands), mv(A, "play", card="start-1", pile="new", t=1.0))
    assert [(p.who, p.verb) for p in GAME.prompts(state)] == [(A, "out")]
    state = ok(state, mv(A, "out", t=2.0))
    assert [p.verb for p in GAME.prompts(state)] == ["end_round"]
    state = ok(state, mv(None, "end_round"))
    assert [(p.who, p.verb) for p in GAME.prompts(state)] == [(B, "story"), (A, "dealt"), (B, "dealt")]


# -- whole games ------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(p.stem for p in DATA.glob("*.jsonl")))
def test_notation_files_replay_to_their_expected_output(name: str) -> None:
    with open(DATA / f"{name}.jsonl", encoding="utf-8") as handle:
        record = read_notation(handle)
    got = [json.dumps(obj, sort_keys=True) for obj in replay(record)]
    assert got == (DATA / f"{name}.expected").read_text(encoding="utf-8").splitlines()


def test_the_scripted_game_by_hand() -> None:
    """The acceptance game: key lines checked against the rulebook (see the comments in the test data)."""
    with open(DATA / "scripted.jsonl", encoding="utf-8") as handle:
        results = list(replay(read_notation(handle)))
    illegal = {r["n"]: r["rules"][0] for r in results if "n" in r and not r["ok"]}
    assert illegal == {1: R.START, 5: R.BEATEN, 7: R.COMBO, 14: R.DRAW, 21: R.OUT, 24: R.CALL_DRAW, 32: R.STOPPED,
                       34: R.STORY, 36: R.DEALER, 43: R.COMBO_DOOM, 44: R.DRAW, 53: "GAME-OVER"}
    final = results[-1]
    # round 1: ben keeps mouse-8 and joe-2 (2); round 2: three Doom Masters (9) and 7 more (16), less Story 9 (1)
    assert final["scoreboard"]["faults"] == {A: 0, B: 17}
    assert final["outcome"] == {"winner": A, "reason": "ben reached the Breaking Point with 17 faults; fewest faults: 0"}


@pytest.mark.parametrize("seed", [1, 2])
def test_random_playouts_replay_legal(seed: int) -> None:
    head, moves = random_playout(seed, max_moves=250)
    assert len(moves) == 250
    state = GAME.new_state(head)
    rounds = 0
    for move in moves:
        verdict, state = GAME.play(state, move)
        assert verdict.ok, (GAME.codec.to_json(move), verdict)
        rounds += move.verb == "end_round"
    assert rounds >= 2


def test_a_playout_with_illegal_attempts_and_a_whole_game() -> None:
    head, moves = random_playout(4, max_moves=5000, illegal_every=10, players=(A, B, C),
                                 options={"breaking_point": 20})
    state = GAME.new_state(head)
    refused = 0
    for n, move in enumerate(moves, start=1):
        verdict, state = GAME.play(state, move)
        if n % 10 == 0 and not verdict.ok:
            refused += 1
        else:
            assert verdict.ok, (n, GAME.codec.to_json(move), verdict)
    assert refused > 0 and GAME.outcome(state) is not None
    text = "".join(json.dumps(GAME.codec.to_json(m)) + "\n" for m in moves)
    record = read_notation(io.StringIO(json.dumps(head.to_json()) + "\n" + text))
    assert len(record.moves) == len(moves)


def test_a_team_playout() -> None:
    head, moves = random_playout(5, max_moves=300, players=(A, B, C, D), options={"teams": [[A, C], [B, D]]})
    state = GAME.new_state(head)
    for move in moves:
        verdict, state = GAME.play(state, move)
        assert verdict.ok


# -- the catalogue ----------------------------------------------------------------------------------


def test_every_rule_quotes_its_source() -> None:
    for rule in GAME.rules.values():
        assert rule.id.startswith("EM-") and rule.title and rule.passage.startswith('"')
        assert rule.source in ("escape-master.de.txt", "GAPS.md", "DESIGN.md", "NOTATION.md")
        if rule.source == "escape-master.de.txt":
            assert "(German: " in rule.passage, rule.id


def test_the_german_quotes_are_in_the_rulebook() -> None:
    """The scan's OCR garbles umlauts, so a quote is checked word by word (9 words in 10 must be found)."""
    german = ROOT.parent / "shared" / "rules" / "escape-master.de.txt"
    if not german.exists():
        pytest.skip("the shared rulebook is not here")

    def words(text: str) -> list[str]:
        text = text.lower()
        for umlaut, plain in (("ä", "a"), ("ö", "o"), ("ü", "u"), ("ß", "ss")):
            text = text.replace(umlaut, plain)
        return [w for w in re.findall(r"[a-z]+", text) if len(w) > 3]

    book = set(words(german.read_text(encoding="utf-8")))
    for rule in GAME.rules.values():
        if "(German: " in rule.passage:
            quoted = words(rule.passage.split('(German: "', 1)[1])
            assert sum(w in book for w in quoted) >= 0.9 * len(quoted), rule.id


def test_every_rule_has_a_legal_and_an_illegal_test() -> None:
    for name in ("piles", "specials", "drawing", "rounds", "story"):
        importlib.import_module(f"tests.games.test_escape_master_{name}")
    missing = {rid: sorted({"legal", "illegal"} - COVERED[rid]) for rid in GAME.rules if COVERED[rid] != {"legal", "illegal"}}
    assert not missing


def test_every_rule_option_and_verb_is_documented() -> None:
    doc = get_spec("escape-master").path("GAME.md").read_text(encoding="utf-8")
    for rule in GAME.rules.values():
        assert f"`{rule.id}`" in doc, rule.id
    for name, _, _ in option_fields(GAME.options_type):
        assert f"`{name}`" in doc, name
    for cls in MOVE_TYPES:
        assert f"`{cls.verb}`" in doc, cls.verb
    for f in dataclasses.fields(GAME.options_type):
        assert f.metadata.get("doc")
