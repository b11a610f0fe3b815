"""bench/tap_page.py works: a short game tapped in over HTTP with phones open, every tap reaching every
phone's page (its figures are the benchmark's to print, never asserted here)."""

from __future__ import annotations

from bench.tap_page import run
from companion.games import game_ids


def test_every_tap_reaches_every_phone() -> None:
    game = sorted(game_ids())[0]
    result = run(game, moves=12, phones=4, pause=0.0, seed=3)
    assert result["taps"] >= 6 and result["failed_fetches"] == []
    assert 0 < result["p50_ms"] <= result["p99_ms"] <= result["max_ms"]
