"""Escape House's readers through the real table model (issue 21): the plan's layout, reader events
into the TableModel, its TAG observations read by ``interpret``, and the moves judged by the engine.

A live deal tapped on the hand pads, draws and trades on them, reveals and the resolve on the tap
pad, a puzzle set aside as its clear, the end of the round and a discard on the discard pad, and one
clear alert where no move explains a card. The whole-game runs are tests/contract/test_sensors.py's."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from companion.contract.sensors import Enter, Press, Tap
from companion.core import Header, Move, Observation, Unexplained
from companion.core.readers import ReaderEvent
from companion.core.seen import PressSeen
from companion.core.zones import ZoneRef
from companion.games.escape_house import GAME, SPEC
from companion.demo.measure import table_games
from companion.games.escape_house.cards import PENALTY_KINDS
from companion.games.escape_house.cardset import load_card_set
from companion.games.escape_house.moves import Clear, Dealt, Discard, Draw, EndRound, Flip, Penalty, Resolve, Reveal, Trade
from companion.games.escape_house.playout import as_live_table, random_playout
from companion.games.escape_house.resolve import missed_clears
from companion.games.escape_house.sensors import EscapeHousePlan
from companion.games.escape_house.state import Phase, State
from companion.games.escape_house.table import REVEAL_BUTTON
from companion.table.model import TableModel
from companion.table.registry import TagRegistry
from tests.games.test_escape_house_support import A, B, C, D, E, F_, HANDS, PLAYERS, ROOMS, loose, mv, new, play, resolved, to_action

PLAN = EscapeHousePlan(GAME)
UIDS = {card: f"04{k:012x}" for k, card in enumerate(load_card_set("example").cards)}


class Pads:
    """The plan's table for six players: every reader's events go through one real TableModel."""

    def __init__(self, folder: Path, players: tuple[str, ...] = PLAYERS) -> None:
        registry = TagRegistry(folder / "tags.json", "escape-house")
        for card, uid in UIDS.items():
            registry.enrol(uid, card)
        self.zones = {z.name: z for z in PLAN.layout(players)}
        self.seen: list[Observation] = []
        self.model = TableModel(self.zones.values(), registry, self.seen.append, debounce_s=0)
        self.t = 100.0

    def tap(self, zone: str, card: str) -> Observation:
        """``card`` put on ``zone``'s reader and lifted off: the arrival the model reports."""
        reader = self.zones[zone].reader
        assert reader is not None
        self.t += 1.0
        before = len(self.seen)
        self.model.reader_event(ReaderEvent(reader, UIDS[card], "arrive", self.t))
        self.model.reader_event(ReaderEvent(reader, UIDS[card], "depart", self.t + 0.3))
        arrived = [o for o in self.seen[before:] if o.payload["event"] == "arrive"]
        assert len(arrived) == 1 and arrived[0].payload["card"] == card and arrived[0].payload["zone"] == zone
        return arrived[0]

    def read(self, state: State, zone: str, card: str) -> Move | Unexplained | None:
        found = GAME.interpret(state, self.tap(zone, card))
        departed = [o for o in self.seen if o.payload["event"] == "depart"][-1]
        assert GAME.interpret(state, departed) is None  # a card lifted off a pad is no move
        return found


@pytest.fixture
def pads(tmp_path: Path) -> Pads:
    return Pads(tmp_path)


def live() -> State:
    state: State = GAME.new_state(Header("escape-house", PLAYERS, {}, {"card_set": "example", "main": ["front-door"]}))
    return state


def step(state: State, found: Move | Unexplained | None) -> State:
    assert isinstance(found, Move), found
    verdict, after = GAME.play(state, found)
    assert verdict.ok, verdict
    return after


# -- the layout --------------------------------------------------------------------------------------


