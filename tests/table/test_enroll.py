"""``companion enroll``: walking a deck with a real reader path (the simulated array, the udp emulator)."""

from __future__ import annotations

import argparse
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.cli import enroll
from companion.core.errors import ConfigError, EnrolmentError
from companion.table.enrolment import EnrolmentWalk, deck_of_game, read_cards_file
from companion.table.registry import TagRegistry
from hardware.sim.array import SimulatedArray
from tests.hardware.helpers import EmulatorProcess, free_udp_port, wait_until

A, B, C = "0a1b2c3d4e5f60", "c0ffee01", "11223344556677"
GAME = "escape-master"


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    enroll.add_parser(parser.add_subparsers())
    return parser.parse_args(["enroll", *argv])


class Output:
    """What the enrolment prints, read from the test thread while it runs in another."""

    def __init__(self, capsys: pytest.CaptureFixture[str]) -> None:
        self.capsys = capsys
        self.text = ""

    def wait_for(self, words: str, timeout: float = 10.0) -> None:
        def seen() -> bool:
            self.text += self.capsys.readouterr().out
            return words in self.text

        wait_until(seen, timeout, f"{words!r} in the output (have {self.text!r})")


class Running:
    def __init__(self, args: argparse.Namespace) -> None:
        self.code: int | None = None
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, args=(args,))
        self.thread.start()

    def _run(self, args: argparse.Namespace) -> None:
        try:
            self.code = enroll.run(args)
        except BaseException as exc:  # handed to the test thread
            self.error = exc

    def result(self, timeout: float = 15.0) -> int | None:
        self.thread.join(timeout)
        assert not self.thread.is_alive(), "the enrolment did not finish"
        if self.error is not None:
            raise self.error
        return self.code


@pytest.fixture
def cards(tmp_path: Path) -> Path:
    path = tmp_path / "cards.txt"
    path.write_text("# the three cards\nred-7\nblue-3   # a comment\n\ngreen-1\n")
    return path


@pytest.fixture
def sim(tmp_path: Path) -> Iterator[SimulatedArray]:
    with SimulatedArray(4, link=tmp_path / "array", heartbeat_s=0.1) as array:
        yield array


def array_args(tmp_path: Path, sim: SimulatedArray, cards: Path, *more: str) -> argparse.Namespace:
    return parse(
        "--game", GAME, "--zone", "pile-1", "--reader", "array:1", "--port", sim.port,
        "--tags", str(tmp_path / "tags.json"), "--cards", str(cards), "--timeout", "10", *more,
    )


