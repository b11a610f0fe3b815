"""`companion hw stack` against the real firmware on a simulated field: the person lays cards one at a
time, the array's frames say which were read, and the table it writes is what the simulator reads."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.core.errors import ConfigError
from hardware.sim.field import FieldSettings
from hardware.sim.firmware import FirmwareRig
from hardware.sim.firmware_array import FirmwareArray
from hardware.stack import ArrayFrames, measure_stack
from hardware.stacktable import SHIPPED_TABLE, StackTable

CARDS = [f"04{n:02x}2230a1b2{n:02x}" for n in range(1, 12)]


class Person:
    """Lays the next card on the reader whenever asked (and, when told it was not seen, lays it again)."""

    def __init__(self, array: FirmwareArray, channel: int) -> None:
        self.array = array
        self.channel = channel
        self.laid = 0
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if "lay it again" in prompt:
            self.array.take(self.channel, CARDS[self.laid - 1], wait=False)
            self.array.place(self.channel, CARDS[self.laid - 1], wait=False)
        else:
            self.array.place(self.channel, CARDS[self.laid], wait=False)
            self.laid += 1
        return ""


def test_the_measured_depth_is_the_last_card_read_and_the_simulator_reads_the_table(tmp_path: Path) -> None:
    said: list[str] = []
    array = FirmwareArray(2, kinds=["pad", "pile"], settings=FieldSettings(detune_depth=5), link=tmp_path / "array")
    with array:
        frames = ArrayFrames(array.port)
        try:
            person = Person(array, 1)
            table = measure_stack(frames, 1, person, said.append, cards=10, wait_s=1.0)
        finally:
            frames.close()
    assert table.measured and table.depth == 5 and "array:1" in table.source
    assert [(r.depth, r.seen) for r in table.rows] == [(1, True), (2, True), (3, True), (4, True), (5, True), (6, False)]
    assert all(r.ms is not None and r.ms < 1000 for r in table.rows[:5])
    assert person.laid == 6 and sum("lay it again" in p for p in person.prompts) == 1  # the sixth was tried twice
    assert said[-1] == "card 6 was not reported twice: array:1 reads 5 cards deep"
    path = tmp_path / "stack-table.json"
    table.save(path)
    assert StackTable.load(path) == table
    # The simulator reads the table: a pile as deep as measured, and no deeper.
    settings = FieldSettings.from_stack_table(path, max_answers=2)
    assert settings.detune_depth == 5 and settings.max_answers == 2
    rig = FirmwareRig(1, kinds=["pile"], settings=settings)
    rig.firmware.boot()
    for uid in CARDS[:6]:
        rig.chips[0].place(bytes.fromhex(uid))
        for _ in range(3):
            rig.firmware.step()
    assert [uid.hex() for uid in rig.known(0)] == CARDS[:5]


def test_the_shipped_table_is_marked_a_guess_and_is_the_simulators_default() -> None:
    shipped = StackTable.load(SHIPPED_TABLE)
    assert not shipped.measured and "guess" in shipped.source and shipped.rows == ()
    assert FieldSettings().detune_depth == shipped.depth


def test_a_stack_table_that_is_not_one_names_the_file_and_key(tmp_path: Path) -> None:
    path = tmp_path / "t.json"
    for data, message in (
        ([], "not a stack table"),
        ({"measured": "yes", "source": "x", "depth": 3}, "measured must be true or false"),
        ({"measured": True, "source": "x", "depth": -1}, "depth must be a whole number"),
        ({"measured": True, "source": "x", "depth": 3, "rows": [{"depth": 1}]}, r"rows\[0\] must be"),
    ):
        path.write_text(json.dumps(data), encoding="utf-8")
        with pytest.raises(ConfigError, match=message) as raised:
            StackTable.load(path)
        assert str(path) in str(raised.value)


def test_the_command_writes_the_table_and_says_the_depth_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from companion.cli import main

    array = FirmwareArray(1, kinds=["pile"], settings=FieldSettings(detune_depth=2), link=tmp_path / "array")
    out = tmp_path / "measured.json"
    with array:
        monkeypatch.setattr("builtins.input", Person(array, 0))  # the person at the bench, typing Enter
        code = main(["hw", "stack", "--port", array.port, "--channel", "0", "--out", str(out), "--cards", "6", "--wait", "0.5"])
    assert code == 0
    assert StackTable.load(out).depth == 2
    assert f"wrote {out}: depth 2. Set depth = 2 on the zone of array:0 in the table config" in capsys.readouterr().out


def test_an_iso15693_piles_answer_rates_by_depth_are_measured_into_the_tables_iso15693_part(tmp_path: Path) -> None:
    from hardware.sim.pile_array import PileArray
    from hardware.sim.vicinity import PileTable

    slix = [f"e0040108{n:02x}a1b2{n:02x}" for n in range(1, 6)]
    three = PileTable(measured=False, source="a test's pile: three cards deep, each always answering", answer=(1.0, 1.0, 1.0))
    array = PileArray(["pad", "vpile"], link=tmp_path / "array", table=three)
    array.plug()
    laid: list[str] = []

    def person(prompt: str) -> str:
        if "lay it again" in prompt:
            array.take(1, laid[-1])
            array.place(1, laid[-1])
        else:
            laid.append(slix[len(laid)])
            array.place(1, laid[-1])
        return ""

    said: list[str] = []
    try:
        frames = ArrayFrames(array.port)
        try:
            table = measure_stack(frames, 1, person, said.append, cards=5, wait_s=4.0, listen_s=4.0)
        finally:
            frames.close()
    finally:
        array.close()
    assert table.depth == 3 and [(r.depth, r.seen, r.answer) for r in table.rows] == [
        (1, True, 1.0), (2, True, 1.0), (3, True, 1.0), (4, False, None)]
    assert table.iso15693 is not None and table.iso15693["measured"] is True and table.iso15693["answer"] == [1.0, 1.0, 1.0]
    path = tmp_path / "stack-table.json"
    table.save(path)
    loaded = PileTable.load(path)  # the simulator reads the measured rates, the rest still the shipped guess
    assert loaded.measured and loaded.answer == (1.0, 1.0, 1.0) and loaded.hand == PileTable.load().hand
    assert StackTable.load(path) == table


def test_an_rc522_measurement_keeps_the_shipped_iso15693_part() -> None:
    shipped = StackTable.load(SHIPPED_TABLE)
    assert shipped.iso15693 is not None and shipped.iso15693["measured"] is False
    assert StackTable.from_json(shipped.to_json(), "again") == shipped
