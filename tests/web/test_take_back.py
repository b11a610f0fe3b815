"""Issue 26, hole 4, over real HTTP: take-back follows who entered the move.

A player's link may take back only what that link entered. The referee's entry in the player's name,
a reader's row read as the player's move, and the referee's correction of the player's entry are the
referee's to take back: the player is told so in one sentence, and nothing changes but that refusal's
own row. The referee may take back anything. The toy game (take-away, anna then ben) is served by the
real waitress server; the reader's row comes in through the session's queue as a reader's does.
"""

from __future__ import annotations

from typing import Any

from companion.core import Observation, ObservationKind
from companion.core.sources import REFEREE, link_source
from tests.serving import Served
from tests.web.client import Answer, Browser
from web.links import player_link

PIN = "123456"
PAD = {"zone": "pad-anna", "zone_kind": "hand_pad", "player": "anna", "index": None}


def link(served: Served, player: str) -> str:
    return "/api" + player_link(served.web.app, player)


class Seats:
    """Anna on her own link and the referee on the console, both real browsers."""

    def __init__(self, served: Served) -> None:
        self.served = served
        self.session = served.session
        self.anna = Browser(served.port)
        self.anna_csrf = self.anna.csrf()
        self.referee = Browser(served.port)
        assert self.referee.login(PIN).status == 303
        self.referee_csrf = self.referee.csrf()

    def left(self) -> int:
        return int(self.session.board()["scoreboard"]["left"])

    def anna_takes(self, n: int) -> int:
        answer = self.anna.post_json(link(self.served, "anna") + "/move", {"move": {"do": "take", "n": n}}, self.anna_csrf)
        assert answer.status == 200, answer.text
        return self.session.log.last_seq

    def anna_preview(self) -> dict[str, Any]:
        preview = self.anna.get(link(self.served, "anna") + "/take-back").json()
        assert isinstance(preview, dict)
        return preview

    def anna_takes_back(self, seq: int) -> Answer:
        return self.anna.post_json(link(self.served, "anna") + "/take-back", {"seq": seq}, self.anna_csrf)

    def referee_takes_back(self, seq: int) -> Answer:
        return self.referee.post_json("/api/referee/undo", {"seq": seq}, self.referee_csrf)


def refused_in_one_sentence(answer: Answer, seats: Seats, said: str) -> str:
    """A take-back refused: 422, the reason in one sentence on its row, the state as it was."""
    assert answer.status == 422, answer.text
    body = answer.json()
    assert isinstance(body, dict)
    why = str(body["row"]["error"])
    assert said in why and "\n" not in why and why.count(";") <= 1 and why.endswith("take it back"), why
    return why


def test_a_player_cannot_take_back_the_referees_entry_in_their_name(served: Served) -> None:
    seats = Seats(served)
    entered = seats.referee.post_json("/api/referee/move", {"move": {"by": "anna", "do": "take", "n": 2}}, seats.referee_csrf)
    assert entered.status == 200
    seq = seats.session.log.last_seq
    assert seats.session.log.row(seq).source == REFEREE  # who entered it is logged
    preview = seats.anna_preview()
    assert preview["seq"] is None and "entered by the referee" in preview["why"]
    rows, left = seats.session.log.last_seq, seats.left()
    why = refused_in_one_sentence(seats.anna_takes_back(seq), seats, "entered by the referee")
    assert why == f"row {seq} was entered by the referee, not through your own link; only the referee can take it back"
    assert seats.left() == left and seats.session.log.last_seq == rows + 1  # the refusal is a row; nothing else
    assert seats.referee_takes_back(seq).status == 200 and seats.left() == left + 2


def test_a_player_cannot_take_back_a_readers_row(served: Served) -> None:
    seats = Seats(served)
    read = served.session.submit(  # a counter tapped on anna's pad: the reader's row is anna's take of one
        Observation("array:1", 100.0, ObservationKind.TAG, {**PAD, "event": "arrive", "uid": "04bb", "card": "c1"})
    ).result(timeout=10)
    assert read.verdict == {"ok": True} and read.move is not None and read.move["by"] == "anna"
    left = seats.left()
    why = refused_in_one_sentence(seats.anna_takes_back(read.seq), seats, "entered from array:1")
    assert why.startswith(f"row {read.seq} was entered from array:1, not through your own link")
    assert seats.left() == left
    assert seats.referee_takes_back(read.seq).status == 200 and seats.left() == left + 1


def test_a_player_takes_back_their_own_entry_and_the_referee_anyones(served: Served) -> None:
    seats = Seats(served)
    seq = seats.anna_takes(2)
    assert seats.session.log.row(seq).source == link_source("anna")
    assert seats.anna_preview()["seq"] == seq
    assert seats.anna_takes_back(seq).status == 200 and seats.left() == 7
    undo = seats.session.log.row(seats.session.log.last_seq)
    assert undo.kind == "undo" and undo.source == link_source("anna") and undo.error is None
    # The same entry again, taken back by the referee this time.
    seq = seats.anna_takes(3)
    assert seats.referee_takes_back(seq).status == 200 and seats.left() == 7


def test_a_player_cannot_take_back_the_referees_correction_of_their_entry(served: Served) -> None:
    seats = Seats(served)
    seq = seats.anna_takes(1)
    fixed = seats.referee.post_json("/api/referee/correct", {"move": {"by": "anna", "do": "take", "n": 3}}, seats.referee_csrf)
    assert fixed.status == 200
    correction = seats.session.log.last_seq
    why = refused_in_one_sentence(seats.anna_takes_back(correction), seats, f"the referee's correction (row {correction})")
    assert str(seq) not in why.split("(")[0] and seats.left() == 4
    assert seats.referee_takes_back(correction).status == 200 and seats.left() == 7


def test_a_refused_entry_in_a_players_name_says_who_entered_it(served: Served) -> None:
    seats = Seats(served)
    seats.anna_takes(1)
    bad = seats.referee.post_json("/api/referee/move", {"move": {"by": "anna", "do": "take", "n": 1}}, seats.referee_csrf)
    assert bad.status == 409  # ben's turn
    preview = seats.anna_preview()
    assert preview["seq"] is None and preview["refused"]["seq"] == seats.session.log.last_seq
    why = preview["why"]
    assert why == (f"the last entry in your name (row {seats.session.log.last_seq}), entered by the referee, was refused "
                   "and changed nothing; there is nothing to take back")
