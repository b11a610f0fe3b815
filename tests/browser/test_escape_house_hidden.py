"""No card in an Escape House hand ever reaches a public payload, over a whole game (the check:
tests/browser/hidden.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.hidden import play_whole_game
from tests.browser.live import LiveTable

pytestmark = pytest.mark.browser


def test_escape_house_never_shows_a_hand_card(tmp_path: Path, page: Any) -> None:
    t = LiveTable(tmp_path, "escape-house", 2)
    try:
        ref = play_whole_game(t, page)
        assert ref.leaks == [], f"{len(ref.leaks)} leaks, the first: {ref.leaks[:3]}"
    finally:
        t.close()
