"""The reader array's serial protocol (firmware/PROTOCOL.md): frames, checksum, sequence numbers.

One frame per line, ASCII::

    $<seq>,<ms>,<type>[,<field>...]*<CRC>\\n

``seq`` counts frames modulo 65536 (0 at boot), ``ms`` is the array's own millisecond clock,
``CRC`` is CRC-16/CCITT-FALSE of the bytes between ``$`` and ``*`` as four hex digits. Types:
``B`` boot (firmware, channels), ``A``/``D`` arrive/depart (channel, uid), ``H`` heartbeat (one
health letter per channel: ``O`` ok, ``F`` the reader does not answer; from firmware 2.0 also how
many ``K`` frames follow), ``K`` known tags (channel, uids: the snapshot the heartbeat announced),
``S`` a reader's statistics since the last heartbeat (polls, reads, collisions, errors), ``T``
timing figures as ``name=value`` pairs (firmware 2.1: what an access and a polling round cost),
``P`` a button wired to the array was pressed (firmware 2.2: the button's input number), ``R`` the
array refused a frame the host sent (firmware 2.3: why, one word). One type goes the other way, host
to array: ``L`` sets the LED of one channel (firmware 2.3: channel, colour ``RRGGBB``, pattern letter).

Everything here is pure: :func:`parse_frame` turns one line into a frame or raises
:class:`~companion.errors.FrameError`; :func:`encode_frame` is its inverse (for simulators).
"""

from __future__ import annotations

import binascii
import enum
import re
from collections import deque
from dataclasses import dataclass
from typing import Literal

from companion.core.errors import FrameError
from companion.core.lights import Light, Pattern

MAX_LINE = 100
"""Longest valid line, in bytes (a 10-byte UID frame with a large seq and clock is ~50)."""
SEQ_MODULUS = 65536
MAX_CHANNELS = 16
MAX_BUTTONS = 16
"""Buttons one array reports at most (inputs 0-15)."""
HEALTH_LETTERS = frozenset("OF")

_DIGITS = re.compile(rb"^[0-9]{1,16}$")
_HEX = re.compile(rb"^[0-9A-Fa-f]+$")
_VERSION = re.compile(r"^[A-Za-z0-9._+-]{1,24}$")
_FIGURE = re.compile(rb"^([a-z][a-z0-9_]{0,15})=([A-Za-z0-9._+-]{1,24})$")
_COLOUR = re.compile(rb"^[0-9A-Fa-f]{6}$")
_REASON = re.compile(rb"^[a-z][a-z_]{0,23}$")
PATTERN_LETTERS = frozenset(p.value for p in Pattern)


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF); ``crc16(b"123456789") == 0x29B1``."""
    return binascii.crc_hqx(data, 0xFFFF)


@dataclass(frozen=True, slots=True)
class BootFrame:
    seq: int
    ms: int
    firmware: str
    channels: int


@dataclass(frozen=True, slots=True)
class TagFrame:
    seq: int
    ms: int
    event: Literal["arrive", "depart"]
    channel: int
    uid: str
    """Lower-case hex."""


@dataclass(frozen=True, slots=True)
class HeartbeatFrame:
    seq: int
    ms: int
    health: str
    """One letter per channel: ``O`` ok, ``F`` the reader does not answer."""
    listing: int | None = None
    """How many K frames follow, naming every tag each reader knows (None: firmware 1.x, no listing)."""


@dataclass(frozen=True, slots=True)
class KnownFrame:
    seq: int
    ms: int
    channel: int
    uids: tuple[str, ...]
    """Lower-case hex: tags lying on reader ``channel`` at the heartbeat (more may follow in the next K)."""


@dataclass(frozen=True, slots=True)
class StatsFrame:
    seq: int
    ms: int
    channel: int
    polls: int
    reads: int
    collisions: int
    errors: int


@dataclass(frozen=True, slots=True)
class TimingFrame:
    seq: int
    ms: int
    figures: tuple[tuple[str, str], ...]
    """``(name, value)`` pairs in the order sent; a heartbeat's T frames together are one report.
    Names the host does not know are kept, so a later firmware may add figures."""

    def number(self, name: str) -> float | None:
        """The figure ``name`` as a number, or None if absent or not a number."""
        for key, value in self.figures:
            if key == name:
                try:
                    return float(value)
                except ValueError:
                    return None
        return None


@dataclass(frozen=True, slots=True)
class PressFrame:
    """A button wired to the array's input ``button`` was pressed (stamped when it went down)."""

    seq: int
    ms: int
    button: int


