"""Everest's words as the referee says them (its voice/en.toml [prompts]): a prompt written for a
screen is said as a referee would, and several asked at once are called together."""

from __future__ import annotations

from typing import Any

from companion.core.rulings import Ruling, Tone
from companion.games import specs
from companion.table.speech import load_speech
from companion.table.voice import TableVoice

BOARD: dict[str, Any] = {"prompts": [], "alerts": [], "outcome": None}


def test_in_english_a_prompt_written_for_a_screen_is_said_as_a_referee_would() -> None:
    rolls = [{"who": p, "verb": "roll", "text": f"{p}: roll your die for the conflict of the actions of coin 2 (red, blue) ..."}
             for p in ("red", "blue")]
    said = TableVoice(load_speech("en", specs()["everest"].root)).update([], {**BOARD, "prompts": rolls})
    assert said == [Ruling(Tone.WAITING, "Blue and Red: roll your dice.")]
    own = [{"who": "blue", "verb": "plan", "text": "blue: plan 3 coins in secret (6 usable)"}]  # its own text is fine
    assert TableVoice(load_speech("en", specs()["everest"].root)).update([], {**BOARD, "prompts": own}) == [
        Ruling(Tone.WAITING, "Blue: plan 3 coins in secret, 6 usable.")]
