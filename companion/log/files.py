"""What ``companion serve`` does with the log file before a session opens it.

- A log whose chain does not hold is refused, naming the first bad row. Told to continue, the
  broken file is kept under a new name (``<stem>-broken-<time><suffix>``) and a new log starts at
  the configured path: its header row names the old file, its last good row and that row's hash,
  and the good rows are copied after it, so the game resumes from the last good row and the new
  file stands on its own.
- A log whose header disagrees with the config's ``[game]`` is never resumed silently: the caller
  is asked (``choose``), and a new game moves the old log aside (``<stem>-<time><suffix>``) instead
  of deleting it.

Every log of a table shares its folder's chain key, so a log moved aside still verifies where it is.
"""

from __future__ import annotations

import enum
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from companion.core import Header, JsonObject, JsonValue, canonical_json
from companion.core.errors import LogError, LogIntegrityError
from companion.log.store import CONTINUES, GENESIS, HEADER_KIND, GameLog, NewRow, fingerprint
from companion.log.private_file import write_private

log = logging.getLogger(__name__)


class Choice(str, enum.Enum):
    """What to do with a log whose header disagrees with the config."""

    RESUME = "resume"  # carry on with the game in the log (its header wins)
    NEW_GAME = "new-game"  # keep the old log under a new name and start the config's game
    QUIT = "quit"


class Declined(LogError):
    """The person starting the service chose to quit rather than resume or start a game."""


@dataclass
class Opened:
    """The log ready for a session, and what was done to get it."""

    log: GameLog
    archived: Path | None = None
    """Where the previous log went (a new game or a broken log), if it was moved aside."""
    continued: JsonObject | None = None
    """For a continued broken log: ``{"file", "seq", "hash"}`` of the old log's last good row."""
    differences: tuple[str, ...] = ()
    """How the resumed log's header differs from the config's (empty when they agree)."""


def aside_name(path: Path, tag: str = "") -> Path:
    """A free name beside ``path`` for an old log: ``game-20261124T061200Z.sqlite`` (``-broken-`` if tagged)."""
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    middle = f"-{tag}-{stamp}" if tag else f"-{stamp}"
    candidate = path.with_name(f"{path.stem}{middle}{path.suffix}")
    n = 2
    while candidate.exists():
        candidate = path.with_name(f"{path.stem}{middle}-{n}{path.suffix}")
        n += 1
    return candidate


def move_aside(path: Path, tag: str = "") -> Path:
    """Rename a closed log (and any WAL/SHM file SQLite left) to a free name beside it; never deletes."""
    target = aside_name(path, tag)
    for extra in ("-wal", "-shm"):
        side = path.with_name(path.name + extra)
        if side.exists():
            side.rename(target.with_name(target.name + extra))
    path.rename(target)
    log.info("moved %s aside to %s", path, target)
    return target


def _short(value: JsonValue) -> str:
    text = canonical_json(value)
    return text if len(text) <= 60 else text[:57] + "..."


def header_differences(stored: Header, wanted: Header) -> list[str]:
    """What differs between the log's header and the config's, one phrase per key."""
    out: list[str] = []
    a, b = stored.to_json(), wanted.to_json()
    for key in ("game", "players"):
        if a[key] != b[key]:
            out.append(f"{key}: {_short(a[key])} in the log, {_short(b[key])} in the config")
    for section in ("options", "setup"):
        left, right = a[section], b[section]
        assert isinstance(left, dict) and isinstance(right, dict)
        for key in sorted(set(left) | set(right)):
            if left.get(key) != right.get(key):
                was = _short(left[key]) if key in left else "(not set)"
                now = _short(right[key]) if key in right else "(not set)"
                out.append(f"{section}.{key}: {was} in the log, {now} in the config")
    return out


def mismatch_message(path: Path, differences: list[str]) -> str:
    return (
        f"{path} holds a game whose header differs from the config's [game] ({'; '.join(differences)}). "
        "Resume that game (serve --resume), or start the config's game in a new log file "
        f"(serve --new-game; the old log is kept as {aside_name(path).name})"
    )


