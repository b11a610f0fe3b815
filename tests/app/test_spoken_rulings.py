"""Every rule id of every game, spoken in every language the referee has words in (issue 25's
done-when): each rule's case is played through a real Session (a log on disk), the row it makes is
read in its public form by the table's voice in that language (:mod:`companion.table.speech`), and
the rule's spoken text is made to a WAV file by espeak-ng, the same :class:`hardware.audio.Voice`
the service speaks with. sox checks each file (``sox F -n stat``): not silent, and as long as its
words take to say; and nothing said names a card the verdict's public form hides.

A rule that refuses is heard as its refusal: "Pile 1: a 5 cannot go on a 7 ..." in English (the
verdict's own sentence), "Stapel 1: nur eins höher oder eins tiefer ..." in German (the catalogue's
text for the rule). A rule that only says what happens (scoring, the end of a round) is spoken as
its catalogue text; what the voice says after its case's move (a prompt, the game's end) is
checked for hidden cards too, and in a language the games are not written in, each prompt on the
board has its own words (not the catalogue's "your turn").
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from companion.core import Observation, ObservationKind
from companion.core.rulings import Ruling, Tone
from companion.games import game_ids, get_game, get_spec
from companion.log.public import hidden_values
from companion.log.store import GameLog
from companion.referee.session import Session
from companion.table.speech import Speech, languages, load_speech
from companion.table.voice import Heard, TableVoice, ruling_text, speakable
from hardware.audio import Voice
from tests.rulecases.cases import RuleCase, cases_file, read_cases

pytestmark = pytest.mark.skipif(
    shutil.which("espeak-ng") is None or shutil.which("sox") is None,
    reason="espeak-ng or sox is missing: make audio installs Debian's (apt-get install espeak-ng sox)",
)

SECONDS_PER_WORD = (0.12, 0.9)
"""A plausible spoken length: espeak-ng's default 175 words a minute is 0.34 s a word; digits and
card names run longer, short words shorter."""


@dataclass(frozen=True)
class Stat:
    seconds: float
    rms: float
    peak: float


def sox_stat(wav: Path) -> Stat:
    """``sox F -n stat``'s length, RMS and peak amplitude (it reports on stderr)."""
    done = subprocess.run(["sox", str(wav), "-n", "stat"], capture_output=True, text=True, timeout=30, check=True)
    figures = dict(re.findall(r"^(.+?):\s+(-?[\d.]+)$", done.stderr, re.M))
    return Stat(float(figures["Length (seconds)"]), float(figures["RMS     amplitude"]), float(figures["Maximum amplitude"]))


@dataclass(frozen=True)
class Hearing:
    """What the table heard after a case's move."""

    rulings: list[Ruling]
    public: dict[str, Any]
    """The move's row in its public form."""
    verbs: set[str]
    """The verbs of the prompts on the board after it."""


def heard_after(game_id: str, case: RuleCase, folder: Path, speech: Speech | None = None) -> tuple[list[Ruling], dict[str, Any]]:
    """What the table hears after the case's move, through a real Session, and that row's public form."""
    heard = hear(game_id, case, folder, [speech])[0]
    return heard.rulings, heard.public


def hear(game_id: str, case: RuleCase, folder: Path, speeches: Sequence[Speech | None]) -> list[Hearing]:
    """What the table hears after the case's move in each of ``speeches``' words: the case is played
    once, and a voice per language follows the same rows and boards."""
    game = get_game(game_id)
    session = Session(game, GameLog(folder / f"{game_id}-{case.line}.sqlite"), case.header)
    voices = [TableVoice(speech) for speech in speeches]
    for voice in voices:
        voice.update([], session.board())

    def observe(n: int, move: Any) -> Observation:  # moves a minute apart: none races another to a pile
        return Observation("test", 60.0 * n, ObservationKind.MOVE, game.codec.to_json(move))

    try:
        if case.moves:
            session.process_many([observe(n, m) for n, m in enumerate(case.moves)])
            for voice in voices:
                voice.update([], session.board())
        row = session.process(observe(len(case.moves), case.move))
        public = session.public_row(row)
        board = session.board()
        said = [voice.update([Heard(public)], board) for voice in voices]
    finally:
        session.log.close()
    verbs = {str(p["verb"]) for p in board.get("prompts") or ()}
    return [Hearing([s for s in one if isinstance(s, Ruling)], public, verbs) for one in said]


