"""The table config: one TOML file describing the table (game, players, log, web, readers, zones, camera).

Every problem is one :class:`ConfigError` naming the key (``zones[3].kind: "pyle" is not a zone
kind of the configured game (pile, hand_pad, ...)``: a zone's kind is one its game declares).
``companion init`` writes a commented default (:func:`default_config`).
"""

from __future__ import annotations

import logging
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.core import Header, Zone, ZoneKind
from companion.app.feedback_config import FeedbackConfig, parse_feedback
from companion.app.secret_files import read_secret
from companion.core.errors import CompanionError, ConfigError
from companion.contract.game import Game
from companion.core.readers import ARRAY_SCHEME, BUTTON_SCHEME, ArrayChannel, ReaderAddress, check_array_name
from companion.games import game_ids, get_game
from companion.referee.pending import DEFAULT_TIMEOUT_S as DEFAULT_PENDING_TIMEOUT_S
from companion.venue.broker import BrokerConfig

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class WebConfig:
    host: str = "127.0.0.1"
    port: int = 8000
    threads: int = 64
    """Waitress threads: one per open scoreboard stream, plus a few for pages."""
    pin: str = ""
    """The referee PIN; empty means a fresh random eight-digit PIN shown at start-up. A configured
    PIN must not be weak (:func:`weak_pin`)."""
    hosts: tuple[str, ...] = ()
    """Host names (or addresses) phones use besides localhost and the address the service prints:
    any other name in a request's Host header is refused (DNS rebinding)."""


MIN_PIN = 8
"""Shortest configured PIN."""


def weak_pin(pin: str) -> str | None:
    """Why ``pin`` is too easy to guess (too short, one repeated character, a run like 12345678), or None."""
    if len(pin) < MIN_PIN:
        return f"is too short: at least {MIN_PIN} characters (or leave it empty for a random one)"
    if len(set(pin)) < 3:
        return "repeats one or two characters; choose a less guessable PIN (or leave it empty for a random one)"
    steps = {ord(b) - ord(a) for a, b in zip(pin, pin[1:])}
    if steps in ({1}, {-1}):
        return "is a run of consecutive characters; choose a less guessable PIN (or leave it empty for a random one)"
    return None


@dataclass(frozen=True)
class ArrayConfig:
    port: str
    baud: int = 115200


@dataclass(frozen=True)
class CameraConfig:
    source: str = "usb:0"
    players_by_colour: Mapping[str, str] = field(default_factory=dict)
    settings: Mapping[str, Any] = field(default_factory=dict)
    """The rest of ``[camera]``: vision settings (``settle_s``, marker layout, colour ranges; docs/vision.md),
    checked by ``vision.settings.VisionSettings.from_mapping``."""


@dataclass(frozen=True)
class TableConfig:
    """The whole table, as read from the config file."""

    path: Path
    header: Header
    log_path: Path
    web: WebConfig
    zones: tuple[Zone, ...]
    tag_registry: Path
    array: ArrayConfig | None = None
    """``[array]``: the reader array whose channels are ``array:N``."""
    arrays: Mapping[str, ArrayConfig] = field(default_factory=dict)
    """``[arrays.NAME]``: more reader arrays, by name; their channels are ``array:NAME:N``."""
    camera: CameraConfig | None = None
    broker: BrokerConfig | None = None
    """Publishing to a venue broker (companion/venue/publish.py); off unless ``[broker]`` names a host."""
    pending_timeout_s: float = DEFAULT_PENDING_TIMEOUT_S
    """``[referee] pending_timeout_s``: table time a move begun at the table (the first card of two)
    may stay unfinished before the referee raises one alert for it (companion/referee/pending.py)."""
    feedback: FeedbackConfig = FeedbackConfig()

    @property
    def reader_arrays(self) -> dict[str, ArrayConfig]:
        """Every reader array by name: ``""`` for ``[array]``, NAME for ``[arrays.NAME]``."""
        return {**({"": self.array} if self.array is not None else {}), **self.arrays}