def test_the_table_is_one_array_of_pads_and_the_reveal_button_with_no_camera_zone() -> None:
    everything = PLAN.layout(("anna", "ben", "cleo", "dev", "eli", "fay", "gus", "hana"))
    (button,) = [z for z in everything if z.kind == REVEAL_BUTTON]
    assert button.reader == "button:0" and button.name == "reveal" and button.player is None
    zones = [z for z in everything if z is not button]
    readers = [z.reader for z in zones]
    assert len(set(readers)) == len(zones) == 10 and all(r is not None and r.startswith("array:") and int(r[6:]) < 16 for r in readers)
    assert not any(z.polygon for z in zones) and PLAN.stacks == frozenset()
    assert {z.player for z in zones if z.name.startswith("hand-")} == {"anna", "ben", "cleo", "dev", "eli", "fay", "gus", "hana"}
    assert SPEC.sensors is not None and 0 < SPEC.sensors.floor < 1


# -- the hand pads -------------------------------------------------------------------------------------


def test_each_card_dealt_on_a_hand_pad_is_that_players_dealt_card_until_every_hand_is_in(pads: Pads) -> None:
    state = live()
    for player in PLAYERS:
        for card in HANDS[player]:
            found = pads.read(state, f"hand-{player}", card)
            assert found == Dealt(by=player, card=card, t=pads.t)
            state = step(state, found)
    assert state.phase is Phase.EXPLORE and {p: list(h) for p, h in state.hands.items()} == HANDS


def test_a_card_dealt_on_the_tap_pad_is_one_alert_naming_the_hand_pad(pads: Pads) -> None:
    found = pads.read(live(), "tap", "betray-1")
    assert isinstance(found, Unexplained) and found.zone == "tap" and "during the deal" in found.what and "hand pad" in found.fix


def test_a_second_betray_card_dealt_is_refused_and_a_card_after_the_deal_is_a_draw(pads: Pads) -> None:
    state = step(live(), pads.read(live(), "hand-anna", "betray-1"))
    found = pads.read(state, "hand-anna", "betray-2")
    assert isinstance(found, Dealt) and GAME.judge(state, found).rules == ("EH-SETUP-HANDS",)
    found = pads.read(new(), "hand-anna", "rope-2")
    assert isinstance(found, Draw) and found.room == "main" and GAME.judge(new(), found).rules == ("EH-DRAW-ROOM",)


def test_a_card_tapped_on_a_hand_pad_is_drawn_from_the_players_room_or_traded_from_the_hand_that_holds_it(pads: Pads) -> None:
    state = play(new(), mv(A, "move", room="cellar"))
    found = pads.read(state, "hand-anna", "key-4")  # not the top card of the cellar's deck
    assert found == Draw(by=A, room="cellar", card="key-4", t=pads.t) and GAME.judge(state, found).rules == ("EH-DRAW-TOP",)
    state = step(state, pads.read(state, "hand-anna", "rope-2"))
    assert "rope-2" in state.hands[A]
    state = play(state, mv(B, "move", room="cellar"))
    found = pads.read(state, "hand-ben", "key-1")
    assert found == Trade(by=A, to=B, card="key-1", t=pads.t)
    state = step(state, found)
    assert "key-1" in state.hands[B] and "key-1" not in state.hands[A]
    found = pads.read(state, "hand-cleo", "key-2")  # cleo is in the main room: refused, and said why
    assert isinstance(found, Trade) and GAME.judge(state, found).rules == ("EH-TRADE-ROOM",)


def test_a_card_the_player_holds_already_tapped_on_their_pad_is_one_alert(pads: Pads) -> None:
    found = pads.read(new(), "hand-anna", "key-1")
    assert isinstance(found, Unexplained) and found.zone == "hand-anna" and "holds it already" in found.what and found.fix


# -- the tap pad ----------------------------------------------------------------------------------------


def everyone_played() -> State:
    """The action phase with must_play on, every player's card face down (their own token under it)."""
    cards = {A: "key-1", B: "crowbar-1", C: "rope-1", D: "fuse-1", E: "lamp-1", F_: "gear-1"}
    return play(to_action(new()), *(mv(p, "play", card=c, target=p) for p, c in cards.items()))


