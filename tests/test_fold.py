"""The one fold: folding a live game's log rows gives exactly what the live session had, row by row.

Each of the five games is played live (a random playout with illegal attempts) with the referee's
and the players' take-backs, corrections legal and refused, refused take-backs, malformed entries,
notes and reader noise that raises alerts, some one at a time and some in bursts; the toy game adds
alerts cleared by a move read at their zone. Then the log alone is folded with the same
:func:`companion.log.fold.step`, and a resumed session is compared too.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from companion.contract.game import Game
from companion.core import Header, Move, Observation, ObservationKind
from companion.core.sources import REFEREE, link_source
from companion.games import game_ids, get_game, get_spec
from companion.log.fold import Folded, folds, replay
from companion.log.store import GameLog
from companion.referee.session import Session
from tests.conftest import TOY_HEADER, StepClock, move
from tests.toy_game import GAME as TOY



def _same(live: Folded, folded: Folded, where: str) -> None:
    assert folded.state == live.state, where
    assert list(folded.history) == list(live.history), where
    assert dict(folded.alerts) == dict(live.alerts), where
    assert folded.judged == live.judged, where
    assert folded.counts == live.counts, where
    assert folded.verdict == live.verdict, where


class Table:
    """A live session that remembers what it had after each row it wrote."""

    def __init__(self, game: Game[Any], header: Header, path: Path) -> None:
        self.game = game
        self.log = GameLog(path)
        self.session = Session(game, self.log, header, clock=StepClock())
        self.seen: dict[int, Folded] = {}
        self.t = 1000.0

    def obs(self, kind: ObservationKind, payload: dict[str, Any], source: str = "test") -> Observation:
        self.t += 0.25
        return Observation(source, self.t, kind, payload)

    def send(self, *observations: Observation) -> list[Any]:
        rows = self.session.process_many(observations)
        self.seen[rows[-1].seq] = self.session.folded()
        return rows

    def check_fold(self) -> Folded:
        """Fold the log from its header and compare with what the session had at every row it wrote."""
        start = Folded.start(self.game, self.session.header)
        compared = 0
        for row, folded in folds(self.game, start, self.log.rows(after=1)):
            if row.seq in self.seen:
                _same(self.seen[row.seq], folded, f"{self.game.id} row {row.seq} ({row.kind})")
                compared += 1
        assert compared == len(self.seen)
        whole = replay(self.game, start, self.log.rows(after=1))
        _same(self.session.folded(), whole, f"{self.game.id}: the whole log")
        return whole


def _play(table: Table, moves: list[Move], rng: random.Random) -> dict[str, int]:
    """Every move of a playout, with take-backs, corrections, refusals and noise around them."""
    game = table.game
    done = {"undo": 0, "player_undo": 0, "refused_undo": 0, "correction": 0, "refused_correction": 0, "alerts": 0}
    noise_zone = {"zone": "discard", "zone_kind": "discard", "player": None, "index": None}
    for n, m in enumerate(moves):
        entry = game.codec.to_json(m)
        # A player's move comes through their own link (only such an entry is theirs to take back).
        # The playout's deliberate illegal attempts come as a script sends them, naming the very copy:
        # from a page, a copy the player does not hold is settled to one they do (Game.settle), the
        # attempt becomes legal and the game leaves the playout's path.
        if not game.judge(table.session.state, m).ok:
            source = "script"
        else:
            source = link_source(m.by) if m.by is not None else REFEREE
        [row] = table.send(table.obs(ObservationKind.MOVE, entry, source))
        applied = row.verdict is not None and row.verdict["ok"]
        roll = rng.randrange(7)
        if applied and roll == 0:  # the referee takes it back (naming the row shown), and it is entered again
            [undo] = table.send(table.obs(ObservationKind.UNDO, {"seq": row.seq}, "web:referee"))
            assert undo.error is None and undo.move == row.move
            table.send(table.obs(ObservationKind.MOVE, entry, source))
            done["undo"] += 1
        elif applied and m.by is not None and roll == 1:  # the player takes back their own entry
            [undo] = table.send(table.obs(ObservationKind.UNDO, {"player": m.by}, link_source(m.by)))
            assert undo.error is None
            table.send(table.obs(ObservationKind.MOVE, entry, source))
            done["player_undo"] += 1
        elif applied and roll == 2:  # the referee corrects it to itself: judged on the state before it
            [fixed] = table.send(table.obs(ObservationKind.CORRECTION, {"move": entry}, "web:referee"))
            assert fixed.verdict == {"ok": True}
            done["correction"] += 1
        elif roll == 3 and n + 2 < len(moves):  # a correction to a move from later in the game: refused or not
            later = game.codec.to_json(moves[n + 2])
            table.send(table.obs(ObservationKind.CORRECTION, {"move": later}, "web:referee"))
            done["refused_correction"] += 1
        elif roll == 4:  # take-backs that must be refused: a stale row, a player who did not enter last
            stale = table.obs(ObservationKind.UNDO, {"seq": 1}, "web:referee")
            other = table.obs(ObservationKind.UNDO, {"player": "nobody"}, "web:nobody")
            rows = table.send(stale, other)
            assert all(r.error is not None for r in rows)
            done["refused_undo"] += 1
        if n % 9 == 4:  # a burst of reader noise, a note and a malformed entry, written in one batch
            burst = [
                table.obs(ObservationKind.TAG, {**noise_zone, "event": "arrive", "uid": f"{n:08x}", "card": None}, "array:1"),
                table.obs(ObservationKind.NOTE, {"said": f"note {n}"}),
                table.obs(ObservationKind.MOVE, {"by": m.by, "do": "no-such-verb"}),
                table.obs(ObservationKind.VISION, {**noise_zone, "state": {"occupied": True}}, "camera"),
            ]
            rows = table.send(*burst)
            done["alerts"] += sum(1 for r in rows if r.alert is not None)
    return done


@pytest.mark.parametrize("game_id", game_ids())
def test_folding_a_live_games_log_gives_what_the_session_had(game_id: str, tmp_path: Path) -> None:
    header, moves = get_spec(game_id).playout(11, 160, illegal_every=6)
    game = get_game(game_id)
    table = Table(game, header, tmp_path / "game.sqlite")
    done = _play(table, moves, random.Random(game_id))
    whole = table.check_fold()

    # Every kind of row was there to fold, and the counters say so.
    assert done["undo"] and done["player_undo"] and done["correction"] and done["refused_undo"], done
    assert whole.counts.illegal > 0 and whole.counts.errors > 0 and whole.counts.replay_mismatches == 0
    assert whole.counts.alerts == done["alerts"]
    if game_id != "everest":  # Everest reads only the camera's grid: a card reader's noise is an error there
        assert done["alerts"] > 0 and whole.alerts

    # A session that resumes the log folds it the same way, from the header the log holds (its JSON
    # may order a mapping otherwise than the header the game was started with), counters and all.
    table.log.close()
    with GameLog(tmp_path / "game.sqlite") as reopened:
        stored = reopened.header()
        assert stored is not None
        resumed = Session(game, reopened, None, clock=StepClock())
        _same(replay(game, Folded.start(game, stored), reopened.rows(after=1)), resumed.folded(), f"{game_id} resumed")
        assert resumed.board()["counters"] == whole.counts.to_json()
        assert resumed.board()["scoreboard"] == game.scoreboard(whole.state)


def test_an_alert_stands_until_a_move_is_read_at_its_zone(tmp_path: Path) -> None:
    table = Table(TOY, TOY_HEADER, tmp_path / "toy.sqlite")
    pad = {"zone": "pad-anna", "zone_kind": "hand_pad", "player": "anna", "index": None}
    other = {"zone": "pad-ben", "zone_kind": "hand_pad", "player": "ben", "index": None}
    unknown = {"event": "arrive", "uid": "04aa", "card": None}
    table.send(table.obs(ObservationKind.TAG, {**pad, **unknown}), table.obs(ObservationKind.TAG, {**other, **unknown}))
    assert set(table.session.alerts) == {"pad-anna", "pad-ben"}
    table.send(table.obs(ObservationKind.TAG, {**pad, "event": "depart", "uid": "04bb", "card": "c1"}))  # nothing read
    assert set(table.session.alerts) == {"pad-anna", "pad-ben"}
    table.send(table.obs(ObservationKind.TAG, {**pad, "event": "arrive", "uid": "04bb", "card": "c1"}))  # anna takes 1
    assert set(table.session.alerts) == {"pad-ben"}
    table.send(table.obs(ObservationKind.UNDO, {}, "web:referee"))  # a take-back clears no alert
    table.send(table.obs(ObservationKind.TAG, {**other, "event": "arrive", "uid": "04cc", "card": "c2"}))  # illegal: anna's turn
    assert table.session.alerts == {} and table.session.counters["illegal"] == 1
    table.send(move({"by": "anna", "do": "take", "n": 3}, source=link_source("anna")))
    table.send(table.obs(ObservationKind.UNDO, {"player": "anna"}, "web:anna"))  # a log from before links said so
    table.send(table.obs(ObservationKind.UNDO, {"player": "anna"}, "web:anna"))  # refused: already taken back
    assert table.session.counters["errors"] == 1
    table.check_fold()


def test_take_back_follows_who_entered_in_a_resumed_log_of_the_old_sources(tmp_path: Path) -> None:
    """A log from before the links named themselves: a player's link wrote ``web:<name>``. Resumed, it
    folds as it did; what each row may be taken back by follows who entered it."""
    table = Table(TOY, TOY_HEADER, tmp_path / "old.sqlite")
    table.send(move({"by": "anna", "do": "take", "n": 1}, source="web:anna"))  # anna's own link, old spelling
    table.send(move({"by": "ben", "do": "take", "n": 1}, source="web:referee"))  # the referee, in ben's name
    table.log.close()
    with GameLog(tmp_path / "old.sqlite") as reopened:
        resumed = Session(TOY, reopened, None, clock=StepClock())
        assert resumed.last_judged is not None and resumed.last_judged.source == "web:referee"
        why = resumed.take_back_preview("ben")["why"]
        assert why == "row 3 was entered by the referee, not through your own link; only the referee can take it back"
        [refused] = resumed.process_many([Observation("web:ben", 200.0, ObservationKind.UNDO, {"seq": 3})])
        assert refused.error == why
        assert resumed.take_back_preview(None)["seq"] == 3
        [undone] = resumed.process_many([Observation(REFEREE, 201.0, ObservationKind.UNDO, {"seq": 3})])
        assert undone.error is None
        # anna's entry is now on top, but another (the referee's) was judged after it: not hers to take back
        assert "another entry" in str(resumed.take_back_preview("anna")["why"])
        [mine] = resumed.process_many([Observation("web:ben", 202.0, ObservationKind.MOVE, {"by": "ben", "do": "take", "n": 2})])
        assert mine.verdict == {"ok": True} and resumed.take_back_preview("ben")["seq"] == mine.seq