@dataclass(frozen=True, slots=True)
class RefusalFrame:
    """The array refused a frame the host sent (firmware 2.3): ``reason`` is one word (``checksum``,
    ``channel``, ``colour``, ``pattern``, ``format``, ``type``), PROTOCOL.md."""

    seq: int
    ms: int
    reason: str


@dataclass(frozen=True, slots=True)
class LedFrame:
    """Host to array (firmware 2.3): show ``light`` on the LED of channel ``channel``. ``seq`` and
    ``ms`` are the host's own: its frame count since it opened the port, its milliseconds since then."""

    seq: int
    ms: int
    channel: int
    light: Light


Frame = BootFrame | TagFrame | HeartbeatFrame | KnownFrame | StatsFrame | TimingFrame | PressFrame | RefusalFrame | LedFrame


def _show(line: bytes) -> str:
    text = repr(line[:40])[2:-1]
    return text + ("..." if len(line) > 40 else "")


def _number(raw: bytes, name: str, line: bytes, limit: int | None = None) -> int:
    if not _DIGITS.match(raw):
        raise FrameError(f"{name} {_show(raw)} is not a decimal number in frame '{_show(line)}'")
    value = int(raw)
    if limit is not None and value >= limit:
        raise FrameError(f"{name} {value} is out of range (< {limit}) in frame '{_show(line)}'")
    return value


def _channel(raw: bytes, line: bytes) -> int:
    return _number(raw, "channel", line, MAX_CHANNELS)


def _uid(raw: bytes, line: bytes) -> str:
    if not _HEX.match(raw) or len(raw) // 2 not in (4, 7, 8, 10) or len(raw) % 2:
        raise FrameError(f"uid {_show(raw)} is not 4, 7, 8 or 10 bytes of hex in frame '{_show(line)}'")
    return raw.decode("ascii").lower()


