"""The words the referee speaks in, per language (issue 25): a catalogue of spoken texts.

A language is a pair of TOML files:

- the shared phrases, ``companion/table/speech/<language>.toml``: zone and pile names, card names,
  the end of the game, the prompt and alert said when a game has no words of its own for them;
- each game's own, ``companion/games/<package>/voice/<language>.toml`` (``GameSpec.voice``): a text
  for every rule id (``[rules]``), its prompts by verb (``[prompts]``, and ``[prompts_many]`` where
  several asked at once are spoken to otherwise) and its zones' words (``[zones]``). A game's texts stay in its package: no shared file lists the games.

English is the language the games' rulings are written in (``games_words = true``): a refusal says
the verdict's own sentence ("a 9 cannot go on a 7 ...") and a prompt its own text, as they are,
but for a prompt whose text is written for a screen (a game's ``[prompts]`` gives its verb words);
the catalogue's rule text stands in only where a refusal has no sentence. In another language a
refusal says the catalogue's text for the first rule it breaks, which names no card at all, so a
hidden card is never spoken; a prompt says its verb's text and an alert the shared alert phrase.

A language with no shared file is one :class:`ConfigError` naming the languages there are.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from companion.core.errors import ConfigError

SHARED = Path(__file__).resolve().parent / "speech"
"""The shared phrases, one ``<language>.toml`` a language."""
PHRASES = ("not_allowed", "alert", "waiting", "game_over", "wins", "win", "and", "pile", "owned", "hand",
           "hidden_card", "card", "sound_check")
"""The phrases every shared file gives (a test checks each language has them all)."""
_CARD_CODE = re.compile(r"\b(10|[2-9AJQK])([SHDC])\b")  # a standard deck's "QS", "10D" (HM2, The Mountain)


def languages() -> tuple[str, ...]:
    """The languages there is a catalogue for, by their shared files."""
    return tuple(sorted(p.stem for p in SHARED.glob("*.toml")))


def catalogue_language(voice: str) -> str:
    """The catalogue an espeak-ng voice speaks from: ``en-us`` -> ``en``, ``de`` -> ``de``.

    Raises :class:`ConfigError` naming the languages there are when there is none for it."""
    base = voice.split("-", 1)[0]
    if base not in languages():
        raise ConfigError(f"feedback.language: the referee has no spoken texts in {voice!r} "
                          f"(there are: {', '.join(languages())})")
    return base


def _read(path: Path) -> dict[str, object]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not TOML: {exc}") from exc


def _texts(data: Mapping[str, object], table: str, path: Path) -> dict[str, str]:
    """``[table]`` of ``path`` as strings, each one checked."""
    got = data.get(table, {})
    if not isinstance(got, Mapping) or not all(isinstance(v, str) and v.strip() for v in got.values()):
        raise ConfigError(f"{path}: [{table}] must hold texts (key = \"words\"), none empty")
    return {str(k): str(v) for k, v in got.items()}


@dataclass(frozen=True)
class Speech:
    """One language's spoken texts for one game (or for none: the shared phrases alone)."""

    language: str
    games_words: bool
    """The games' own sentences are in this language: a refusal says the verdict's why, a prompt its
    text, an alert its what (English)."""
    phrases: Mapping[str, str]
    rules: Mapping[str, str] = field(default_factory=dict)
    """Rule id -> what the referee says of a move refused citing it (or of the rule's effect)."""
    prompts: Mapping[str, str] = field(default_factory=dict)
    """A prompt's verb -> what the referee says to the one it waits for (in English, only where the
    prompt's own text is written for a screen, such as a die roll's whole conflict)."""
    prompts_many: Mapping[str, str] = field(default_factory=dict)
    """A prompt's verb -> what the referee says to several waited for at once, where the words
    differ from one ("spiel eine Karte" / "spielt eine Karte")."""
    zones: Mapping[str, str] = field(default_factory=dict)
    """A zone's name, or a word of it ("pile", "discard"), -> how it is said."""
    cards: Mapping[str, str] = field(default_factory=dict)
    """A standard deck's ranks (A, J, Q, K) and suits (S, H, D, C) as words."""

    def refusal(self, rules: Sequence[str], why: str) -> str:
        if self.games_words and why:
            return why
        for rule in rules:
            if rule in self.rules:
                return self.rules[rule]
        return self.phrases["not_allowed"]

    def prompt(self, verb: str, text: str, many: bool = False) -> str:
        """What is said of a prompt; ``many``: to several players asked the same at once."""
        if many and verb in self.prompts_many:
            return self.prompts_many[verb]
        if verb in self.prompts:  # in English, where the screen's text is not what a referee says
            return self.prompts[verb]
        return text if self.games_words else self.phrases["waiting"]

    def alert(self, what: str) -> str:
        return what if self.games_words and what else self.phrases["alert"]

    def zone(self, zone: str) -> str:
        """A zone's name as said: "pile-2" -> "Pile 2", "hand-anna" -> "Anna's hand", "action-ben" ->
        "Action ben" (a game's [zones] can name it: "Ben's action pile")."""
        if zone in self.zones:
            return _capital(self.zones[zone])
        parts = zone.split("-")
        if len(parts) == 2 and parts[0] == "hand":
            return self.phrases["hand"].format(name=parts[1].capitalize())
        if len(parts) == 2 and parts[0] in self.zones and not parts[1].isdigit():
            return self.phrases["owned"].format(zone=_capital(self.zones[parts[0]]), name=parts[1].capitalize())
        return _capital(" ".join(self.zones.get(p, p) for p in parts))

    def pile(self, number: int) -> str:
        return self.phrases["pile"].format(n=number)

    def names(self, names: Sequence[str]) -> str:
        """``a``, ``a and b``, ``a, b and c`` ("" for none)."""
        if len(names) < 2:
            return "".join(names)
        return f"{', '.join(names[:-1])} {self.phrases['and']} {names[-1]}"

    def over(self, winners: Sequence[str]) -> tuple[str, str]:
        """The end of the game and who won ("" if nobody did)."""
        names = [w.capitalize() for w in winners]
        if not names:
            return self.phrases["game_over"], ""
        return self.phrases["game_over"], self.phrases["wins" if len(names) == 1 else "win"].format(names=self.names(names))

    def card_words(self, text: str) -> str:
        """A standard deck's codes said as cards: "QS" -> "queen of spades" / "Pik Dame"."""
        def said(m: re.Match[str]) -> str:
            rank, suit = m.group(1), m.group(2)
            return self.phrases["card"].format(rank=self.cards.get(rank, rank), suit=self.cards[suit])
        return _CARD_CODE.sub(said, text)

    def unmasked(self, text: str) -> str:
        """The public form's English mask ("a hidden card") in this language's words."""
        return text.replace("a hidden card", self.phrases["hidden_card"]) if not self.games_words else text


