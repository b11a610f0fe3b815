"""What the venue takes from a table, in numbers, and the checks on a payload before it is parsed.

Every message on a venue topic is untrusted: a table's credentials are on a Pi at a table. A
payload is measured (bytes, then nesting) before ``json.loads`` sees it, so a payload of nested
brackets costs a byte scan and a count, never a ``RecursionError`` on paho's network thread.

The numbers fit real games with room: the largest board measured is 8.6 KB (Escape Master, 4
players, after 2,474 rows), the largest public event 0.4 KB, the deepest nesting 5 levels, the
largest game 8 players and the longest game about 2,500 rows (``docs/security.md``, "The venue").
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from companion.core import JsonObject
from companion.core.jsontext import too_deep

EVENT_BYTES = 16 * 1024
"""Largest ``event`` payload: the table's own HTTP body limit (a row comes from one request at most)."""
BOARD_BYTES = 64 * 1024
"""Largest ``board`` payload: 7 times the largest board measured."""
REPLAY_BYTES = 1024
"""Largest ``replay`` request a table reads: ``{"instance", "from"}`` is under 60 bytes."""
JSON_DEPTH = 16
"""Deepest nesting of any payload (real ones: 5); past it the payload is not parsed."""
PACKET_BYTES = 256 * 1024
"""The MQTT 5 Maximum Packet Size the venue announces: the broker drops anything larger for it (a
payload between the board limit and this is read, counted and refused)."""
TABLE_PACKET_BYTES = 16 * 1024
"""The Maximum Packet Size a table announces: it reads only replay requests and acknowledgements."""
NAME_CHARS = 64
"""Longest table name (a topic level) and game instance the venue keeps (real instances: 16 hex)."""
SEQ_MAX = 2**53
"""Largest seq the venue takes (real logs: thousands)."""


@dataclass(frozen=True)
class VenueLimits:
    """What the venue keeps per table and per venue; past each one it refuses or forgets, and counts."""

    games_per_table: int = 50
    """Games (instances) kept per table; a new one past this forgets the table's least recently
    updated game (its board and its events), never the current one."""
    players_per_game: int = 16
    """Players on one board (the largest game has 8); a board with more is refused."""
    rows_per_table: int = 50_000
    """Stored events per table (about 20 long games); past it the table's oldest games are forgotten,
    and when its current game alone fills it, that game's further events are refused."""
    bytes_per_table: int = 32 * 1024 * 1024
    """Stored event bytes per table, forgotten and refused as rows are."""
    buffered_per_table: int = 2000
    """Events held per table while an earlier one is missing (all its games together)."""
    buffered_bytes_per_table: int = 4 * 1024 * 1024
    """Bytes of those held events."""
    tables_per_venue: int = 1000
    """Tables a venue keeps; a board or event from one more table is refused."""


class BadMessage(ValueError):
    """A message on a venue topic that the venue (or a table) cannot read or will not keep."""


def read_object(payload: bytes | bytearray, max_bytes: int, what: str) -> JsonObject:
    """``payload`` as a JSON object, measured first: at most ``max_bytes`` and :data:`JSON_DEPTH`
    levels, else :class:`BadMessage` without parsing it."""
    if len(payload) > max_bytes:
        raise BadMessage(f"a {what} of {len(payload)} bytes (at most {max_bytes})")
    if too_deep(payload, JSON_DEPTH):
        raise BadMessage(f"a {what} nested deeper than {JSON_DEPTH} levels")
    body = json.loads(payload)
    if not isinstance(body, dict):
        raise BadMessage(f"the {what} is not a JSON object")
    return body


def seq_of(value: object, what: str, low: int = 1) -> int:
    """A log seq from a payload: a whole number from ``low`` to :data:`SEQ_MAX`."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadMessage(f"{what} is not a row number")
    if not low <= value <= SEQ_MAX:
        raise BadMessage(f"{what} {value} is not a log seq")
    return value


def name_of(value: object, what: str) -> str:
    """A table name or game instance from a payload or topic: text of at most :data:`NAME_CHARS`."""
    if not isinstance(value, str) or len(value) > NAME_CHARS:
        raise BadMessage(f"{what} is not a name of at most {NAME_CHARS} characters")
    return value