def parse_frame(line: bytes) -> Frame:
    """One frame from one line (without its newline; a trailing CR is allowed).

    Raises :class:`FrameError` naming the problem and showing the start of the line.
    """
    if line.endswith(b"\r"):
        line = line[:-1]
    if len(line) > MAX_LINE:
        raise FrameError(f"line of {len(line)} bytes is longer than {MAX_LINE}: '{_show(line)}'")
    if not line.startswith(b"$"):
        raise FrameError(f"frame does not start with '$': '{_show(line)}'")
    star = line.rfind(b"*")
    if star < 0:
        raise FrameError(f"frame has no checksum ('*'): '{_show(line)}'")
    body, crc_text = line[1:star], line[star + 1 :]
    if len(crc_text) != 4 or not _HEX.match(crc_text):
        raise FrameError(f"checksum {_show(crc_text)} is not four hex digits in frame '{_show(line)}'")
    if int(crc_text, 16) != crc16(body):
        raise FrameError(f"checksum mismatch (sent {crc_text.decode()}, computed {crc16(body):04X}) in frame '{_show(line)}'")
    fields = body.split(b",")
    if len(fields) < 3:
        raise FrameError(f"frame has {len(fields)} fields, needs at least seq, ms and type: '{_show(line)}'")
    seq = _number(fields[0], "sequence number", line, SEQ_MODULUS)
    ms = _number(fields[1], "clock", line)
    kind, rest = fields[2], fields[3:]
    if kind in (b"A", b"D"):
        if len(rest) != 2:
            raise FrameError(f"a tag frame carries channel and uid: '{_show(line)}'")
        channel = _channel(rest[0], line)
        return TagFrame(seq, ms, "arrive" if kind == b"A" else "depart", channel, _uid(rest[1], line))
    if kind == b"H":
        if not 1 <= len(rest) <= 2 or not 1 <= len(rest[0]) <= MAX_CHANNELS or not set(rest[0].decode("latin-1")) <= HEALTH_LETTERS:
            raise FrameError(f"a heartbeat carries one health letter (O or F) per channel: '{_show(line)}'")
        listing = _number(rest[1], "listing count", line, 256) if len(rest) == 2 else None
        return HeartbeatFrame(seq, ms, rest[0].decode("ascii"), listing)
    if kind == b"K":
        if len(rest) < 2:
            raise FrameError(f"a known-tags frame carries a channel and at least one uid: '{_show(line)}'")
        return KnownFrame(seq, ms, _channel(rest[0], line), tuple(_uid(raw, line) for raw in rest[1:]))
    if kind == b"S":
        if len(rest) != 5:
            raise FrameError(f"a stats frame carries channel, polls, reads, collisions and errors: '{_show(line)}'")
        polls, reads, collisions, errors = (_number(raw, "count", line) for raw in rest[1:])
        return StatsFrame(seq, ms, _channel(rest[0], line), polls, reads, collisions, errors)
    if kind == b"P":
        if len(rest) != 1:
            raise FrameError(f"a press frame carries the button's number: '{_show(line)}'")
        return PressFrame(seq, ms, _number(rest[0], "button", line, MAX_BUTTONS))
    if kind == b"R":
        if len(rest) != 1 or not _REASON.match(rest[0]):
            raise FrameError(f"a refusal frame carries one lower-case word saying why: '{_show(line)}'")
        return RefusalFrame(seq, ms, rest[0].decode("ascii"))
    if kind == b"L":
        if len(rest) != 3:
            raise FrameError(f"an LED frame carries channel, colour and pattern: '{_show(line)}'")
        if not _COLOUR.match(rest[1]):
            raise FrameError(f"colour {_show(rest[1])} is not RRGGBB hex in frame '{_show(line)}'")
        if rest[2].decode("latin-1") not in PATTERN_LETTERS:
            raise FrameError(f"pattern {_show(rest[2])} is not one of O, B, S, P in frame '{_show(line)}'")
        raw = bytes.fromhex(rest[1].decode("ascii"))
        return LedFrame(seq, ms, _channel(rest[0], line), Light((raw[0], raw[1], raw[2]), Pattern(rest[2].decode("ascii"))))
    if kind == b"T":
        if not rest:
            raise FrameError(f"a timing frame carries at least one name=value figure: '{_show(line)}'")
        figures = []
        for raw in rest:
            match = _FIGURE.match(raw)
            if match is None:
                raise FrameError(f"timing figure {_show(raw)} is not name=value in frame '{_show(line)}'")
            figures.append((match.group(1).decode("ascii"), match.group(2).decode("ascii")))
        return TimingFrame(seq, ms, tuple(figures))
    if kind == b"B":
        if len(rest) != 2:
            raise FrameError(f"a boot frame carries firmware version and channel count: '{_show(line)}'")
        version = rest[0].decode("latin-1")
        if not _VERSION.match(version):
            raise FrameError(f"firmware version {_show(rest[0])} is not valid in frame '{_show(line)}'")
        channels = _number(rest[1], "channel count", line, MAX_CHANNELS + 1)
        if channels == 0:
            raise FrameError(f"a boot frame reports no channels: '{_show(line)}'")
        return BootFrame(seq, ms, version, channels)
    raise FrameError(f"unknown frame type {_show(kind)} in frame '{_show(line)}'")


def encode_frame(frame: Frame) -> bytes:
    """The line for ``frame``, newline included (the simulators' half of the protocol)."""
    if isinstance(frame, TagFrame):
        tail = f"{'A' if frame.event == 'arrive' else 'D'},{frame.channel},{frame.uid.upper()}"
    elif isinstance(frame, HeartbeatFrame):
        tail = f"H,{frame.health}" + ("" if frame.listing is None else f",{frame.listing}")
    elif isinstance(frame, KnownFrame):
        tail = f"K,{frame.channel}," + ",".join(uid.upper() for uid in frame.uids)
    elif isinstance(frame, StatsFrame):
        tail = f"S,{frame.channel},{frame.polls},{frame.reads},{frame.collisions},{frame.errors}"
    elif isinstance(frame, TimingFrame):
        tail = "T," + ",".join(f"{name}={value}" for name, value in frame.figures)
    elif isinstance(frame, PressFrame):
        tail = f"P,{frame.button}"
    elif isinstance(frame, RefusalFrame):
        tail = f"R,{frame.reason}"
    elif isinstance(frame, LedFrame):
        tail = f"L,{frame.channel},{frame.light.hex},{frame.light.pattern.value}"
    else:
        tail = f"B,{frame.firmware},{frame.channels}"
    body = f"{frame.seq % SEQ_MODULUS},{frame.ms},{tail}".encode("ascii")
    return b"$" + body + b"*" + f"{crc16(body):04X}".encode("ascii") + b"\n"