_DEFAULT_CONFIG = """\
# Table Companion — the table config. One file describes one table: the game, the players,
# where the log lives, the web page, and which reader or camera region watches each zone.

[game]
# One of: {game_ids}
id = "escape-master"
players = ["anna", "ben", "cleo"]

[game.options]
# Every rulebook variant and every default from rules/GAPS.md is an option; see the game's GAME.md.
# breaking_point = 30

[game.setup]
# The setup in notation (NOTATION.md, the game's GAME.md). Escape Master needs only the first
# dealer: the readers see the deal. Games dealt face up (The Mountain, Horrible Mountain 2) list it.
dealer = "anna"

[log]
# The hash-chained game log (SQLite). The service resumes the game in it after a restart.
path = "table-log.sqlite"

[web]
host = "0.0.0.0"       # every phone on the table's network may watch
port = 8000
threads = 64           # one per open scoreboard stream
pin = ""               # referee PIN; empty = a new random 8-digit PIN shown at start-up (8+ characters)
# pin_file = "pin"     # or the PIN in a file of its own (mode 0600); a config holding a PIN must be 0600
# hosts = ["pi.local"] # names phones use besides localhost and the printed address (others get 421)

[tags]
# UID -> card, per game. Tags carry only their UID; the card names live here, on the Pi.
registry = "tags.json"

# [array]              # the microcontroller reader array on USB serial (firmware/README.md)
# port = "/dev/ttyACM0"
# baud = 115200
# [arrays.east]        # a second array, for more readers than one has: its channels are array:east:N
# port = "/dev/table-array-SERIAL"   # each board by its own name (hardware/99-table-companion.rules)

# [referee]
# pending_timeout_s = 5.0   # a move begun at the table (the first card of two) left unfinished this
#                           # long (table time) becomes one alert naming the zone and the fix

# [feedback]
# lights = true        # an LED at each zone read by an array (firmware tc-array-2.3; docs/hardware.md,
#                      # "Lights"): green blink legal, red held illegal, amber alert, blue pulse "your turn"
# tones = true         # a short tone per kind of verdict from the Pi's audio out (docs/hardware.md, "Sound")
# speech = true        # spoken rulings (espeak-ng), from what anyone may see: a hidden card is never named
# quiet = false        # start quiet: nothing is played until the referee's console turns it off
# volume = 80          # 0-100
# language = "en"      # an espeak-ng voice the referee has words for: en, en-us, de
# audio_device = "default"   # or an ALSA device, such as "plughw:1,0" for a USB sound card

# [camera]             # the overhead camera (docs/vision.md)
# source = "usb:0"     # usb:N, usb:/dev/videoN, picamera2, file:PATH
# settle_s = 1.0       # a change must hold this long before it counts (a hand passing over does not)

# One [[zones]] block per watched place. reader = "array:N" (channel N of the array; array:NAME:N on
# [arrays.NAME]) or an nfcpy path (usb:072f:2200, tty:AMA0:pn532, udp:127.0.0.1:50001); a call
# button wired to an array is reader = "button:N" (button:NAME:N).
# polygon = outline in table mm. depth = how many stacked cards the zone's reader reads, measured
# on the bench (docs/hardware.md, "Pile depth"); unset, an array reader is taken to read 10 (a guess),
# and the table warns when a pile reaches it.
[[zones]]
name = "pile-1"
kind = "pile"
index = 1
reader = "array:0"
# depth = 10

[[zones]]
name = "hand-anna"
kind = "hand_pad"
player = "anna"
reader = "array:1"
"""


def default_config() -> str:
    """The commented default table config (readers on an array, Escape Master's zones)."""
    return _DEFAULT_CONFIG.replace("{game_ids}", ", ".join(game_ids()))


