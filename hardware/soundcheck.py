"""``companion hw sound``: play each of the referee's tones and one spoken ruling, naming each first,
so a person at the table hears the speaker, sets the mixer, and picks ``[feedback] audio_device``
and ``volume`` (docs/hardware.md, "Sound")."""

from __future__ import annotations

import time
from collections.abc import Callable

from companion.core.rulings import Ruling, Tone
from hardware.audio import Announcer, Voice, find_audio_out
from hardware.health import HealthBoard

SAID = "Table Companion sound check. Pile 2: a 9 cannot go on a 7."
WAIT_S = 30.0


def sound_check(device: str, volume: int, language: str, say: Callable[[str], object] = print, said: str = SAID) -> int:
    """0 when every tone and the words (``said``, in ``language``) were played through ``device``;
    1 (and why) when they cannot be."""
    out, why = find_audio_out(device)
    if out is None:
        say(f"no audio device: {why}")
        return 1
    voice = Voice(language, volume)
    missing = voice.missing()
    if missing:
        say(f"{missing}: the tones only")
    board = HealthBoard()
    announcer = Announcer(out, None if missing else voice, tones=True, volume=volume, health=board).start()
    try:
        say(f"playing through {' '.join(out.argv)} at volume {volume}:")
        rulings = [Ruling(tone, "", n + 1) for n, tone in enumerate(Tone)]
        if not missing:
            rulings.append(Ruling(Tone.ILLEGAL, said, len(rulings) + 1))
        for ruling in rulings:
            say(f"  {ruling.tone.value}" + (f' then "{ruling.text}"' if ruling.text else ""))
            announcer.say(ruling)
            deadline = time.monotonic() + WAIT_S
            while board.status("audio").get("said", 0) + board.status("audio").get("failed", 0) < ruling.seq:
                if time.monotonic() > deadline or not announcer.alive:
                    say("the player did not finish: " + str(board.status("audio").get("detail", "")))
                    return 1
                time.sleep(0.05)
                board.flush()
        failed = board.status("audio").get("failed", 0)
        if failed:
            say(f"{failed} sound(s) failed to play (the journal has the player's message)")
            return 1
        say("done: if you heard nothing, check the speaker's power and the mixer (alsamixer), or name the card with --device")
        return 0
    finally:
        announcer.stop()
