"""The referee's words per language (companion/table/speech.py): every rule id of every game has a
text in every language, a German table hears German, and a language with no words is one error."""

from __future__ import annotations

import tomllib
from typing import Any

import pytest

from companion.app.feedback_config import parse_feedback
from companion.core.errors import ConfigError
from companion.core.rulings import Ruling, Tone
from companion.games import specs
from companion.table.speech import PHRASES, SHARED, catalogue_language, languages, load_speech
from companion.table.voice import Heard, TableVoice

BOARD: dict[str, Any] = {"prompts": [], "alerts": [], "outcome": None}


def test_there_are_english_and_german() -> None:
    assert {"en", "de"} <= set(languages())


@pytest.mark.parametrize("language", languages())
def test_every_rule_id_of_every_game_has_a_text_in_every_language(language: str) -> None:
    problems = []
    for game_id, spec in sorted(specs().items()):
        path = spec.path(spec.voice) / f"{language}.toml"
        if not path.is_file():
            problems.append(f"{game_id}: no {path}")
            continue
        texts = tomllib.loads(path.read_text(encoding="utf-8")).get("rules", {})
        rules = set(spec.game.rules)
        missing, stale = sorted(rules - set(texts)), sorted(set(texts) - rules)
        if missing:
            problems.append(f"{game_id} ({language}): no text for {', '.join(missing)}")
        if stale:
            problems.append(f"{game_id} ({language}): texts for rule ids the game does not have: {', '.join(stale)}")
        speech = load_speech(language, spec.root)  # and it loads: every text a non-empty string
        assert set(speech.rules) == set(texts)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("language", languages())
def test_every_language_has_every_shared_phrase_and_the_cards(language: str) -> None:
    data = tomllib.loads((SHARED / f"{language}.toml").read_text(encoding="utf-8"))
    assert set(PHRASES) <= set(data["phrases"]), f"{language}: lacks {set(PHRASES) - set(data['phrases'])}"
    assert set(data["cards"]) == set("AJQKSHDC")
    assert isinstance(data["games_words"], bool)


def test_a_language_without_words_is_one_error_naming_the_languages_there_are() -> None:
    with pytest.raises(ConfigError) as raised:
        parse_feedback({"language": "fr"})
    assert "'fr'" in str(raised.value) and "de, en" in str(raised.value)
    assert parse_feedback({"language": "de"}).language == "de"
    assert catalogue_language("en-us") == "en"  # an English voice speaks the English words


def test_a_german_table_hears_the_rule_in_german_and_no_card() -> None:
    speech = load_speech("de", specs()["escape-master"].root)
    refused = {"ok": False, "rules": ["EM-PILE"], "why": "a 9 cannot go on a 7 (pile 2); play 6 or 8, or a Wisdom"}
    row = {"seq": 5, "kind": "tag", "verdict": refused, "move": {"by": "ben", "do": "play", "card": "teen-9", "pile": 2},
           "alert": None, "error": None}
    said = TableVoice(speech).update([Heard(row, "pile-2")], BOARD)
    assert said[-1] == Ruling(
        Tone.ILLEGAL, "Stapel 2: nur eins höher oder eins tiefer, egal welche Farbe; König und Eins schließen aneinander an.",
        5, "pile-2")
    assert "9" not in said[-1].text  # the catalogue's text names no card at all


def test_german_zones_prompts_alerts_and_the_end() -> None:
    speech = load_speech("de", specs()["escape-master"].root)
    assert speech.zone("hand-anna") == "Annas Hand"
    assert speech.zone("action-ben") == "Action-Stapel von Ben"
    assert speech.zone("pile-11") == "Stapel 11"
    voice = TableVoice(speech)
    waiting = {**BOARD, "prompts": [{"who": "anna", "verb": "draw", "text": "anna: draw 3 card(s) for the Draw +3 trap"}]}
    assert voice.update([], waiting) == [Ruling(Tone.WAITING, "Anna: zieh deine Karten.")]
    alert = {"seq": 4, "kind": "tag", "verdict": None, "move": None, "error": None,
             "alert": {"zone": "out-cleo", "what": "a card arrived at out-cleo", "fix": "take it back"}}
    assert Ruling(Tone.ALERT, "Ausknopf von Cleo: das erklärt kein Zug; bitte prüfen.", 4, "out-cleo") in voice.update([Heard(alert, "out-cleo")], waiting)
    over = {**BOARD, "outcome": {"termination": "score"}, "winners": ["anna", "ben"]}
    assert voice.update([], over) == [Ruling(Tone.LEGAL, "Das Spiel ist aus. Anna und Ben gewinnen.")]


def test_german_card_words_and_the_mask() -> None:
    speech = load_speech("de")
    assert speech.card_words("QS und 10H") == "Pik Dame und Herz 10"
    assert speech.unmasked("a hidden card") == "eine verdeckte Karte"
    assert load_speech("en").unmasked("a hidden card") == "a hidden card"


def test_a_game_without_words_in_a_language_is_an_error(tmp_path: Any) -> None:
    with pytest.raises(ConfigError, match="no spoken texts in 'de'"):
        load_speech("de", tmp_path)


def test_several_asked_at_once_are_spoken_to_together() -> None:
    speech = load_speech("de", specs()["escape-house"].root)
    asked = [{"who": p, "verb": "play", "text": f"{p}: play a card face down"} for p in ("anna", "ben")]
    said = TableVoice(speech).update([], {**BOARD, "prompts": asked})
    assert said == [Ruling(Tone.WAITING, "Anna und Ben: spielt je eine Karte verdeckt, mit einem Charakterplättchen darunter.")]
    one = TableVoice(speech).update([], {**BOARD, "prompts": asked[:1]})
    assert one == [Ruling(Tone.WAITING, "Anna: spiel eine Karte verdeckt, mit einem Charakterplättchen darunter.")]
