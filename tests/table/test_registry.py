"""The tag registry: UID -> card per game, refusing ambiguity, surviving a restart."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.core.errors import EnrolmentError
from companion.core.readers import normalize_uid
from companion.table.registry import TagRegistry

A, B, C = "0a1b2c3d4e5f60", "c0ffee01", "11223344556677"


def test_an_enrolled_tag_names_its_card_and_survives_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "tags.json"
    registry = TagRegistry(path, "escape-master")
    assert registry.enrol(A, "red-7") is True
    assert registry.card_for(A) == "red-7" and registry.uid_for("red-7") == A
    again = TagRegistry(path, "escape-master")
    assert again.card_for(A) == "red-7" and len(again) == 1


def test_an_unknown_tag_has_no_card(tmp_path: Path) -> None:
    assert TagRegistry(tmp_path / "tags.json", "g").card_for(A) is None


def test_a_uid_cannot_be_two_cards(tmp_path: Path) -> None:
    registry = TagRegistry(tmp_path / "tags.json", "g")
    registry.enrol(A, "red-7")
    with pytest.raises(EnrolmentError, match='already enrolled as "red-7"'):
        registry.enrol(A, "blue-3")
    assert registry.card_for(A) == "red-7"


def test_a_card_cannot_have_two_tags(tmp_path: Path) -> None:
    registry = TagRegistry(tmp_path / "tags.json", "g")
    registry.enrol(A, "red-7")
    with pytest.raises(EnrolmentError, match='card "red-7" already has tag'):
        registry.enrol(B, "red-7")
    assert registry.card_for(B) is None


def test_enrolling_the_same_pair_again_changes_nothing(tmp_path: Path) -> None:
    registry = TagRegistry(tmp_path / "tags.json", "g")
    registry.enrol(A, "red-7")
    assert registry.enrol(A.upper(), "red-7") is False


def test_games_keep_separate_sections_in_one_file(tmp_path: Path) -> None:
    path = tmp_path / "tags.json"
    TagRegistry(path, "the-mountain").enrol(A, "QS")
    TagRegistry(path, "escape-master").enrol(A, "red-7")  # another game, another deck
    assert TagRegistry(path, "the-mountain").card_for(A) == "QS"
    assert TagRegistry(path, "escape-master").card_for(A) == "red-7"
    data = json.loads(path.read_text())
    assert set(data["games"]) == {"the-mountain", "escape-master"}


def test_forget_frees_a_card_for_a_new_tag(tmp_path: Path) -> None:
    registry = TagRegistry(tmp_path / "tags.json", "g")
    registry.enrol(A, "red-7")
    assert registry.forget("red-7") == A
    registry.enrol(B, "red-7")
    assert TagRegistry(tmp_path / "tags.json", "g").uid_for("red-7") == B


def test_the_file_never_holds_the_card_on_the_tag_side(tmp_path: Path) -> None:
    registry = TagRegistry(tmp_path / "tags.json", "g")
    registry.enrol("0A:1B:2C:3D:4E:5F:60", "red-7")
    assert json.loads((tmp_path / "tags.json").read_text())["games"]["g"] == {A: "red-7"}


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ("not json", "not valid"),
        ('{"format": "something-else", "version": 1}', "not a tag registry"),
        ('{"format": "table-companion/tags", "version": 9, "games": {}}', "version 9"),
        ('{"format": "table-companion/tags", "version": 1, "games": {"g": {"zz": "x"}}}', "not a tag UID"),
        (
            '{"format": "table-companion/tags", "version": 1, "games": {"g": {"c0ffee01": "x", "c0ffee01": "y"}}}',
            "appears twice",
        ),
        (
            '{"format": "table-companion/tags", "version": 1, "games": {"g": {"c0ffee01": "x", "0a1b2c3d4e5f60": "x"}}}',
            'card "x" has two tags',
        ),
    ],
)
def test_a_bad_file_is_refused_with_one_clear_message(tmp_path: Path, content: str, problem: str) -> None:
    path = tmp_path / "tags.json"
    path.write_text(content)
    with pytest.raises(EnrolmentError, match=problem):
        TagRegistry(path, "g")


@pytest.mark.parametrize("bad", ["", "xyz", "0a1b2", "0a1b2c", "00" * 11])
def test_uids_are_checked(bad: str) -> None:
    with pytest.raises(EnrolmentError, match="not a tag UID"):
        normalize_uid(bad)


def test_uids_are_normalised() -> None:
    assert normalize_uid(" 0A-1B-2C-3D ") == "0a1b2c3d"