class Wavs:
    """espeak-ng's WAV of each text, kept between runs (pytest's cache, keyed by espeak-ng's version,
    the voice, the volume and the words): a run after the first only checks the files with sox."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        version = subprocess.run(["espeak-ng", "--version"], capture_output=True, text=True, timeout=30, check=True)
        self.version = version.stdout.strip()

    def of(self, voice: Voice, text: str) -> Path:
        key = hashlib.sha256(f"{self.version}|{voice.language}|{voice.volume}|{text}".encode()).hexdigest()[:32]
        wav = self.folder / f"{key}.wav"
        if not wav.exists():
            made = voice.to_wav(text, self.folder / f"{key}.{os.getpid()}.part")
            made.replace(wav)  # whole or absent: another worker may be making the same one
        return wav


@pytest.fixture(scope="session")
def wavs(pytestconfig: pytest.Config) -> Wavs:
    assert pytestconfig.cache is not None
    return Wavs(pytestconfig.cache.mkdir("spoken-rulings"))


def rule_cases() -> Iterator[tuple[str, str, RuleCase]]:
    """Each rule id of each game with the case it is heard by: its first refusal, or its first effect."""
    for game_id in sorted(game_ids()):
        game = get_game(game_id)
        cases = read_cases(game, cases_file(game_id))
        for rule_id, rule in game.rules.items():
            want = "illegal" if rule.refuses else "effect"
            case = next(c for c in cases if c.rule == rule_id and c.expect == want)
            yield game_id, rule_id, case


def _games() -> list[str]:
    return sorted(game_ids())


@pytest.mark.parametrize("game_id", _games())
def test_every_rule_id_is_spoken_to_a_wav_that_sox_finds_sound_and_private_free(game_id: str, wavs: Wavs, tmp_path: Path) -> None:
    speeches = [load_speech(language, get_spec(game_id).root) for language in languages()]
    voices = [Voice(language, volume=80) for language in languages()]
    assert all(voice.missing() == "" for voice in voices)
    problems: list[str] = []
    for _, rule_id, case in (c for c in rule_cases() if c[0] == game_id):
        for speech, voice, heard in zip(speeches, voices, hear(game_id, case, tmp_path, speeches)):
            problems.extend(check_spoken(rule_id, case, speech, heard, wavs.of(voice, spoken(rule_id, case, speech, heard))))
    assert not problems, "\n".join(problems)


def spoken(rule_id: str, case: RuleCase, speech: Speech, heard: Hearing) -> str:
    """A rule's spoken text in ``speech``'s words: the refusal as the table hears it (the verdict's
    sentence in English, the catalogue's text for the first rule broken in German), or for a rule
    that says what happens, its catalogue text."""
    if case.expect != "illegal":
        return ruling_text("", speech.rules[rule_id], speech=speech)
    verdict = heard.public["verdict"]
    assert verdict["ok"] is False and rule_id in verdict["rules"], f"{rule_id}: the session did not refuse it citing it"
    refusals = [r for r in heard.rulings if r.tone is Tone.ILLEGAL]
    assert refusals and refusals[0].text, f"{rule_id} ({speech.language}): no spoken refusal"
    if not speech.games_words:
        assert speakable(speech.rules[verdict["rules"][0]], speech) in refusals[0].text, f"{rule_id}: {refusals[0].text!r}"
    return refusals[0].text


def check_spoken(rule_id: str, case: RuleCase, speech: Speech, heard: Hearing, wav: Path) -> list[str]:
    """What is wrong with a rule's WAV and with what the table heard after its case's move."""
    problems = []
    words = spoken(rule_id, case, speech, heard)
    said = " ".join(r.text for r in heard.rulings if r.text)
    where = f"{rule_id} ({speech.language})"
    if not speech.games_words and heard.verbs - set(speech.prompts):
        problems.append(f"{where}: no words for the prompts {sorted(heard.verbs - set(speech.prompts))}: {said!r}")
    low, high = len(words.split()) * SECONDS_PER_WORD[0], len(words.split()) * SECONDS_PER_WORD[1] + 1.0
    stat = sox_stat(wav)
    if stat.rms < 0.01 or stat.peak < 0.05:
        problems.append(f"{where}: the WAV is silent (RMS {stat.rms}, peak {stat.peak}): {words!r}")
    if not low <= stat.seconds <= high:
        problems.append(f"{where}: {stat.seconds:.2f} s is not {low:.2f}-{high:.2f} s for {words!r}")
    for hidden in hidden_values(case.move):
        for name in {hidden, speakable(hidden), speakable(hidden, speech)}:
            if re.search(rf"\b{re.escape(name)}\b", f"{words} {said}", re.I):
                problems.append(f"{where}: the words name the hidden card {hidden!r}: {words!r} / {said!r}")
    return problems
