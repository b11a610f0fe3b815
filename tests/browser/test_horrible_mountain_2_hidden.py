"""No card in a Horrible Mountain 2 hand ever reaches a public payload, over whole games (the check:
tests/browser/hidden.py). The game lays every hand open when it ends: the final board lists them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.hidden import play_whole_game
from tests.browser.live import LiveTable

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("seed, illegal_every", [(1, None), (4, 4)])
def test_horrible_mountain_2_never_shows_a_hand_card(tmp_path: Path, page: Any, seed: int, illegal_every: int | None) -> None:
    t = LiveTable(tmp_path, "horrible-mountain-2", seed, illegal_every=illegal_every, variant=seed == 4)
    try:
        ref = play_whole_game(t, page)
        final = t.session.board()
        assert final["outcome"] is not None and "hands" in final["scoreboard"]
        assert all(ref.hands.values()), "someone always holds cards"
        ref.verdict()
    finally:
        t.close()
