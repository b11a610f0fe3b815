"""The referee's signals (companion/table/lights.py): rows and the public board in, each zone's
light out. Pure: the rows are the log's own (LogRow), the board a session's board shape."""

from __future__ import annotations

from typing import Any

from companion.core import Zone
from companion.core.lights import DARK
from companion.core.zones import HAND_PAD, PILE
from companion.log.store import LogRow
from companion.table.lights import ALERT, ILLEGAL, LEGAL, YOUR_TURN, ZoneLight, ZoneSignals

ZONES = (
    Zone("pile-1", PILE, index=1, reader="array:0"),
    Zone("hand-anna", HAND_PAD, player="anna", reader="array:1"),
    Zone("hand-ben", HAND_PAD, player="ben", reader="array:2"),
)


def row(zone: str | None, verdict: dict[str, Any] | None, kind: str = "tag", error: str | None = None) -> LogRow:
    payload = {"zone": zone} if zone else {}
    return LogRow(kind=kind, source="array:0", table_time=1.0, wall_time=1.0, mono_time=1.0, payload=payload, verdict=verdict, error=error)


def board(prompts: tuple[str, ...] = (), alerts: tuple[str, ...] = ()) -> dict[str, Any]:
    return {"prompts": [{"who": p, "verb": "play", "text": ""} for p in prompts], "alerts": [{"zone": z, "what": "", "fix": ""} for z in alerts]}


OK, BAD = {"ok": True}, {"ok": False, "rules": ["EM-PILE"], "why": "a 2 cannot go on a 7"}


def test_legal_blinks_illegal_holds_until_the_zone_reads_again() -> None:
    signals = ZoneSignals(ZONES)
    assert signals.update([row("pile-1", OK)], board()) == [ZoneLight("pile-1", LEGAL)]
    assert signals.update([row("pile-1", BAD)], board()) == [ZoneLight("pile-1", ILLEGAL)]
    assert signals.update([row("hand-anna", None)], board()) == []  # elsewhere: red stays
    assert signals.showing("pile-1") == ILLEGAL
    assert signals.update([row("pile-1", None)], board()) == [ZoneLight("pile-1", DARK)]  # taken back


def test_an_undo_clears_red_and_a_refused_row_changes_nothing() -> None:
    signals = ZoneSignals(ZONES)
    signals.update([row("pile-1", BAD)], board())
    assert signals.update([row("pile-1", None, error="bad notation")], board()) == []
    assert signals.update([row(None, None, kind="undo")], board()) == [ZoneLight("pile-1", DARK)]


def test_red_outranks_amber_outranks_the_pulse_and_a_blink_spares_a_lasting_light() -> None:
    signals = ZoneSignals(ZONES)
    assert signals.update([], board(prompts=("ben",))) == [ZoneLight("hand-ben", YOUR_TURN)]
    assert signals.update([], board(prompts=("ben",), alerts=("hand-ben",))) == [ZoneLight("hand-ben", ALERT)]
    assert signals.update([row("hand-ben", BAD)], board(prompts=("ben",), alerts=("hand-ben",))) == [ZoneLight("hand-ben", ILLEGAL)]
    assert signals.update([row("hand-ben", OK)], board(prompts=("ben",))) == [ZoneLight("hand-ben", YOUR_TURN)]  # no blink over it
    assert signals.update([], board()) == [ZoneLight("hand-ben", DARK)]


def test_zones_without_an_led_and_rows_without_a_zone_are_ignored() -> None:
    signals = ZoneSignals(ZONES[:1])
    assert signals.update([row("hand-anna", BAD), row(None, OK)], board(prompts=("anna",), alerts=("hand-anna",))) == []
