"""Debouncing: a departure waits; the same tag back in time cancels both."""

from __future__ import annotations

import pytest

from companion.table.debounce import Debouncer
from companion.core.readers import ReaderEvent


def ev(event: str, uid: str = "c0ffee01", reader: str = "array:0", t: float = 0.0) -> ReaderEvent:
    return ReaderEvent(reader, uid, event, t)  # type: ignore[arg-type]


def test_arrivals_pass_at_once() -> None:
    d = Debouncer(0.3)
    assert d.feed(ev("arrive"), now=0.0) == [ev("arrive")]


def test_a_departure_waits_for_the_window() -> None:
    d = Debouncer(0.3)
    assert d.feed(ev("depart"), now=1.0) == []
    assert d.next_due() == pytest.approx(1.3)
    assert d.expire(1.29) == []
    assert d.expire(1.3) == [ev("depart")]
    assert d.next_due() is None


def test_a_flicker_is_swallowed() -> None:
    d = Debouncer(0.3)
    d.feed(ev("depart", t=1.0), now=1.0)
    assert d.feed(ev("arrive", t=1.1), now=1.1) == []
    assert d.expire(5.0) == []
    assert d.suppressed == 1


def test_the_same_tag_back_after_the_window_is_a_real_departure_and_arrival() -> None:
    d = Debouncer(0.3)
    d.feed(ev("depart"), now=1.0)
    assert d.expire(1.4) == [ev("depart")]
    assert d.feed(ev("arrive"), now=1.5) == [ev("arrive")]


def test_another_tag_on_the_same_reader_releases_the_held_departure_first() -> None:
    d = Debouncer(0.3)
    d.feed(ev("depart", uid="c0ffee01"), now=1.0)
    out = d.feed(ev("arrive", uid="0a1b2c3d"), now=1.1)
    assert [(e.event, e.uid) for e in out] == [("depart", "c0ffee01"), ("arrive", "0a1b2c3d")]


def test_another_reader_does_not_release_it() -> None:
    d = Debouncer(0.3)
    d.feed(ev("depart", reader="array:0"), now=1.0)
    assert d.feed(ev("arrive", reader="array:1"), now=1.1) == [ev("arrive", reader="array:1")]
    assert len(d) == 1


def test_a_zero_window_passes_everything() -> None:
    d = Debouncer(0.0)
    assert d.feed(ev("depart"), now=0.0) == [ev("depart")]


def test_flush_releases_every_held_departure_in_order() -> None:
    d = Debouncer(1.0)
    d.feed(ev("depart", uid="c0ffee01"), now=0.0)
    d.feed(ev("depart", uid="0a1b2c3d", reader="array:1"), now=0.1)
    assert [e.uid for e in d.flush()] == ["c0ffee01", "0a1b2c3d"]


def test_a_negative_window_is_refused() -> None:
    with pytest.raises(ValueError):
        Debouncer(-1)
