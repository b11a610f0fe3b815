"""The tag registry: which card each tag UID is stuck to, per game, kept on the Pi.

A tag carries only its UID (anyone with a phone can read a tag, so a tag never spells out its
card); the card it belongs to lives here. The registry refuses anything that would make it
ambiguous: a UID enrolled for two cards, or a second tag for one card
(:class:`~companion.errors.EnrolmentError`). It is one JSON file for all games, written
atomically, so an enrolment acknowledged is an enrolment that survives a power cut::

    {"format": "table-companion/tags", "version": 1,
     "games": {"escape-master": {"0a1b2c3d4e5f60": "red-7", ...}, ...}}
"""

from __future__ import annotations

import json
import logging
import os
import tempfile
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion.core.errors import EnrolmentError
from companion.core.readers import normalize_uid

log = logging.getLogger(__name__)

FORMAT = "table-companion/tags"
VERSION = 1


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise EnrolmentError(f'"{key}" appears twice')
        out[key] = value
    return out


def _read_file(path: Path) -> dict[str, dict[str, str]]:
    """Every game's section of the registry file; an absent file is an empty registry."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise EnrolmentError(f"{path}: cannot read the tag registry ({exc.strerror})") from exc
    try:
        data = json.loads(text, object_pairs_hook=_no_duplicate_keys)
    except (ValueError, EnrolmentError) as exc:
        raise EnrolmentError(f"{path}: the tag registry is not valid ({exc})") from exc
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise EnrolmentError(f'{path}: not a tag registry (no "format": "{FORMAT}")')
    if data.get("version") != VERSION:
        raise EnrolmentError(f"{path}: tag registry version {data.get('version')!r} is not {VERSION}")
    games = data.get("games", {})
    if not isinstance(games, dict):
        raise EnrolmentError(f'{path}: "games" must be an object')
    out: dict[str, dict[str, str]] = {}
    for game, section in games.items():
        if not isinstance(section, dict) or not all(isinstance(v, str) and v for v in section.values()):
            raise EnrolmentError(f'{path}: games["{game}"] must map tag UIDs to card ids')
        out[game] = dict(section)
    return out


class TagRegistry:
    """UID -> card id for one game, persisted in ``path`` (shared with the other games' sections).

    Lookups (:meth:`card_for`) are lock-free and cheap: reader threads call them for every event.
    Enrolments take a lock and replace the maps whole, so a reader never sees half an update.
    """

    def __init__(self, path: str | Path, game: str) -> None:
        self.path = Path(path)
        self.game = game
        self._lock = threading.Lock()
        section = _read_file(self.path).get(game, {})
        by_uid: dict[str, str] = {}
        by_card: dict[str, str] = {}
        for raw_uid, card in section.items():
            try:
                uid = normalize_uid(raw_uid)
            except EnrolmentError as exc:
                raise EnrolmentError(f'{self.path}: games["{game}"]: {exc}') from None
            if uid in by_uid:
                raise EnrolmentError(f'{self.path}: games["{game}"]: tag {uid} is enrolled twice')
            if card in by_card:
                raise EnrolmentError(f'{self.path}: games["{game}"]: card "{card}" has two tags ({by_card[card]} and {uid})')
            by_uid[uid] = card
            by_card[card] = uid
        self._by_uid = by_uid
        self._by_card = by_card

    def card_for(self, uid: str) -> str | None:
        """The card this tag is stuck to, or None for a tag no one enrolled."""
        return self._by_uid.get(uid)

    def uid_for(self, card: str) -> str | None:
        return self._by_card.get(card)

    def cards(self) -> Mapping[str, str]:
        """A snapshot: card id -> UID."""
        return dict(self._by_card)

    def __len__(self) -> int:
        return len(self._by_uid)

    def __contains__(self, uid: object) -> bool:
        return uid in self._by_uid

    def enrol(self, uid: str, card: str) -> bool:
        """Record that tag ``uid`` is stuck to ``card``, durably. False if it already was.

        Raises :class:`EnrolmentError` if the tag is already another card's or the card already
        has another tag (forget the card first to replace a damaged tag).
        """
        uid = normalize_uid(uid)
        if not card or card != card.strip():
            raise EnrolmentError(f'"{card}" is not a card id')
        with self._lock:
            held = self._by_uid.get(uid)
            if held == card:
                return False
            if held is not None:
                raise EnrolmentError(f'tag {uid} is already enrolled as "{held}"; it cannot also be "{card}"')
            other = self._by_card.get(card)
            if other is not None:
                raise EnrolmentError(f'card "{card}" already has tag {other}; forget it first to give it tag {uid}')
            by_uid = dict(self._by_uid)
            by_card = dict(self._by_card)
            by_uid[uid] = card
            by_card[card] = uid
            self._save(by_uid)
            self._by_uid, self._by_card = by_uid, by_card
        log.info("%s: enrolled tag %s as %s", self.game, uid, card)
        return True

    def forget(self, card: str) -> str | None:
        """Remove ``card``'s tag (a damaged sticker); returns the UID it had, if any."""
        with self._lock:
            uid = self._by_card.get(card)
            if uid is None:
                return None
            by_uid = {u: c for u, c in self._by_uid.items() if u != uid}
            self._save(by_uid)
            self._by_uid = by_uid
            self._by_card = {c: u for u, c in by_uid.items()}
        log.info("%s: forgot tag %s of %s", self.game, uid, card)
        return uid

    def _save(self, by_uid: Mapping[str, str]) -> None:
        """Write this game's section, keeping the others, atomically (temp file, fsync, rename)."""
        games = _read_file(self.path)
        games[self.game] = dict(sorted(by_uid.items()))
        data = {"format": FORMAT, "version": VERSION, "games": games}
        directory = self.path.parent
        try:
            directory.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=f".{self.path.name}.", dir=directory)
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as handle:
                    json.dump(data, handle, indent=1, sort_keys=True)
                    handle.write("\n")
                    handle.flush()
                    os.fsync(handle.fileno())
                os.replace(tmp, self.path)
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise
            dir_fd = os.open(directory, os.O_RDONLY)
            try:
                os.fsync(dir_fd)
            finally:
                os.close(dir_fd)
        except OSError as exc:
            raise EnrolmentError(f"{self.path}: cannot write the tag registry ({exc.strerror})") from exc
