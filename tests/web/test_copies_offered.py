"""Copies are one thing at the table (issue 22, HIGH 1), over real HTTP: a picker shows each card once
("7 START ×8"), counting the copies the actor could mean; the value it sends names a copy the move
can take, and no label of any offer names a copy (start-1, "Betray 1"): the engine's identity of
copies stays the engine's.

Each test serves a real game with the real waitress server and taps as a page does: it asks
``/offer`` with a draft, taps only what the offer shows, and sends the move the offer finishes.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from companion.core import Header, Observation, ObservationKind
from companion.games.escape_house import GAME as EH
from companion.games.escape_master import GAME as EM
from companion.log.export import transcript_lines
from tests.games import test_escape_house_support as house
from tests.games.test_escape_master_support import A, B, C, header
from tests.serving import Served, served_game
from tests.web.client import Browser
from tests.web.test_builder_api import offer, referee, sent
from web.links import player_link

COPY_NAME = re.compile(r"\b(start|wisdom|trap-\w+|escape(-discard)?|betray)-\d+\b|\bBetray \d")
"""How the engine names one copy (start-3, betray-2), or the old label of one ("Betray 2")."""


def labels(value: Any) -> Iterator[str]:
    """Every label in an offer's JSON: what a person reads."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "label" and isinstance(item, str):
                yield item
            else:
                yield from labels(item)
    elif isinstance(value, list):
        for item in value:
            yield from labels(item)


def no_copy_named(answer: dict[str, Any]) -> None:
    named = [text for text in labels(answer) if COPY_NAME.search(text)]
    assert named == [], f"a label names a copy: {named}"


def enter(served: Served, player: str, move: dict[str, Any]) -> None:
    row = served.session.process(Observation(f"web:{player}", 1.0, ObservationKind.MOVE, move))
    assert row.verdict is not None and row.verdict["ok"], row


def phone_of(served: Served, player: str) -> tuple[Browser, str]:
    return Browser(served.port), f"/api{player_link(served.web.app, player)}"


def only(step: dict[str, Any], label: str) -> dict[str, Any]:
    """The one button labelled ``label`` (it must be one)."""
    found = [c for c in step["choices"] if c["label"] == label]
    assert len(found) == 1, [c["label"] for c in step["choices"]]
    return found[0]


def served(tmp_path: Path, game: Any, head: Header) -> Any:
    return served_game(tmp_path / f"{game.id}.sqlite", game, head)


def test_a_deal_offers_7_start_once_counting_the_copies_ben_could_be_dealt(tmp_path: Path) -> None:
    with served(tmp_path, EM, header(None, players=[A, B, C])) as game:
        enter(game, A, {"by": A, "do": "dealt", "card": "start-1"})
        phone, path = phone_of(game, B)
        answer = offer(phone, path + "/offer", {})
        no_copy_named(answer)
        step = answer["next"]
        assert answer["verb"] == "dealt" and step["field"] == "card"
        start = only(step, "7 START")
        # ben has seen none of the eight: any could be his (anna's is face down to him)
        assert start["count"] == 8 and start["card"].startswith("start-")
        assert not any(c.get("count", 1) > 1 and c is not start and c["label"] == "7 START" for c in step["choices"])
        answer = offer(phone, path + "/offer", {"verb": "dealt", "fields": {"card": start["value"]}})
        assert answer["move"] is not None
        recorded = sent(game, phone, path + "/move", answer["move"])
        hands = EM.view(game.session.state, None)["hands"]
        assert recorded["card"] in hands[B] and recorded["card"] != "start-1" and "start-1" in hands[A]
        # The referee sees the real draw pile: the seven still to deal, one button.
        ref = referee(game)
        answer = offer(ref, "/api/referee/offer?by=" + C, {"verb": "dealt"})
        no_copy_named(answer)
        assert only(answer["next"], "7 START")["count"] == 6