def _get(table: Mapping[str, Any], key: str, where: str, kind: type | tuple[type, ...], default: Any = ...) -> Any:
    if key not in table:
        if default is ...:
            raise ConfigError(f"{where}.{key}: missing")
        return default
    value = table[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,))):
        names = " or ".join(k.__name__ for k in (kind if isinstance(kind, tuple) else (kind,)))
        raise ConfigError(f"{where}.{key}: must be a {names}, not {value!r}")
    return value


def _section(data: Mapping[str, Any], key: str) -> Mapping[str, Any] | None:
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, dict):
        raise ConfigError(f"{key}: must be a table ([{key}])")
    return value


def _check_unknown(table: Mapping[str, Any], where: str, known: set[str]) -> None:
    for key in table:
        if key not in known:
            raise ConfigError(f"{where}.{key}: unknown key (known: {', '.join(sorted(known))})")


def zone_kind(game: Game[Any], kind_text: str, where: str) -> ZoneKind:
    """The kind ``game`` declares by that name; a ConfigError naming the key and the kinds it declares."""
    for kind in game.zone_kinds:
        if kind.name == kind_text:
            return kind
    kinds = ", ".join(k.name for k in game.zone_kinds) or "it reads no zones"
    raise ConfigError(f'{where}.kind: "{kind_text}" is not a zone kind of {game.title} ({kinds})')


def parse_zone(raw: Any, where: str, game: Game[Any]) -> Zone:
    if not isinstance(raw, dict):
        raise ConfigError(f"{where}: must be a table ([[zones]])")
    _check_unknown(raw, where, {"name", "kind", "player", "index", "reader", "polygon", "depth"})
    name = _get(raw, "name", where, str)
    kind = zone_kind(game, _get(raw, "kind", where, str), where)
    if (problem := kind.name_problem(name)) is not None:
        raise ConfigError(f'{where}.name: "{name}": {problem}')
    polygon_raw = _get(raw, "polygon", where, list, [])
    polygon: list[tuple[float, float]] = []
    for i, point in enumerate(polygon_raw):
        if (
            not isinstance(point, list)
            or len(point) != 2
            or not all(isinstance(c, (int, float)) and not isinstance(c, bool) for c in point)
        ):
            raise ConfigError(f"{where}.polygon[{i}]: must be [x, y] in millimetres")
        polygon.append((float(point[0]), float(point[1])))
    if polygon and len(polygon) < 3:
        raise ConfigError(f"{where}.polygon: needs at least 3 points")
    depth = _get(raw, "depth", where, int, None)
    if depth is not None and depth < 1:
        raise ConfigError(f"{where}.depth: must be at least 1 (cards its reader reads in a stack), not {depth}")
    return Zone(
        name=name,
        kind=kind,
        player=_get(raw, "player", where, str, None),
        index=_get(raw, "index", where, int, None),
        reader=_get(raw, "reader", where, str, None),
        polygon=tuple(polygon),
        depth=depth,
    )


