"""What the table hears (companion/table/voice.py), from public rows and the public board."""

from __future__ import annotations

from typing import Any

from companion.core.rulings import Ruling, TakeBack, Tone
from companion.table.voice import Heard, TableVoice, speakable, zone_words


def row(seq: int, verdict: dict[str, Any] | None = None, kind: str = "tag", move: dict[str, Any] | None = None,
        alert: dict[str, Any] | None = None, error: str | None = None) -> dict[str, Any]:
    return {"seq": seq, "kind": kind, "verdict": verdict, "move": move, "alert": alert, "error": error}


REFUSED = {"ok": False, "rules": ["EM-PILE"], "why": "a 9 cannot go on a 7 (pile 2); play 6 or 8, or a Wisdom"}
BOARD: dict[str, Any] = {"prompts": [], "alerts": [], "outcome": None}


def test_an_illegal_play_is_said_where_and_why() -> None:
    voice = TableVoice()
    said = voice.update([Heard(row(5, REFUSED, move={"by": "ben", "do": "play", "card": "teen-9", "pile": 2}), "pile-2")], BOARD)
    assert said == [Ruling(Tone.ILLEGAL, "Pile 2: a 9 cannot go on a 7, pile 2; play 6 or 8, or a Wisdom.", 5, "pile-2")]


def test_without_a_zone_the_pile_then_the_player_is_named() -> None:
    voice = TableVoice()
    by_pile = voice.update([Heard(row(5, REFUSED, kind="move", move={"by": "ben", "pile": 3}))], BOARD)
    by_player = voice.update([Heard(row(6, {"ok": False, "rules": ["X"], "why": "no round is being played"}, kind="move", move={"by": "ben"}))], BOARD)
    assert [r.text for r in by_pile if isinstance(r, Ruling)] == ["Pile 3: a 9 cannot go on a 7, pile 2; play 6 or 8, or a Wisdom."]
    assert [r.text for r in by_player if isinstance(r, Ruling)] == ["Ben: no round is being played."]


def test_a_legal_move_is_a_tone_alone_and_takes_back_what_was_still_to_be_said_there() -> None:
    voice = TableVoice()
    said = voice.update([Heard(row(7, {"ok": True}), "pile-2")], BOARD)
    assert said == [TakeBack(7, "pile-2"), Ruling(Tone.LEGAL, "", 7, "pile-2")]
    assert said[0].covers(Ruling(Tone.ILLEGAL, "x", 5, "pile-2"))
    assert not said[0].covers(Ruling(Tone.ILLEGAL, "x", 5, "pile-1"))
    assert not said[0].covers(Ruling(Tone.LEGAL, "", 7, "pile-2"))


def test_an_undo_takes_back_every_earlier_ruling_and_an_error_row_says_nothing() -> None:
    voice = TableVoice()
    assert voice.update([Heard(row(9, kind="undo"))], BOARD) == [TakeBack(9)]
    assert voice.update([Heard(row(10, error="bad notation"), "pile-1")], BOARD) == []


def test_the_public_form_is_what_is_spoken_so_a_hidden_card_is_never_named() -> None:
    # The public row's why is already redacted (companion.log.public): the voice says no more than it.
    public = {"ok": False, "rules": ["HM2-DRAW"], "why": "a hidden card cannot come from the Draw Pile"}
    said = TableVoice().update([Heard(row(3, public, kind="move", move={"by": "eve", "do": "draw"}))], BOARD)
    assert [r.text for r in said if isinstance(r, Ruling)] == ["Eve: a hidden card cannot come from the Draw Pile."]


def test_an_alert_is_said_at_its_zone() -> None:
    said = TableVoice().update([Heard(row(4, alert={"zone": "pile-1", "what": "an unknown tag", "fix": "enrol it"}), "pile-1")], BOARD)
    assert Ruling(Tone.ALERT, "Pile 1: an unknown tag.", 4, "pile-1") in said


def test_a_prompt_is_said_once_when_it_appears_and_the_end_once() -> None:
    voice = TableVoice()
    waiting = {**BOARD, "prompts": [{"who": "anna", "verb": "roll", "text": "roll your die"}]}
    assert voice.update([], waiting) == [Ruling(Tone.WAITING, "Anna: roll your die.")]
    assert voice.update([], waiting) == []
    over = {**BOARD, "outcome": {"termination": "score"}, "winners": ["anna", "ben", "cleo"]}
    assert voice.update([], over) == [Ruling(Tone.LEGAL, "The game is over. Anna, Ben and Cleo win.")]
    assert voice.update([], over) == []


def test_a_game_already_over_when_followed_is_not_announced() -> None:
    assert TableVoice().update([], {**BOARD, "outcome": {"termination": "score"}, "winners": ["anna"]}) == []


def test_speakable_words() -> None:
    assert speakable("2H can only be swapped; slot 2 holds 10S and KD") == "2 of hearts can only be swapped; slot 2 holds 10 of spades and king of diamonds"
    assert speakable("Key (key-1) was played; Boiler (boiler) is in the kitchen") == "Key was played; Boiler is in the kitchen"
    assert speakable("misses 8 card(s) the log has") == "misses 8 cards the log has"
    assert speakable("may draw a Story card (the most faults (8)).") == "may draw a Story card, the most faults, 8."
    assert zone_words("pile-2") == "Pile 2"
    assert zone_words("hand-anna") == "Anna's hand"


def test_a_prompt_counting_down_is_said_once_and_again_only_when_it_means_something_new() -> None:
    voice = TableVoice()
    def draw(n: int) -> dict[str, Any]:
        return {**BOARD, "prompts": [{"who": "solo", "verb": "draw", "text": f"solo: draw {n} more cards from the stock"}]}
    assert voice.update([], draw(3)) == [Ruling(Tone.WAITING, "Solo: draw 3 more cards from the stock.")]
    assert voice.update([], draw(2)) == [] and voice.update([], draw(1)) == []  # the same ask, counted down
    acting = {**BOARD, "prompts": [{"who": "solo", "verb": "act", "text": "solo: play a set"}]}
    assert voice.update([], acting) == [Ruling(Tone.WAITING, "Solo: play a set.")]
    assert voice.update([], draw(5)) == [Ruling(Tone.WAITING, "Solo: draw 5 more cards from the stock.")]  # a new turn's draw


def test_everyone_asked_the_same_is_called_once() -> None:
    asked = [{"who": p, "verb": "play", "text": f"{p}: play a card face down"} for p in ("cleo", "anna", "ben")]
    said = TableVoice().update([], {**BOARD, "prompts": asked + [{"who": "anna", "verb": "out", "text": "anna has no cards left: call Escape Master!"}]})
    assert said == [Ruling(Tone.WAITING, "Anna has no cards left: call Escape Master!"),
                    Ruling(Tone.WAITING, "Anna, Ben and Cleo: play a card face down.")]