def broken_message(path: Path, exc: LogIntegrityError) -> str:
    good = exc.seq - 1
    return (
        f"{path}: the log is broken at row {exc.seq} ({exc}); it will not be resumed. "
        f"To carry on from row {good}, its last good row, in a new log linked to it: serve --continue-broken"
    )


def open_for_serving(
    path: Path,
    wanted: Header,
    choose: Callable[[list[str]], Choice] | None = None,
    new_game: bool = False,
    continue_broken: bool = False,
) -> Opened:
    """Open the configured log for ``serve``: verified, continued if broken and asked to, and with the
    header question settled. ``choose`` answers a header mismatch; with none, a mismatch is a LogError."""
    if new_game and path.exists():
        archived = move_aside(path)
        return Opened(GameLog(path), archived=archived)
    game_log = GameLog(path)
    opened = Opened(game_log)
    if game_log.last_seq:
        try:
            game_log.verify()
        except LogIntegrityError as exc:
            if not continue_broken:
                game_log.close()
                raise LogError(broken_message(path, exc)) from exc
            opened = _continue(game_log, exc, wanted)
            game_log = opened.log
    stored = game_log.header()
    if stored is None:
        return opened
    differences = header_differences(stored, wanted)
    if not differences or console_game(path) == stored.to_json():
        return opened  # the config's game, or the one the referee's console started here
    if choose is None:
        game_log.close()
        raise LogError(mismatch_message(path, differences))
    choice = choose(differences)
    if choice is Choice.RESUME:
        opened.differences = tuple(differences)
        return opened
    game_log.close()
    if choice is Choice.QUIT:
        raise Declined(f"{path}: left as it was")
    archived = move_aside(path)
    return Opened(GameLog(path), archived=archived, continued=None)


def _continue(broken: GameLog, exc: LogIntegrityError, wanted: Header) -> Opened:
    """Keep the broken log aside and start a new one from its good rows, linked to the last of them."""
    path = broken.path
    good = exc.seq - 1
    kept = list(broken.rows(limit=good)) if good > 0 else []
    last_hash = kept[-1].hash if kept else GENESIS
    if kept and kept[0].kind == HEADER_KIND:
        header_json: JsonObject = {k: v for k, v in kept[0].payload.items() if k != CONTINUES}
        carried = kept[1:]
    else:  # not even the header held: the config's game starts afresh, still linked to the old file
        header_json = wanted.to_json()
        carried = []
    broken.close()
    archived = move_aside(path, "broken")
    link: JsonObject = {"file": archived.name, "seq": good, "hash": last_hash}
    now_wall, now_mono = time.time(), time.monotonic()
    rows = [NewRow(HEADER_KIND, "session", None, now_wall, now_mono, {**header_json, CONTINUES: link})]
    rows += [
        NewRow(r.kind, r.source, r.table_time, r.wall_time, r.mono_time, r.payload, r.move, r.verdict, r.alert, r.error)
        for r in carried
    ]
    fresh = GameLog(path)
    fresh.append_many(rows)
    log.warning(
        "%s was broken at row %d; kept as %s; a new log carries on from row %d (%s)",
        path, exc.seq, archived, good, fingerprint(last_hash),
    )
    return Opened(fresh, archived=archived, continued=link)


def console_marker(path: Path) -> Path:
    """Beside the log: the header of the game the referee's console started in it."""
    return path.with_name(path.name + ".console-game.json")


def remember_console_game(path: Path, header: Header) -> None:
    """Say that the log at ``path`` holds a game the console started, so that a restart resumes it
    without asking whether to keep a game the config does not name."""
    write_private(console_marker(path), json.dumps(header.to_json()).encode("utf-8"))


def console_game(path: Path) -> JsonObject | None:
    """The header the console last started in the log at ``path``, if it did."""
    try:
        found = json.loads(console_marker(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        log.warning("%s: unreadable (%s); the config's game is what counts", console_marker(path), exc)
        return None
    return found if isinstance(found, dict) else None