def parse_config(data: Mapping[str, Any], path: Path) -> TableConfig:
    _check_unknown(data, "config", {"game", "log", "web", "tags", "array", "arrays", "camera", "zones", "broker", "referee", "feedback"})
    base = path.parent
    game_t = _section(data, "game")
    if game_t is None:
        raise ConfigError("game: missing (a [game] table with id and players)")
    _check_unknown(game_t, "game", {"id", "players", "options", "setup"})
    game_id = _get(game_t, "id", "game", str)
    if game_id not in game_ids():
        raise ConfigError(f'game.id: unknown game "{game_id}" (known: {", ".join(game_ids())})')
    players = _get(game_t, "players", "game", list)
    if not players or not all(isinstance(p, str) and p for p in players) or len(set(players)) != len(players):
        raise ConfigError("game.players: must be a list of distinct player names")
    header = Header(
        game_id, tuple(players), dict(_get(game_t, "options", "game", dict, {})), dict(_get(game_t, "setup", "game", dict, {}))
    )
    log_t = _section(data, "log") or {}
    _check_unknown(log_t, "log", {"path"})
    web = _parse_web(_section(data, "web") or {}, base)
    tags_t = _section(data, "tags") or {}
    _check_unknown(tags_t, "tags", {"registry"})
    array, arrays = _parse_arrays(data)
    camera = None
    if (cam_t := _section(data, "camera")) is not None:
        from vision.settings import VisionSettings  # OpenCV is loaded only for a table with a camera

        VisionSettings.from_mapping(cam_t)  # one ConfigError naming the key, now rather than at start-up
        colours = _get(cam_t, "players_by_colour", "camera", dict, {})
        for colour, player in colours.items():
            if player not in players:
                raise ConfigError(f'camera.players_by_colour.{colour}: "{player}" is not one of game.players')
        camera = CameraConfig(_get(cam_t, "source", "camera", str, "usb:0"), dict(colours), dict(cam_t))
    zones_raw = data.get("zones", [])
    if not isinstance(zones_raw, list):
        raise ConfigError("zones: must be an array of tables ([[zones]])")
    try:
        game = get_game(game_id)
    except CompanionError as exc:
        raise ConfigError(f"game.id: {exc}") from exc
    zones = tuple(parse_zone(z, f"zones[{i}]", game) for i, z in enumerate(zones_raw))
    seen: set[str] = set()
    readers: dict[str, str] = {}
    for i, zone in enumerate(zones):
        if zone.name in seen:
            raise ConfigError(f'zones[{i}].name: "{zone.name}" is used twice')
        seen.add(zone.name)
        if zone.player is not None and zone.player not in players:
            raise ConfigError(f'zones[{i}].player: "{zone.player}" is not one of game.players')
        if zone.reader is not None:
            _check_reader(zone.reader, f"zones[{i}].reader")
            if zone.reader in readers:
                raise ConfigError(f'zones[{i}].reader: "{zone.reader}" already watches zone "{readers[zone.reader]}"')
            readers[zone.reader] = zone.name
    try:
        # The setup is checked whenever it is given; `companion serve` also needs it when it is not
        # (TableService says so), while `companion enroll` does not care how the cards were dealt.
        get_game(game_id).new_state(header) if header.setup else get_game(game_id).parse_options(header.options)
    except CompanionError as exc:
        raise ConfigError(f"game: {exc}") from exc
    return TableConfig(
        path=path,
        header=header,
        log_path=base / _get(log_t, "path", "log", str, "table-log.sqlite"),
        web=web,
        zones=zones,
        tag_registry=base / _get(tags_t, "registry", "tags", str, "tags.json"),
        array=array,
        arrays=arrays,
        camera=camera,
        broker=_parse_broker(_section(data, "broker"), base),
        pending_timeout_s=_parse_referee(_section(data, "referee") or {}),
        feedback=parse_feedback(_section(data, "feedback") or {}),
    )


def _parse_referee(referee_t: Mapping[str, Any]) -> float:
    _check_unknown(referee_t, "referee", {"pending_timeout_s"})
    timeout = _get(referee_t, "pending_timeout_s", "referee", (int, float), DEFAULT_PENDING_TIMEOUT_S)
    if not 0 < timeout <= 600:
        raise ConfigError(f"referee.pending_timeout_s: {timeout} must be above 0 and at most 600 seconds")
    return float(timeout)


def _parse_array(array_t: Mapping[str, Any], where: str) -> ArrayConfig:
    _check_unknown(array_t, where, {"port", "baud"})
    return ArrayConfig(_get(array_t, "port", where, str), _get(array_t, "baud", where, int, 115200))


def _parse_arrays(data: Mapping[str, Any]) -> tuple[ArrayConfig | None, dict[str, ArrayConfig]]:
    """``[array]`` (channels ``array:N``) and ``[arrays.NAME]`` (channels ``array:NAME:N``)."""
    array_t = _section(data, "array")
    array = _parse_array(array_t, "array") if array_t is not None else None
    arrays: dict[str, ArrayConfig] = {}
    for name, table in (_section(data, "arrays") or {}).items():
        where = f"arrays.{name}"
        try:
            check_array_name(name)
        except ConfigError as exc:
            raise ConfigError(f"{where}: {exc}") from None
        if not isinstance(table, dict):
            raise ConfigError(f"{where}: must be a table ([{where}] with a port)")
        arrays[name] = _parse_array(table, where)
    return array, arrays