def test_played_cards_tapped_on_the_tap_pad_are_reveals_and_the_last_is_the_resolve(pads: Pads) -> None:
    state = everyone_played()
    assert state.options.must_play and not state.must_play()
    cards = [p.card for p in state.played]
    for card in cards[:-1]:
        found = pads.read(state, "tap", card)
        assert isinstance(found, Reveal) and found.card == card
        state = step(state, found)
        assert pads.read(state, "tap", card) is None  # tapped again
    found = pads.read(state, "tap", cards[-1])
    assert found == Resolve(t=pads.t)
    state = step(state, found)
    assert state.phase is Phase.RESOLVE


def test_with_must_play_off_the_last_card_turned_up_is_only_its_reveal(pads: Pads) -> None:
    state = play(to_action(loose()), mv(A, "play", card="key-1", target=B))
    found = pads.read(state, "tap", "key-1")
    assert found == Reveal(by=A, card="key-1", t=pads.t)


def test_a_penalty_card_tapped_is_the_penalty_draw_which_the_rules_refuse_when_none_is_due(pads: Pads) -> None:
    due = play(resolved(to_action(loose())), mv(None, "end_round"))
    found = pads.read(due, "tap", "lights-out")
    assert found == Penalty(card="lights-out", t=pads.t) and GAME.judge(due, found).ok
    found = pads.read(new(), "tap", "lights-out")  # none due: the draw the rules refuse
    assert found == Penalty(card="lights-out", t=pads.t)
    verdict = GAME.judge(new(), found)
    assert not verdict.ok and verdict.rules == ("EH-PENALTY",) and "no penalty card is due" in verdict.why


def test_a_live_tables_next_main_puzzle_tapped_is_its_flip(pads: Pads) -> None:
    header, moves = as_live_table(*random_playout(154, teamwork=1.0))
    state = GAME.new_state(header)
    flip = next(m for m in moves if isinstance(m, Flip))
    for move in moves[: moves.index(flip)]:
        state = GAME.play(state, move)[1]
    found = pads.read(state, "tap", flip.card)
    assert found == Flip(card=flip.card, t=pads.t) and GAME.judge(state, found).ok


# -- the discard pad -------------------------------------------------------------------------------------


def test_the_rounds_cards_on_the_discard_pad_are_the_end_of_the_round_then_nothing(pads: Pads) -> None:
    state = play(everyone_played(), mv(None, "resolve"))
    first, second = state.played[0].card, state.played[1].card
    found = pads.read(state, "discard", first)
    assert found == EndRound(t=pads.t)
    for puzzle, _room, cards in missed_clears(state):  # a clear is the table's finding, entered
        state = play(state, mv(None, "clear", puzzle=puzzle, by=list(cards)))
    state = step(state, found)
    assert first in state.discard and second in state.discard
    assert pads.read(state, "discard", second) is None  # the rest of the round's cards


def test_a_card_from_a_hand_on_the_discard_pad_is_that_players_discard(pads: Pads) -> None:
    rooms: dict[str, Any] = copy.deepcopy(ROOMS)
    rooms["library"] = ["locked-chest", "pit", "door-slam-1", "key-3", "lamp-2"]  # the Pit on top
    state = play(new(rooms=rooms), mv(A, "move", room="library"))
    state = step(state, pads.read(state, "hand-anna", "pit"))  # the Pit: discard a card
    assert state.owed(A) == 1
    found = pads.read(state, "discard", "key-1")
    assert found == Discard(by=A, card="key-1", t=pads.t)
    state = step(state, found)
    assert "key-1" in state.discard and not state.owed(A)
    found = pads.read(state, "discard", "crowbar-1")  # ben owes nothing: refused, and said why
    assert isinstance(found, Discard) and GAME.judge(state, found).rules == ("EH-DISCARD",)


def test_a_card_no_move_puts_on_the_discard_pile_is_one_alert(pads: Pads) -> None:
    found = pads.read(new(), "discard", "rope-2")  # in the cellar's deck
    assert isinstance(found, Unexplained) and found.zone == "discard" and found.fix