def test_a_deck_is_walked_card_by_card_over_the_array(
    tmp_path: Path, sim: SimulatedArray, cards: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = Output(capsys)
    running = Running(array_args(tmp_path, sim, cards))
    out.wait_for("tap red-7 on pile-1  (1/3)")
    sim.arrive(1, A)
    out.wait_for("tap blue-3")
    sim.depart(1, A)
    sim.arrive(0, B)  # another reader's tag: not this enrolment's
    sim.arrive(1, A)  # the tag just enrolled, back at the edge of the field: ignored
    sim.arrive(1, B)
    out.wait_for("tap green-1")
    sim.arrive(1, C)
    assert running.result() == 0
    assert TagRegistry(tmp_path / "tags.json", GAME).cards() == {"red-7": A, "blue-3": B, "green-1": C}
    out.wait_for("all 3 cards")


def test_it_resumes_and_refuses_a_tag_that_is_another_cards(
    tmp_path: Path, sim: SimulatedArray, cards: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    TagRegistry(tmp_path / "tags.json", GAME).enrol(C, "green-1")  # enrolled in an earlier run
    out = Output(capsys)
    running = Running(array_args(tmp_path, sim, cards))
    out.wait_for("resuming: 1 of 3")
    out.wait_for("tap red-7")
    sim.arrive(1, C)  # green-1's tag offered as red-7
    out.wait_for('refused: tag 11223344556677 is already enrolled as "green-1"')
    sim.arrive(1, A)
    out.wait_for("tap blue-3")
    sim.arrive(1, B)
    assert running.result() == 0
    assert TagRegistry(tmp_path / "tags.json", GAME).cards() == {"red-7": A, "blue-3": B, "green-1": C}


def test_nothing_to_do_when_every_card_has_its_tag(tmp_path: Path, cards: Path, capsys: pytest.CaptureFixture[str]) -> None:
    registry = TagRegistry(tmp_path / "tags.json", GAME)
    for uid, card in [(A, "red-7"), (B, "blue-3"), (C, "green-1")]:
        registry.enrol(uid, card)
    args = parse("--game", GAME, "--zone", "pile-1", "--reader", "array:1", "--tags", str(tmp_path / "tags.json"), "--cards", str(cards))
    assert enroll.run(args) == 0
    assert "already has its tag" in capsys.readouterr().out


def test_no_tap_within_the_timeout_stops_with_a_resume_hint(
    tmp_path: Path, sim: SimulatedArray, cards: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = array_args(tmp_path, sim, cards)
    args.timeout = 0.3
    assert enroll.run(args) == 1
    assert "run the same command to resume" in capsys.readouterr().err


def test_a_missing_reader_is_one_clear_error(tmp_path: Path, cards: Path) -> None:
    args = parse("--game", GAME, "--zone", "pile-1", "--tags", str(tmp_path / "t.json"), "--cards", str(cards))
    with pytest.raises(ConfigError, match='no reader for zone "pile-1"'):
        enroll.run(args)
    args = parse("--game", GAME, "--zone", "pile-1", "--reader", "array:1", "--tags", str(tmp_path / "t.json"), "--cards", str(cards))
    with pytest.raises(ConfigError, match="serial port"):
        enroll.run(args)


def test_a_game_that_does_not_list_its_deck_asks_for_cards(tmp_path: Path) -> None:

    # Everest has no cards to tag, so it lists no deck: enrolment must be told the cards.
    args = parse("--game", "everest", "--zone", "hand", "--reader", "array:1", "--port", "x", "--tags", str(tmp_path / "t.json"))
    from companion.games import get_game

    assert deck_of_game(get_game("everest")) is None
    with pytest.raises(EnrolmentError, match="--cards"):
        enroll.run(args)


def test_enrolment_over_an_nfcpy_reader(tmp_path: Path, cards: Path, capsys: pytest.CaptureFixture[str]) -> None:
    two = tmp_path / "two.txt"
    two.write_text("red-7\nblue-3\n")
    emulator = EmulatorProcess(free_udp_port())
    try:
        out = Output(capsys)
        args = parse("--game", GAME, "--zone", "pile-1", "--reader", emulator.path, "--tags", str(tmp_path / "tags.json"),
                     "--cards", str(two), "--timeout", "20")
        running = Running(args)
        out.wait_for("tap red-7")
        emulator.present(A)
        out.wait_for("tap blue-3", timeout=15)
        emulator.present(B)
        assert running.result(30) == 0
    finally:
        emulator.close()
    assert TagRegistry(tmp_path / "tags.json", GAME).cards() == {"red-7": A, "blue-3": B}


class TestWalk:
    def test_order_skip_and_offer(self, tmp_path: Path) -> None:
        walk = EnrolmentWalk(TagRegistry(tmp_path / "t.json", GAME), ["a", "b", "c"])
        assert walk.current == "a"
        walk.skip()
        assert walk.current == "b"
        assert walk.offer(A).enrolled
        refused = walk.offer(A)
        assert not refused.enrolled and refused.card == "c" and "already enrolled" in refused.message
        assert walk.remaining() == ["a", "c"]

    def test_a_deck_with_a_card_twice_is_refused(self, tmp_path: Path) -> None:
        with pytest.raises(EnrolmentError, match='"b" is listed twice'):
            EnrolmentWalk(TagRegistry(tmp_path / "t.json", GAME), ["a", "b", "b"])

    def test_card_file_problems_name_the_line(self, tmp_path: Path) -> None:
        path = tmp_path / "c.txt"
        path.write_text("a\nb\na\n")
        with pytest.raises(EnrolmentError, match="line 3: card \"a\" is already on line 1"):
            read_cards_file(path)
        path.write_text("# nothing\n")
        with pytest.raises(EnrolmentError, match="empty"):
            read_cards_file(path)

    def test_deck_of_game_reads_a_method_or_an_attribute(self) -> None:
        class WithMethod:
            def deck(self) -> list[str]:
                return ["x", "y"]

        class WithTuple:
            deck = ("p", "q")

        assert deck_of_game(WithMethod()) == ("x", "y")
        assert deck_of_game(WithTuple()) == ("p", "q")
        assert deck_of_game(object()) is None


def test_the_config_names_the_reader_the_port_and_the_registry(
    tmp_path: Path, sim: SimulatedArray, cards: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "table.toml"
    config.write_text(
        f"""
[game]
id = "{GAME}"
players = ["anna", "ben"]

[tags]
registry = "deck-tags.json"

[array]
port = "{sim.port}"

[[zones]]
name = "pile-1"
kind = "pile"
index = 1
reader = "array:2"
"""
    )
    out = Output(capsys)
    running = Running(parse("--game", GAME, "--zone", "pile-1", "--config", str(config), "--cards", str(cards), "--timeout", "10"))
    for card, uid in [("red-7", A), ("blue-3", B), ("green-1", C)]:
        out.wait_for(f"tap {card}")
        sim.arrive(1, "99887766")  # a tag on another reader is not a tap on pile-1
        sim.arrive(2, uid)
    assert running.result() == 0
    assert TagRegistry(tmp_path / "deck-tags.json", GAME).cards() == {"red-7": A, "blue-3": B, "green-1": C}
    with pytest.raises(ConfigError, match='no zone "pile-9"'):
        enroll.run(parse("--game", GAME, "--zone", "pile-9", "--config", str(config), "--cards", str(cards)))
