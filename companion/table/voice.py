"""What the referee says at the table after each verdict (issue 25): a tone per kind, and the words.

- a legal move: its tone alone;
- an illegal one: its tone, then where and why ("Pile 2: a 9 cannot go on a 7; play 8 or 6, or a
  Wisdom"), read from the verdict's PUBLIC form (:func:`companion.log.public.public_row`: a hidden
  card is "a hidden card" there), so nothing private is ever spoken; in a language the games are
  not written in, the why is the game's text for the rule broken (:mod:`companion.table.speech`),
  which names no card;
- an alert: its tone, then the zone and what is wrong there;
- the game waiting for someone (a new prompt on the board): its tone, then who and what, said
  when its meaning (who is asked, and the verb) is new, not each time its text counts down ("draw
  3 more cards", "draw 2 more ..."); everyone asked the same thing is called at once;
- the end of the game: said once.

A ruling gone stale before it was said is taken back (:class:`~companion.core.rulings.TakeBack`):
an undo or a correction takes back every earlier one; a row read at a zone that is not itself
illegal (the card picked up, a legal card played there) takes back the earlier ones about that
zone. Pure: public rows and the public board in, rulings and take-backs out; the Pi's audio out
(:mod:`hardware.audio`) plays them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.core import ObservationKind
from companion.core.rulings import Ruling, TakeBack, Tone
from companion.table.speech import Speech, load_speech

_TAKE_BACKS = (ObservationKind.UNDO.value, ObservationKind.CORRECTION.value)
_HYPHEN = re.compile(r"(?<=\w)-(?=\w)")
_NAMED_ID = re.compile(r"([A-Z][\w'-]*(?: [A-Z][\w'-]*)*) \(([a-z][\w-]*)\)")  # "Front Door (front-door)"


@dataclass(frozen=True)
class Heard:
    """One log row as the voice reads it: its public form, and the zone it was read at (a zone is a
    place at the table, never a secret: it comes from the row's reader payload, which is not public)."""

    public: Mapping[str, Any]
    zone: str | None = None

    @property
    def seq(self) -> int:
        return int(self.public.get("seq") or 0)


Said = Ruling | TakeBack


def english() -> Speech:
    """The shared English phrases (no game's own texts): what a voice not told its game speaks."""
    return load_speech("en")


def speakable(text: str, speech: Speech | None = None) -> str:
    """``text`` as a voice should read it: card codes as words ("QS" -> "queen of spades"), ids'
    hyphens as pauses ("teen-8" -> "teen 8"), brackets as commas."""
    speech = speech or english()
    text = _NAMED_ID.sub(_name_once, speech.unmasked(text))
    text = speech.card_words(text)
    text = _HYPHEN.sub(" ", text)
    text = text.replace("(s)", "s")  # "8 card(s)"
    text = re.sub(r"\s*\(\s*", ", ", text)
    text = re.sub(r"\s*\)", ",", text)
    text = re.sub(r"(?:,\s*)+([,;:.])", r"\1", text)  # "(a (8))." -> ", a, 8,,." -> ", a, 8."
    return re.sub(r"\s+", " ", text).strip(" ,")


def _name_once(match: re.Match[str]) -> str:
    """A card's display name and its id say it twice ("Key (key-1)"): said once, by its name."""
    name, card = match.group(1), match.group(2)
    if re.sub(r"-\d+$", "", card) == name.lower().replace(" ", "-"):
        return name
    return match.group(0)


def zone_words(zone: str, speech: Speech | None = None) -> str:
    """A zone's name as said at the table: "pile-2" -> "Pile 2", "hand-anna" -> "Anna's hand"."""
    return (speech or english()).zone(zone)


def where(heard: Heard, speech: Speech | None = None) -> str:
    """Who or where a ruling is about: the zone read, else the move's pile, else who made it."""
    speech = speech or english()
    if heard.zone:
        return speech.zone(heard.zone)
    move = heard.public.get("move")
    if isinstance(move, Mapping):
        pile = move.get("pile")
        if isinstance(pile, int) and not isinstance(pile, bool):
            return speech.pile(pile)
        by = move.get("by")
        if isinstance(by, str):
            return by.capitalize()
    return ""


def ruling_text(place: str, *sentences: str, speech: Speech | None = None) -> str:
    """``place: sentence. sentence.``, made speakable; a sentence left empty is left out."""
    said = ". ".join(s.strip().rstrip(".") for s in sentences if s and s.strip())
    if not said:
        return ""
    if place and said.lower().startswith(place.lower()):
        said, place = place + said[len(place):], ""  # "anna has no cards left": the sentence already names who
    end = "" if said.endswith(("!", "?")) else "."  # "call Escape Master!"
    return speakable(f"{place}: {said}{end}" if place else f"{said}{end}", speech)


def refusal(heard: Heard, speech: Speech | None = None) -> Ruling:
    """The spoken ruling on an illegal row: where, and why (the public verdict's sentence, or in a
    language the games are not written in, the catalogue's text for the rule it breaks)."""
    speech = speech or english()
    verdict = heard.public.get("verdict") or {}
    rules = [str(r) for r in verdict.get("rules") or ()]
    why = speech.refusal(rules, str(verdict.get("why") or ""))
    return Ruling(Tone.ILLEGAL, ruling_text(where(heard, speech), why, speech=speech), heard.seq, heard.zone)


class TableVoice:
    """What the table hears, kept up to date by :meth:`update` (prompts and the outcome are said once,
    when they first appear on the board), in ``speech``'s words (English by default)."""

    def __init__(self, speech: Speech | None = None) -> None:
        self.speech = speech or english()
        self._prompts: set[tuple[str | None, str]] = set()
        """What the board waits for, by who and verb: a prompt's meaning, not its text (which counts
        down as cards are drawn or tapped: "draw 3 more cards", "draw 2 more ...")."""
        self._over = False
        self._started = False

    def update(self, rows: Sequence[Heard], board: Mapping[str, Any]) -> list[Said]:
        said: list[Said] = []
        for heard in rows:
            said.extend(self._row(heard))
        said.extend(self._board(board))
        return said

    def _row(self, heard: Heard) -> list[Said]:
        row = heard.public
        if row.get("error") is not None:
            return []  # refused as unreadable: it changed nothing at the table
        out: list[Said] = []
        verdict = row.get("verdict")
        illegal = isinstance(verdict, Mapping) and verdict.get("ok") is False
        if row.get("kind") in _TAKE_BACKS:
            out.append(TakeBack(heard.seq))
        elif heard.zone is not None and not illegal:
            out.append(TakeBack(heard.seq, heard.zone))
        if illegal:
            out.append(refusal(heard, self.speech))
        elif isinstance(verdict, Mapping) and verdict.get("ok") is True:
            out.append(Ruling(Tone.LEGAL, "", heard.seq, heard.zone))
        alert = row.get("alert")
        if isinstance(alert, Mapping):
            zone = alert.get("zone")
            place = self.speech.zone(zone) if isinstance(zone, str) else ""
            what = self.speech.alert(str(alert.get("what") or ""))
            out.append(Ruling(Tone.ALERT, ruling_text(place, what, speech=self.speech), heard.seq,
                              zone if isinstance(zone, str) else None))
        return out

    def _board(self, board: Mapping[str, Any]) -> list[Said]:
        out: list[Said] = []
        prompts: dict[tuple[str | None, str], str] = {}
        for p in board.get("prompts") or ():
            if isinstance(p, Mapping):
                prompts.setdefault((p.get("who"), str(p.get("verb", ""))), str(p.get("text", "")))
        out.extend(self._prompted({k: t for k, t in prompts.items() if k not in self._prompts}))
        self._prompts = set(prompts)
        over = board.get("outcome") is not None
        if over and not self._over and self._started:
            out.append(Ruling(Tone.LEGAL, ruling_text("", *self.speech.over([str(w) for w in board.get("winners") or ()]),
                                                      speech=self.speech)))
        self._over = over
        self._started = True
        return out

    def _prompted(self, new: Mapping[tuple[str | None, str], str]) -> list[Said]:
        """The new prompts, said once for everyone asked the same thing ("Anna, Ben and Cleo: play a
        card face down ..."), as a referee calls to the table rather than to each in turn."""
        asked: dict[tuple[str, str], list[str]] = {}
        for who, verb in sorted(new, key=lambda k: (k[0] or "", k[1])):
            said = self.speech.prompt(verb, new[(who, verb)])
            if isinstance(who, str) and said.lower().startswith(f"{who.lower()}:"):
                said = said[len(who) + 1:].strip()  # "anna: play a card": who is said once, before
            asked.setdefault((verb, said), []).append(who.capitalize() if isinstance(who, str) else "")
        out: list[Said] = []
        for (verb, said), whos in asked.items():
            if len(whos) > 1:
                said = self.speech.prompt(verb, said, many=True)
            out.append(Ruling(Tone.WAITING, ruling_text(self.speech.names([w for w in whos if w]), said, speech=self.speech)))
        return out
