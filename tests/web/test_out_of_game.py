"""A sacrificed player takes no further part (EH-SACRIFICED): over HTTP their page is offered no move,
only why, while the engine still judges whatever their link sends."""

from __future__ import annotations

from pathlib import Path

from companion.games.escape_house import GAME as EH
from tests.games import test_escape_house_support as house
from tests.serving import served_game
from tests.web.test_builder_api import offer, referee, sent
from tests.web.test_copies_offered import enter, phone_of

WHY = f"{house.B} was sacrificed and takes no further part"


def test_a_sacrificed_player_is_offered_no_move_and_told_why(tmp_path: Path) -> None:
    with served_game(tmp_path / "house.sqlite", EH, house.header({"must_play": False})) as game:
        enter(game, "table", {"do": "end_explore"})
        enter(game, house.A, {"by": house.A, "do": "play", "card": "betray-1", "target": house.B})
        enter(game, "table", {"do": "resolve"})
        assert game.session.board()["scoreboard"]["sacrificed"] == [house.B]
        phone, path = phone_of(game, house.B)
        for draft in ({}, {"verb": "move"}, {"every": True}):
            gone = offer(phone, path + "/offer", draft)
            assert (gone["verbs"], gone["quick"], gone["next"], gone["out"]) == ([], [], None, WHY), draft
        # the referee's console, entering for ben, is told the same
        assert offer(referee(game), f"/api/referee/offer?by={house.B}", {})["out"] == WHY
        # anna plays on: her page offers her verbs and says nothing of being out
        mine, anna = phone_of(game, house.A)
        alive = offer(mine, anna + "/offer", {})
        assert alive["verbs"] and "out" not in alive
        # the next round: still nothing for ben; a move his link sends anyway is judged and refused
        enter(game, "table", {"do": "clear", "puzzle": "front-door", "by": ["betray-1"]})
        enter(game, "table", {"do": "end_round"})
        assert offer(phone, path + "/offer", {})["out"] == WHY
        assert offer(mine, anna + "/offer", {})["verbs"]
        sent(game, phone, path + "/move", {"by": house.B, "do": "move", "room": "library"})
        row = game.session.log.row(game.session.log.last_seq)
        assert row is not None and row.verdict is not None and not row.verdict["ok"]
        assert row.verdict["rules"] == ["EH-SACRIFICED"] and row.verdict["why"] == WHY
