"""Every rule id of every game, spoken (issue 25's done-when): each rule's case is played through a
real Session (a log on disk), the row it makes is read in its public form by the table's voice, and
what the table hears is made to a WAV file by espeak-ng, the same :class:`hardware.audio.Voice` the
service speaks with. sox checks each file (``sox F -n stat``): not silent, and as long as its words
take to say; and the words never name a card the verdict's public form hides.

A rule that refuses is heard as its refusal ("Pile 1: a 5 cannot go on a 7 ..."). A rule that only
says what happens (scoring, the end of a round) is heard after its case's move: what the voice says
then (a prompt for who is next, the game's end), or the legal move's tone when it says nothing.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from companion.core import Observation, ObservationKind
from companion.core.rulings import Ruling, Tone
from companion.games import game_ids, get_game
from companion.log.public import hidden_values
from companion.log.store import GameLog
from companion.referee.session import Session
from companion.table.voice import Heard, TableVoice, speakable
from hardware.audio import Voice
from hardware.tones import duration_s, write_tone
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


def heard_after(game_id: str, case: RuleCase, folder: Path) -> tuple[list[Ruling], dict[str, Any]]:
    """What the table hears after the case's move, through a real Session, and that row's public form."""
    game = get_game(game_id)
    session = Session(game, GameLog(folder / f"{game_id}-{case.line}.sqlite"), case.header)
    voice = TableVoice()
    voice.update([], session.board())

    def observe(n: int, move: Any) -> Observation:  # moves a minute apart: none races another to a pile
        return Observation("test", 60.0 * n, ObservationKind.MOVE, game.codec.to_json(move))

    try:
        if case.moves:
            session.process_many([observe(n, m) for n, m in enumerate(case.moves)])
            voice.update([], session.board())
        row = session.process(observe(len(case.moves), case.move))
        public = session.public_row(row)
        said = voice.update([Heard(public)], session.board())
    finally:
        session.log.close()
    return [s for s in said if isinstance(s, Ruling)], public


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
def test_every_rule_id_is_spoken_to_a_wav_that_sox_finds_sound_and_private_free(game_id: str, tmp_path: Path) -> None:
    voice = Voice("en", volume=80)
    assert voice.missing() == ""
    problems: list[str] = []
    spoken = 0
    for _, rule_id, case in (c for c in rule_cases() if c[0] == game_id):
        rulings, public = heard_after(game_id, case, tmp_path)
        refusal = case.expect == "illegal"
        if refusal:
            verdict = public["verdict"]
            assert verdict["ok"] is False and rule_id in verdict["rules"], f"{rule_id}: the session did not refuse it citing it"
            rulings = [r for r in rulings if r.tone is Tone.ILLEGAL]
            assert rulings and rulings[0].text, f"{rule_id}: no spoken refusal"
        words = " ".join(r.text for r in rulings if r.text)
        wav = tmp_path / f"{rule_id}.wav"
        if words:
            voice.to_wav(words, wav)
            low, high = len(words.split()) * SECONDS_PER_WORD[0], len(words.split()) * SECONDS_PER_WORD[1] + 1.0
            spoken += 1
        else:  # an effect the voice has nothing to say of: the table hears the legal tone
            write_tone(Tone.LEGAL, wav, 0.8)
            low, high = duration_s(Tone.LEGAL) * 0.9, duration_s(Tone.LEGAL) * 1.1
        stat = sox_stat(wav)
        if stat.rms < 0.01 or stat.peak < 0.05:
            problems.append(f"{rule_id}: {wav.name} is silent (RMS {stat.rms}, peak {stat.peak}): {words!r}")
        if not low <= stat.seconds <= high:
            problems.append(f"{rule_id}: {stat.seconds:.2f} s is not {low:.2f}-{high:.2f} s for {words!r}")
        for hidden in hidden_values(case.move):
            for name in {hidden, speakable(hidden)}:
                if re.search(rf"\b{re.escape(name)}\b", words, re.I):
                    problems.append(f"{rule_id}: the words name the hidden card {hidden!r}: {words!r}")
    assert not problems, "\n".join(problems)
    refusing = sum(1 for rule in get_game(game_id).rules.values() if rule.refuses)
    assert spoken >= refusing  # every refusal is spoken, not only toned