def _check_reader(text: str, where: str) -> None:
    """A reader address as the core reads it; which kinds of reader exist, hardware's factory says at start-up."""
    try:
        address = ReaderAddress.parse(text)
        if address.scheme in (ARRAY_SCHEME, BUTTON_SCHEME):
            ArrayChannel.parse(address)
    except ConfigError as exc:
        raise ConfigError(f"{where}: {exc}") from None


def _secret(table: Mapping[str, Any], where: str, key: str, base: Path) -> tuple[str, str]:
    """A secret given inline (``key``) or in a 0600 file (``key_file``, relative to the config's
    folder); returns it and the config key it came from."""
    inline = _get(table, key, where, str, "")
    named = _get(table, f"{key}_file", where, str, "")
    if inline and named:
        raise ConfigError(f"{where}.{key}_file: give the {key} in {key} or in {key}_file, not both")
    if named:
        return read_secret(base / named, f"{where}.{key}_file"), f"{where}.{key}_file"
    return inline, f"{where}.{key}"


def _parse_web(web_t: Mapping[str, Any], base: Path) -> WebConfig:
    _check_unknown(web_t, "web", {"host", "port", "threads", "pin", "pin_file", "hosts"})
    port = _get(web_t, "port", "web", int, 8000)
    if not 0 <= port <= 65535:
        raise ConfigError(f"web.port: {port} is not a TCP port")
    threads = _get(web_t, "threads", "web", int, 64)
    if not 4 <= threads <= 1024:
        raise ConfigError(f"web.threads: {threads} must be between 4 and 1024")
    pin, where = _secret(web_t, "web", "pin", base)
    if pin and (problem := weak_pin(pin)) is not None:
        raise ConfigError(f"{where}: the PIN {problem}")
    hosts = _get(web_t, "hosts", "web", list, [])
    if not all(isinstance(h, str) and h and len(h) <= 253 for h in hosts):
        raise ConfigError("web.hosts: must be a list of host names or addresses")
    return WebConfig(_get(web_t, "host", "web", str, "127.0.0.1"), port, threads, pin, tuple(hosts))


def _parse_broker(broker_t: Mapping[str, Any] | None, base: Path) -> BrokerConfig | None:
    if broker_t is None:
        return None
    _check_unknown(broker_t, "broker", {"host", "port", "venue", "table", "username", "password", "password_file", "ca_file"})
    host = _get(broker_t, "host", "broker", str)
    port = _get(broker_t, "port", "broker", int, 8883)
    if not 0 < port <= 65535:
        raise ConfigError(f"broker.port: {port} is not a port number (1-65535)")
    names = {}
    for key in ("venue", "table"):
        value = _get(broker_t, key, "broker", str, key)
        if not value or any(ch in value for ch in "/+#"):
            raise ConfigError(f'broker.{key}: "{value}" must be a non-empty name without "/", "+" or "#"')
        names[key] = value
    return BrokerConfig(
        host=host,
        port=port,
        venue=names["venue"],
        table=names["table"],
        username=_get(broker_t, "username", "broker", str, ""),
        password=_secret(broker_t, "broker", "password", base)[0],
        ca_file=_get(broker_t, "ca_file", "broker", str, ""),
    )


def load_config(path: str | Path) -> TableConfig:
    """Read and check a table config file; one :class:`ConfigError` naming the key on any problem."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"{p}: cannot read the config ({exc.strerror})") from exc
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{p}: the config is not UTF-8 text") from exc
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{p}: not valid TOML ({exc})") from exc
    try:
        return parse_config(data, p)
    except ConfigError as exc:
        raise ConfigError(f"{p}: {exc}") from exc