# -- the plan: every flip, penalty, reveal and dealt card from the pads -----------------------------------


@pytest.mark.parametrize("seed", [3, 154])
def test_every_legal_flip_penalty_dealt_card_draw_trade_clear_and_discard_of_a_live_game_is_a_tap(seed: int) -> None:
    header, moves = as_live_table(*random_playout(seed, max_moves=400, teamwork=1.0))
    state = GAME.new_state(header)
    made = {"dealt": 0, "flip": 0, "clear": 0}
    for move in moves:
        verdict, after = GAME.play(state, move)
        actions = PLAN.actions(state, move, after, verdict.ok)
        if verdict.ok and move.verb in ("dealt", "flip", "penalty", "discard", "draw", "trade", "clear"):
            assert all(isinstance(a, Tap) for a in actions) and actions, (move, actions)
            made[move.verb] = made.get(move.verb, 0) + 1
        if verdict.ok and isinstance(move, Reveal):  # a tap, even the last one, which the tap pad reads as the resolve
            assert actions == (Tap("tap", move.card),), (move, actions)
        assert actions and all(a.why for a in actions if isinstance(a, Enter))
        state = after
    assert made["dealt"] == 24 and made["flip"] >= 1 and made["clear"] >= 1


def test_the_reveal_button_is_the_resolve_in_the_action_phase_and_an_alert_at_any_other_time() -> None:
    ref = ZoneRef("reveal", REVEAL_BUTTON.name)
    nobody = resolved(to_action(loose()))  # the resolve phase: nothing to reveal
    found = GAME.interpret_press(nobody, PressSeen(ref, 5.0))
    assert isinstance(found, Unexplained) and found.zone == "reveal" and "resolve phase" in found.what
    state = to_action(loose())  # must_play off: a player may still play, so no card's tap is the last
    assert not state.options.must_play
    state = play(state, mv(A, "play", card="key-1", target=B))
    found = GAME.interpret_press(state, PressSeen(ref, 5.0))
    assert found == Resolve(t=5.0) and GAME.judge(state, found).ok
    assert PLAN.actions(state, Resolve(), GAME.play(state, Resolve())[1], True) == (Press("reveal"),)
    tapped = GAME.interpret_press(state, PressSeen(ZoneRef("tap", "tap_pad"), 5.0))
    assert isinstance(tapped, Unexplained) and "no reveal button" in tapped.what


def test_in_the_games_the_demo_plays_every_flip_penalty_reveal_and_dealt_card_is_a_tap_on_its_pad() -> None:
    """The acceptance games and the 20 generated ones ``companion demo --game escape-house`` plays
    (seeds 7 to 26): every legal move of a verb the plan always reads is tapped, none entered (the
    end-to-end test, tests/contract/test_sensors.py, sees the pads make them); so is a penalty card
    drawn when none is due, which the rules refuse."""
    assert PLAN.always_read == {"dealt", "flip", "penalty", "reveal"}
    made: dict[str, int] = {}
    refused_penalties = 0
    for game in table_games(SPEC, 20, seed=7):
        state = GAME.new_state(game.header)
        for move in game.moves:
            verdict, after = GAME.play(state, move)
            actions = PLAN.actions(state, move, after, verdict.ok)
            pad = "hand-" + str(move.by) if isinstance(move, Dealt) else "tap"
            if verdict.ok and move.verb in PLAN.always_read:
                assert actions == (Tap(pad, str(getattr(move, "card"))),), (game.name, move, actions)
                made[move.verb] = made.get(move.verb, 0) + 1
            if isinstance(move, Penalty) and state.cards.kind_of(move.card) in PENALTY_KINDS:
                assert actions == (Tap("tap", move.card),), (game.name, move, actions)
                refused_penalties += not verdict.ok
            state = after
    assert made == {"dealt": 24, "flip": 6, "penalty": 136, "reveal": 40}, made
    assert refused_penalties == 5


