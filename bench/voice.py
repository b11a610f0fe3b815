"""Verdict -> audio start: how long from the referee's verdict to the sound at the Pi (issue 25).

The real Session (Escape Master, a log on disk) judges ben's plays on pile 1's 7, refused in turn
with three different rulings; the table's audio (companion/app/voice.py: the public row, the
table's voice, the announcer's thread) plays each through ALSA's aplay to its ``null`` device (no
sound card here; on a Pi, ``default`` adds the card's own opening time). Moments per verdict:

- verdict: the session's listener is told of the row (written durably, published to the screens);
- tone: the player process for the verdict's tone has been started;
- words: the player process for its spoken words has been started (espeak-ng made the WAV the first
  time a ruling was said; after that it is kept).

And espeak-ng alone, cold: each rule's refusal of every game (tests/app/test_spoken_rulings.py's
words) made to a WAV file once.

    .venv/bin/python bench/voice.py [--count 200] [--json]

Each verdict waits for its words before the next: this is latency, not throughput.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from companion.app.feedback_config import FeedbackConfig
from companion.app.voice import TableAudio
from companion.core import Header, Observation, ObservationKind
from companion.games import get_game
from companion.log.store import GameLog
from companion.referee.session import Session
from hardware.audio import Voice

HANDS = {
    "anna": ["start-1", "teen-8", "teen-9", "robot-10", "joe-J", "teen-3", "teen-4", "trap-up-1", "escape-1", "wisdom-1"],
    "ben": ["start-2", "robot-6", "robot-5", "mouse-8", "robot-8", "doom-K", "joe-2", "escape-discard-1", "dead-end", "ninja-Q"],
}
REFUSED = ("robot-5", "joe-2", "start-2")
"""ben's cards that pile 1's 7 refuses, each with its own ruling."""


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q / 100 * (len(ordered) - 1))))]


def move(payload: dict[str, Any]) -> Observation:
    return Observation("bench", time.time(), ObservationKind.MOVE, payload)


def session_figures(count: int) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="bench-voice-"))
    session = Session(get_game("escape-master"), GameLog(folder / "game.sqlite"),
                      Header("escape-master", ("anna", "ben"), {}, {"dealer": "anna", "hands": HANDS}))
    verdicts: dict[int, float] = {}
    told = threading.Lock()

    def stamp(rows: Any, board: Any) -> None:
        now = time.monotonic()
        with told:
            for row in rows:
                verdicts[row.seq] = now

    session.subscribe(stamp)  # before the audio: told first, as any screen is
    session.start()
    audio = TableAudio.from_config(FeedbackConfig(tones=True, speech=True, audio_device="null"))
    announcer = audio.announcer
    if announcer.out is None or announcer.voice is None:
        raise SystemExit("no aplay or no espeak-ng here: make audio installs them")
    audio.attach(session)
    tones: list[float] = []
    words: list[float] = []
    try:
        session.submit(move({"by": "anna", "do": "start"})).result(10)
        session.submit(move({"by": "anna", "do": "play", "card": "start-1", "pile": "new"})).result(10)
        for i in range(count):
            row = session.submit(move({"by": "ben", "do": "play", "card": REFUSED[i % len(REFUSED)], "pile": 1})).result(10)
            deadline = time.monotonic() + 20
            while not any(s.ruling.seq == row.seq and s.what == "speech" for s in list(announcer.started)):
                if time.monotonic() > deadline:
                    raise SystemExit(f"row {row.seq} was never said")
                time.sleep(0.0005)
            started = {s.what: s.at for s in list(announcer.started) if s.ruling.seq == row.seq}
            tones.append((started["tone"] - verdicts[row.seq]) * 1000)
            words.append((started["speech"] - verdicts[row.seq]) * 1000)
    finally:
        audio.stop()
        session.stop()
    return {
        "verdicts": count,
        "player": " ".join(announcer.out.argv),
        "tone_p50_ms": percentile(tones, 50),
        "tone_p99_ms": percentile(tones, 99),
        "words_p50_ms": percentile(words, 50),
        "words_p99_ms": percentile(words, 99),
        "words_first_ms": [round(w, 1) for w in words[: len(REFUSED)]],
    }


def cold_synthesis(texts: list[str]) -> dict[str, Any]:
    voice = Voice("en", 80)
    folder = Path(tempfile.mkdtemp(prefix="bench-espeak-"))
    took: list[float] = []
    for n, text in enumerate(texts):
        start = time.monotonic()
        voice.to_wav(text, folder / f"{n}.wav")
        took.append((time.monotonic() - start) * 1000)
    return {"texts": len(texts), "espeak_p50_ms": percentile(took, 50), "espeak_p99_ms": percentile(took, 99)}


def refusal_texts() -> list[str]:
    """Each refusing rule's words, as the test of every rule id makes them (the rule cases)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from tests.app.test_spoken_rulings import heard_after, rule_cases  # the same cases and the same path

    folder = Path(tempfile.mkdtemp(prefix="bench-rulings-"))
    texts: list[str] = []
    for game_id, _, case in rule_cases():
        if case.expect == "illegal":
            rulings, _ = heard_after(game_id, case, folder)
            texts.extend(r.text for r in rulings if r.text)
    return texts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=200, help="verdicts (refusals, three rulings in turn), default 200")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    figures = {**session_figures(args.count), **cold_synthesis(refusal_texts())}
    if args.json:
        print(json.dumps(figures))
        return 0
    print(f"verdict -> audio start over {figures['verdicts']} verdicts (real Session, the announcer's thread, {figures['player']}):")
    print(f"  tone started        p50 {figures['tone_p50_ms']:7.2f} ms   p99 {figures['tone_p99_ms']:7.2f} ms")
    print(f"  words started       p50 {figures['words_p50_ms']:7.2f} ms   p99 {figures['words_p99_ms']:7.2f} ms"
          f"   (first time each ruling was said, espeak-ng included: {figures['words_first_ms']} ms)")
    print(f"espeak-ng alone, cold, over the {figures['texts']} refusals of every game's rule cases:"
          f"  p50 {figures['espeak_p50_ms']:.1f} ms   p99 {figures['espeak_p99_ms']:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