def test_a_wisdom_card_drawn_is_one_button_and_names_a_copy_in_the_draw_pile(tmp_path: Path) -> None:
    hands = {A: ["start-1", "wisdom-1", "joe-2"], B: ["robot-2", "robot-K"], C: ["teen-4", "teen-10"]}
    with served(tmp_path, EM, header(hands, players=[A, B, C])) as game:
        enter(game, "table", {"do": "start"})
        enter(game, A, {"by": A, "do": "play", "card": "start-1", "pile": "new"})
        ref = referee(game)
        answer = offer(ref, "/api/referee/offer?by=" + B, {"verb": "draw"})
        no_copy_named(answer)
        wisdom = only(answer["next"], "Wisdom")
        assert wisdom["count"] == 3 and wisdom["legal"] and wisdom["value"] != "wisdom-1"  # anna holds wisdom-1
        phone, path = phone_of(game, B)
        answer = offer(phone, path + "/offer", {"verb": "draw"})
        no_copy_named(answer)
        mine = only(answer["next"], "Wisdom")
        assert mine["count"] == 4  # ben has not seen anna's: any of the four could be the one he draws
        done = offer(phone, path + "/offer", {"verb": "draw", "fields": {"card": mine["value"]}})
        recorded = sent(game, phone, path + "/move", done["move"])
        assert recorded["card"].startswith("wisdom-") and recorded["card"] != "wisdom-1"
        last = game.session.log.row(game.session.log.last_seq)
        assert last is not None and last.verdict is not None and last.verdict["ok"]


def test_betray_is_one_button_counting_anna_s_copies_and_is_played(tmp_path: Path) -> None:
    with served(tmp_path, EH, house.header({"must_play": False})) as game:
        enter(game, house.B, {"by": house.B, "do": "trade", "to": house.A, "card": "betray-2"})  # anna holds two
        enter(game, "table", {"do": "end_explore"})
        phone, path = phone_of(game, house.A)
        answer = offer(phone, path + "/offer", {"verb": "play"})
        no_copy_named(answer)
        betray = only(answer["next"], "Betray")
        assert betray["count"] == 2 and betray["value"] in ("betray-1", "betray-2")
        draft: dict[str, Any] = {"verb": "play", "fields": {"card": betray["value"]}}
        target = offer(phone, path + "/offer", draft)
        no_copy_named(target)
        draft["fields"]["target"] = house.B
        done = offer(phone, path + "/offer", draft)
        no_copy_named(done)
        assert done["move"] is not None and done["legal"] is True
        recorded = sent(game, phone, path + "/move", done["move"])
        assert recorded["card"] in ("betray-1", "betray-2") and recorded["target"] == house.B
        # Played, a Betray is a thing in its own place: the seven others are still one button.
        every = offer(phone, path + "/offer", {"verb": "play", "every": True})
        no_copy_named(every)
        assert only(every["next"], "Betray")["count"] == 7
        assert only(every["next"], f"Betray ({house.A}, main room)")["value"] == recorded["card"]


def test_a_refusal_and_the_transcript_name_the_card_not_the_copy(tmp_path: Path) -> None:
    hands = {A: ["start-1", "wisdom-1", "joe-2"], B: ["robot-2", "robot-K"], C: ["teen-4", "teen-10"]}
    with served(tmp_path, EM, header(hands, players=[A, B, C])) as game:
        enter(game, "table", {"do": "start"})
        phone, path = phone_of(game, A)
        # A Wisdom card is no trap: the engine says so naming its copy; a person reads the card.
        answer = phone.post_json(path + "/move", {"move": {"by": A, "do": "trap", "card": "wisdom-1", "target": B}}, phone.csrf())
        assert answer.status == 409, answer.text
        verdict = answer.json()["row"]["verdict"]
        assert not verdict["ok"] and "Wisdom" in verdict["why"], verdict
        assert not COPY_NAME.search(verdict["why"] + " " + verdict["fix"]), verdict
        stored = game.session.log.row(game.session.log.last_seq)
        assert stored is not None and stored.verdict is not None and "wisdom-1" in stored.verdict["why"]  # the log keeps the engine's words
        enter(game, A, {"by": A, "do": "play", "card": "start-1", "pile": "new"})
        lines = list(transcript_lines(game.session.log))
        assert any('card="7 START"' in line for line in lines) and any("Wisdom" in line and "ILLEGAL" in line for line in lines)
        assert [line for line in lines if COPY_NAME.search(line)] == []