def test_the_last_card_revealed_on_its_own_is_a_tap_whose_row_is_the_resolve_and_the_resolve_after_it_is_made_already() -> None:
    state = everyone_played()
    *first, last = state.played
    state = play(state, *(mv(p.by, "reveal", card=p.card) for p in first))
    reveal = Reveal(by=last.by, card=last.card)
    verdict, revealed = GAME.play(state, reveal)
    assert verdict.ok and revealed.phase is Phase.ACTION
    assert PLAN.actions(state, reveal, revealed, True) == (Tap("tap", last.card),)
    assert PLAN.table_moves(state, reveal) == (Resolve(),)
    resolve = Resolve()
    at_table = GAME.play(state, resolve)[1]  # what the tap pad wrote
    assert at_table.phase is not Phase.ACTION and at_table == GAME.play(revealed, resolve)[1]
    assert PLAN.made_already(at_table, resolve, True)
    # a resolve refused in the resolve phase is still entered and refused; one in the action phase is no made move
    assert not PLAN.made_already(at_table, resolve, False)
    assert not PLAN.made_already(revealed, resolve, True) and not PLAN.made_already(state, resolve, True)
    # with must_play off the last card is only its reveal
    loose_state = play(to_action(loose()), mv(A, "play", card="key-1", target=A))
    loose_reveal = Reveal(by=A, card="key-1")
    assert PLAN.table_moves(loose_state, loose_reveal) == (loose_reveal,)


@pytest.mark.slow
def test_a_game_that_reveals_the_last_card_then_resolves_is_read_whole_by_the_pads(tmp_path: Path) -> None:
    """Generated seed 14 turns the last card up as a reveal of its own (move 124) and resolves at
    once: through the whole runner (firmware, bridge, table model, session) both are the table's,
    nothing entered, nothing misread."""
    from companion.demo.account import How
    from companion.demo.measure import TableGame, play_through

    header, moves = SPEC.playout(14, max_moves=200, illegal_every=10)
    assert moves[123].verb == "reveal" and moves[124].verb == "resolve"
    report, _ = play_through(SPEC, TableGame("seed 14 to its end of round", header, tuple(moves[:126])), tmp_path)
    by_index = {r.index: r for r in report.results}
    assert by_index[123].how is How.SENSORS and by_index[124].how is How.SENSORS, (by_index[123], by_index[124])
    assert not [r for r in report.results if r.how is How.MISREAD] and not report.setup_misread


def test_a_resolve_by_the_tap_pad_is_a_reveal_for_each_card_but_the_last() -> None:
    state = everyone_played()
    move = mv(None, "resolve")
    rows = PLAN.table_moves(state, move)
    assert [type(r) for r in rows] == [Reveal] * 5 + [Resolve]
    actions = PLAN.actions(state, move, GAME.play(state, move)[1], True)
    assert [a.card for a in actions if isinstance(a, Tap)] == [p.card for p in state.played]


def test_a_puzzle_set_aside_in_the_resolve_phase_is_its_clear_by_the_cards_that_clear_it(pads: Pads) -> None:
    state = play(new(), mv(A, "trade", to=B, card="key-2"), mv(None, "end_explore"))
    cards = {A: "key-1", B: "key-2", C: "rope-1", D: "fuse-1", E: "lamp-1", F_: "gear-1"}
    state = play(state, *(mv(p, "play", card=c, target=p) for p, c in cards.items()), mv(None, "resolve"))
    found = pads.read(state, "tap", "locked-chest")  # the library's puzzle: nothing was played there
    assert isinstance(found, Unexplained) and "clear it nowhere" in found.what and "enter the clear" in found.fix
    found = pads.read(state, "tap", "front-door")
    assert isinstance(found, Clear) and found.puzzle == "front-door" and sorted(found.cards) == ["key-1", "key-2"]
    state = step(state, found)
    assert "front-door" in state.cleared_now
    assert pads.read(state, "tap", "front-door") is None  # set aside already
    found = pads.read(state, "discard", "key-1")
    assert found == EndRound(t=pads.t) and GAME.judge(state, found).ok