def split_line(line: bytes) -> list[bytes]:
    """The frame candidates in one received line.

    A line cut short and run into the next frame (``$12,5,A,3,0A1B$13,...``) yields both pieces:
    the cut one fails its checksum, the next one is kept. Bytes before the first ``$`` (noise, a
    boot message) are one candidate of their own, so they are counted as a bad frame.
    """
    line = line.rstrip(b"\r")
    if not line.strip():
        return []
    parts = line.split(b"$")
    out = [parts[0]] if parts[0].strip() else []
    out.extend(b"$" + part for part in parts[1:])
    return out


def decode_line(line: bytes) -> list[Frame | FrameError]:
    """Each frame candidate of one received line, parsed, or the :class:`FrameError` saying why not."""
    out: list[Frame | FrameError] = []
    for candidate in split_line(line):
        try:
            out.append(parse_frame(candidate))
        except FrameError as exc:
            out.append(exc)
    return out


class LineAssembler:
    """Bytes from the serial port in, whole lines out.

    The first bytes after opening may be the tail of a line: they are skipped up to the first
    newline (unless they start a frame). A run of noise with no newline longer than a line is
    dropped and reported once, so a stuck line never grows without bound."""

    def __init__(self, max_pending: int = MAX_LINE) -> None:
        self.max_pending = max_pending
        self._pending = bytearray()
        self._synced = False

    def feed(self, chunk: bytes) -> tuple[list[bytes], FrameError | None]:
        """The lines ``chunk`` completes, and the error for noise dropped, if any."""
        if not self._synced and not chunk.startswith(b"$"):
            newline = chunk.find(b"\n")
            if newline < 0:
                return [], None
            chunk = chunk[newline + 1 :]
        self._synced = True
        self._pending += chunk
        lines: list[bytes] = []
        start = 0
        while (end := self._pending.find(b"\n", start)) >= 0:
            lines.append(bytes(self._pending[start:end]))
            start = end + 1
        del self._pending[:start]
        if len(self._pending) > self.max_pending:
            dropped = len(self._pending)
            self._pending.clear()
            return lines, FrameError(f"{dropped} bytes without a newline")
        return lines, None


class SeqVerdict(enum.Enum):
    OK = "ok"
    GAP = "gap"
    """Accepted, but ``missing`` frames before it never came."""
    DUPLICATE = "duplicate"
    """Seen already: skip it."""
    RESYNC = "resync"
    """Far behind and not seen recently: the array restarted without a boot frame reaching us."""


class SequenceTracker:
    """Checks frame sequence numbers: gaps (lost frames) and duplicates (sent twice)."""

    def __init__(self, recent: int = 64) -> None:
        self._recent: deque[int] = deque(maxlen=recent)
        self._recent_set: set[int] = set()
        self.last: int | None = None

    def reset(self) -> None:
        self._recent.clear()
        self._recent_set.clear()
        self.last = None

    def check(self, seq: int) -> tuple[SeqVerdict, int]:
        """(verdict, missing frames) for ``seq``; remembers it unless it is a duplicate."""
        if seq in self._recent_set:
            return SeqVerdict.DUPLICATE, 0
        verdict, missing = SeqVerdict.OK, 0
        if self.last is not None:
            ahead = (seq - self.last) % SEQ_MODULUS
            if ahead >= SEQ_MODULUS // 2:
                self.reset()
                verdict = SeqVerdict.RESYNC
            elif ahead > 1:
                verdict, missing = SeqVerdict.GAP, ahead - 1
        self._remember(seq)
        return verdict, missing

    def _remember(self, seq: int) -> None:
        if len(self._recent) == self._recent.maxlen:
            self._recent_set.discard(self._recent[0])
        self._recent.append(seq)
        self._recent_set.add(seq)
        self.last = seq
