"""``companion hw stack``: measure, on real parts, how deep a stack one pile reader reads.

A person lays cards on one reader of the array, one at a time, squarely on the stack as in play, and
presses Enter after each; the array's own frames say whether the reader reported the card. A card
not reported within ``wait_s`` is tried once more (lift it, lay it again); not reported twice, it
is beyond what the reader reads, and the measurement ends. The result is a stack table
(:mod:`hardware.stacktable`): the simulator reads it, and its depth is the zone's ``depth`` in the
table config (companion/table/depth.py). Stop the service first: the port is opened exclusively.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from datetime import datetime, timezone
from typing import Any

import serial

from companion.core.errors import FrameError
from companion.core.readers import ArrayChannel
from hardware.check import CheckError
from hardware.protocol import BootFrame, Frame, LineAssembler, TagFrame, TimingFrame, decode_line
from hardware.stacktable import SHIPPED_TABLE, StackRow, StackTable

log = logging.getLogger(__name__)

Ask = Callable[[str], str]
"""Shows the person a prompt and returns what they typed (``input``)."""
Say = Callable[[str], object]


class ArrayFrames:
    """The array's frames off its serial port, as they come."""

    def __init__(self, port: str, open_serial: Callable[..., Any] = serial.serial_for_url) -> None:
        self.port = port
        try:
            self._link = open_serial(port, baudrate=115200, timeout=0.05, exclusive=True)
        except (serial.SerialException, OSError, ValueError) as exc:
            raise CheckError(f"cannot open the array at {port}: {exc} (is the service running? stop it first)") from exc
        self._lines = LineAssembler()
        self.firmware = ""

    def drain(self) -> list[Frame]:
        """Every complete frame that has arrived so far."""
        frames: list[Frame] = []
        try:
            chunk = self._link.read(self._link.in_waiting or 1)
        except (serial.SerialException, OSError) as exc:
            raise CheckError(f"lost the array at {self.port}: {exc}") from exc
        complete, noise = self._lines.feed(chunk) if chunk else ([], None)
        if noise is not None:
            log.info("noise on the array's line: %s", noise)
        for line in complete:
            for frame in decode_line(line):
                if isinstance(frame, FrameError):
                    log.info("bad frame: %s", frame)
                    continue
                if isinstance(frame, BootFrame):
                    self.firmware = frame.firmware
                frames.append(frame)
        return frames

    def arrival(self, channel: int, timeout: float) -> TagFrame | None:
        """The next arrival on ``channel`` within ``timeout`` seconds, or None."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for frame in self.drain():
                if isinstance(frame, TagFrame) and frame.channel == channel and frame.event == "arrive":
                    return frame
        return None

    def answers(self, channel: int, seconds: float) -> tuple[int, int]:
        """Over ``seconds``: how often the ISO 15693 pile on ``channel``'s newest card answered a
        census check's first request, and how often it did not (the array's topaN and topmN figures)."""
        answered = missed = 0
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            for frame in self.drain():
                if isinstance(frame, TimingFrame):
                    answered += int(frame.number(f"topa{channel}") or 0)
                    missed += int(frame.number(f"topm{channel}") or 0)
        return answered, missed

    def close(self) -> None:
        self._link.close()


def measure_stack(
    frames: ArrayFrames, channel: int, ask: Ask, say: Say, *, cards: int = 40, wait_s: float = 3.0, listen_s: float = 0.0
) -> StackTable:
    """Guide the person through laying up to ``cards`` cards on ``channel``; the stack table it gives.

    ``listen_s`` (an ISO 15693 pile, ``--iso15693``): after each card is reported, listen that long
    to how often it answers its census checks, untouched; the rates become the table's iso15693 answers."""
    reader = ArrayChannel("", channel).reader_id
    say(f"Clear {reader}. Lay cards on it one at a time, squarely on the stack as in play, and press Enter after "
        f"each (type q and Enter to stop early).")
    frames.drain()  # what came before the first card is not about it
    rows: list[StackRow] = []
    depth = 0
    for card in range(1, cards + 1):
        seen = None
        for attempt in ("lay card %d on %s, then press Enter" % (card, reader),
                        f"card {card} was not reported within {wait_s:g} s: lift it, lay it again, then press Enter"):
            if ask(attempt + ": ").strip().lower() == "q":
                return _table(frames, reader, depth, rows)
            frames.drain()
            start = time.monotonic()
            seen = frames.arrival(channel, wait_s)
            if seen is not None:
                took = int((time.monotonic() - start) * 1000)
                answer = None
                if listen_s > 0:
                    say(f"card {card} reported; leave the pile untouched for {listen_s:g} s")
                    answered, missed = frames.answers(channel, listen_s)
                    answer = answered / (answered + missed) if answered + missed else None
                rows.append(StackRow(card, True, took, answer))
                break
        if seen is None:
            rows.append(StackRow(card, False))
            say(f"card {card} was not reported twice: {reader} reads {depth} cards deep")
            return _table(frames, reader, depth, rows)
        depth = card
        rate = rows[-1].answer
        say(f"card {card} reported ({rows[-1].ms} ms)" + (f", answered {rate:.3f} of its census checks" if rate is not None else ""))
    say(f"{reader} read all {cards} cards laid: it reads at least {depth} deep (lay more with --cards)")
    return _table(frames, reader, depth, rows)


def _table(frames: ArrayFrames, reader: str, depth: int, rows: list[StackRow]) -> StackTable:
    when = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    source = f"companion hw stack on {reader}, firmware {frames.firmware or 'not seen'}, {when}"
    shipped = StackTable.load(SHIPPED_TABLE).iso15693
    iso15693 = shipped  # an RC522 pile measured: the ISO 15693 part stays as it was
    answers = [r.answer for r in rows if r.seen]
    if answers and all(a is not None for a in answers):
        guessed = {k: v for k, v in (shipped or {}).items() if k in ("positions", "tabletop", "hand", "capture")}
        iso15693 = {"measured": True, "source": f"answer rates by depth: {source}; {', '.join(guessed) or 'nothing else'} "
                    f"still the shipped guess", "answer": answers, **guessed}
    return StackTable(measured=True, source=source, depth=depth, rows=tuple(rows), iso15693=iso15693)
