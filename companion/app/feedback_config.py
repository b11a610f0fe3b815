"""``[feedback]``: how the referee is seen and heard at the table (issue 25), read from the table config.

    [feedback]
    lights = true        # an LED at each zone read by a reader array
    tones = true         # a short tone per kind of verdict, from the Pi's audio out
    speech = true        # spoken rulings (espeak-ng), made only from what anyone may see
    quiet = false        # start in quiet mode: nothing is played until the referee turns it off
    volume = 80          # 0-100
    language = "en"      # an espeak-ng voice with spoken texts: en, en-us, de (companion/table/speech/)
    audio_device = "default"   # or an ALSA device, such as "plughw:1,0" for a USB sound card

A bad value is one :class:`ConfigError` naming its key.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.core.errors import ConfigError
from companion.table.speech import catalogue_language

LANGUAGE = re.compile(r"^[a-z]{2,3}(-[a-z0-9]{1,8})*$")
"""An espeak-ng voice name as ``espeak-ng --voices`` lists them: ``en``, ``en-us``, ``de``, ``pt-br``."""
AUDIO_DEVICE = re.compile(r"^[A-Za-z0-9_:,.=-]{1,64}$")
"""An ALSA device name (``default``, ``plughw:1,0``, ``null``): no spaces, nothing a shell would read."""
KEYS = {"lights", "tones", "speech", "quiet", "volume", "language", "audio_device"}


@dataclass(frozen=True)
class FeedbackConfig:
    """``[feedback]``: how the referee is seen and heard at the table (issue 25)."""

    lights: bool = False
    """An LED at each zone whose reader is on a reader array (firmware tc-array-2.3, docs/hardware.md
    "Lights"); off: no light frames are sent, and the service says so once."""
    tones: bool = False
    """A short, distinct tone for each kind of verdict (legal, illegal, alert, waiting) at the Pi."""
    speech: bool = False
    """Spoken rulings ("Pile 2: a 9 cannot go on a 7"), made offline by espeak-ng from the verdict's
    public form: nothing private is ever spoken."""
    quiet: bool = False
    """Start in quiet mode: the tones and words are decided but not played, until it is turned off."""
    volume: int = 80
    """0-100: the tones' loudness and espeak-ng's amplitude (100 is espeak-ng's own default)."""
    language: str = "en"
    """The espeak-ng voice the rulings are spoken in, and the catalogue of spoken texts they are said
    from (``en-us`` speaks the ``en`` texts; :mod:`companion.table.speech`)."""
    audio_device: str = "default"
    """Where sound goes: the default device (PulseAudio, else ALSA's first card), or an ALSA device."""

    @property
    def audio(self) -> bool:
        """Is anything played at the Pi?"""
        return self.tones or self.speech


def _flag(table: Mapping[str, Any], key: str) -> bool:
    value = table.get(key, False)
    if not isinstance(value, bool):
        raise ConfigError(f"feedback.{key}: must be true or false, not {value!r}")
    return value


def parse_feedback(table: Mapping[str, Any]) -> FeedbackConfig:
    for key in table:
        if key not in KEYS:
            raise ConfigError(f"feedback.{key}: unknown key (known: {', '.join(sorted(KEYS))})")
    volume = table.get("volume", FeedbackConfig.volume)
    if isinstance(volume, bool) or not isinstance(volume, int) or not 0 <= volume <= 100:
        raise ConfigError(f"feedback.volume: must be a whole number from 0 to 100, not {volume!r}")
    language = table.get("language", FeedbackConfig.language)
    if not isinstance(language, str) or not LANGUAGE.match(language):
        raise ConfigError(f"feedback.language: must be an espeak-ng voice such as \"en\", \"en-us\" or \"de\", not {language!r}")
    catalogue_language(language)  # a language the referee has no words in is said here, once
    device = table.get("audio_device", FeedbackConfig.audio_device)
    if not isinstance(device, str) or not AUDIO_DEVICE.match(device):
        raise ConfigError(f"feedback.audio_device: must be \"default\" or an ALSA device such as \"plughw:1,0\", not {device!r}")
    return FeedbackConfig(
        lights=_flag(table, "lights"),
        tones=_flag(table, "tones"),
        speech=_flag(table, "speech"),
        quiet=_flag(table, "quiet"),
        volume=volume,
        language=language,
        audio_device=device,
    )
