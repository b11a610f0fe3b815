"""No card in an Escape Master hand ever reaches a public payload, over a whole game with illegal
attempts mixed in (the check: tests/browser/hidden.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.hidden import Referee, hand_cards, play_whole_game
from tests.browser.live import LiveTable

pytestmark = pytest.mark.browser


def test_escape_master_never_shows_a_hand_card(tmp_path: Path, page: Any) -> None:
    t = LiveTable(tmp_path, "escape-master", 1, options={}, illegal_every=9)
    try:
        ref = play_whole_game(t, page)
        ref.verdict()
        # the check can fail: hands were really held, and their cards are real names
        assert len(ref.hands) > 300 and any(len(h) >= 30 for h in ref.hands.values())
    finally:
        t.close()


def test_the_check_catches_a_leak(tmp_path: Path) -> None:
    """The referee of tests/browser/hidden.py is not blind: a board or row naming a held card is reported."""
    t = LiveTable(tmp_path, "escape-master", 1, options={})
    try:
        ref = Referee(t)
        t.play(20)
        held = hand_cards(t)
        seq = t.session.log.last_seq
        ref.hands[seq] = held
        card = sorted(held)[0]
        board = t.session.board()
        ref.board("test", {**board, "scoreboard": {**board["scoreboard"], "note": f"look: {card}"}})
        ref.row("test", {"seq": seq, "move": {"do": "draw", "by": "anna", "card": card}, "verdict": {"ok": True}})
        ref.row("test", {"seq": seq, "move": {"do": "play", "card": card, "pile": 1}, "verdict": {"ok": False, "rules": ["EM-PILE"], "why": "no"}})
        assert len(ref.leaks) == 2 and all(card in leak for leak in ref.leaks)
    finally:
        t.close()