def _capital(words: str) -> str:
    return words[:1].upper() + words[1:]


@lru_cache(maxsize=32)
def load_speech(language: str, game_folder: Path | None = None, voice: str = "voice") -> Speech:
    """The ``language`` catalogue (a catalogue's name, or an espeak-ng voice such as ``en-us``),
    with the game's own texts from ``game_folder/voice/<language>.toml`` when a game is given.

    A game without a file for a language that has shared phrases is a :class:`ConfigError`."""
    base = catalogue_language(language)
    path = SHARED / f"{base}.toml"
    shared = _read(path)
    phrases = _texts(shared, "phrases", path)
    missing = [p for p in PHRASES if p not in phrases]
    if missing:
        raise ConfigError(f"{path}: [phrases] lacks {', '.join(missing)}")
    games_words = shared.get("games_words", False)
    if not isinstance(games_words, bool):
        raise ConfigError(f"{path}: games_words must be true or false")
    zones = _texts(shared, "zones", path)
    rules: dict[str, str] = {}
    prompts: dict[str, str] = {}
    many: dict[str, str] = {}
    if game_folder is not None:
        own = game_folder / voice / f"{base}.toml"
        if not own.is_file():
            raise ConfigError(f"{own}: the game has no spoken texts in {base!r}")
        data = _read(own)
        rules, prompts, many = _texts(data, "rules", own), _texts(data, "prompts", own), _texts(data, "prompts_many", own)
        if many.keys() - prompts.keys():
            raise ConfigError(f"{own}: [prompts_many] has verbs [prompts] lacks: {', '.join(sorted(many.keys() - prompts.keys()))}")
        zones = {**zones, **_texts(data, "zones", own)}
    return Speech(base, games_words, phrases, rules, prompts, many, zones, _texts(shared, "cards", path))
