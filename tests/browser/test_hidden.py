"""No hidden card ever reaches a public payload, over whole games.

A whole simulator game of Escape Master and of Horrible Mountain 2 (with illegal attempts mixed in)
is played through a served Session. After every row we note every card then held in a hand
(``game.view(state, P)["hand"]``: dealt and drawn face down, seen only by its holder) and check:

- ``/api/board`` after that row, and the page's board panel now and then in Chromium;
- every public row (``/api/log``) against the hands just after it;
- every event on one ``/events`` stream that watched the whole game (rows and boards).

Which cards are hidden when: a card is hidden while it is in a hand. A row is judged against the
hands right after it (a card discarded face up and later drawn again was public *then*, not now).
A card a move itself shows on the table is fine even if it stays in a hand: an illegal play
(the card was laid on a pile, then taken back: EM-BEATEN, EM-PILE) and an Escape Master half
combination taken back (``withdraw``: it lay face up on the pile). Horrible Mountain 2 lays every
hand open when the game ends (the scoreboard's ``hands``), so the final board is exempt from the
board check, and that key must appear only then.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.test_games import LiveTable, seen
from tests.serving import SSEReader

pytestmark = pytest.mark.browser

PAGE_EVERY = 60
"""Moves between two looks at the page in Chromium (every move is checked through the API)."""

SHOWN_BY_MOVE = {"escape-master": {"withdraw", "half"}, "horrible-mountain-2": set(), "escape-house": set()}
"""Verbs whose named card lay face up on the table even though it is (back) in a hand."""


def hand_of(game_id: str, view: dict[str, Any]) -> list[str]:
    """The cards of a player's own hand, as that player's view names them."""
    if game_id == "escape-house":  # {"you": {"hand": [{"id", "name", "kind"}]}}
        return [c["id"] for c in (view.get("you") or {}).get("hand") or []]
    return list(view.get("hand") or [])


def hand_cards(t: LiveTable) -> set[str]:
    state = t.session.state
    return {card for p in t.header.players for card in hand_of(t.game.id, t.game.view(state, p))}


def named(text: str, cards: set[str]) -> set[str]:
    """Which of ``cards`` appear in ``text`` as whole card names (teen-1 is not inside teen-10)."""
    if not cards:
        return set()
    pattern = r"(?<![\w-])(" + "|".join(re.escape(c) for c in sorted(cards, key=len, reverse=True)) + r")(?![\w-])"
    return set(re.findall(pattern, text))


def move_cards(move: Any) -> set[str]:
    """Every string in a public move's fields (the cards it shows), however nested."""
    out: set[str] = set()
    stack = [move]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.add(item)
        elif isinstance(item, dict):
            stack.extend(v for k, v in item.items() if k not in ("by", "do", "t"))
        elif isinstance(item, list):
            stack.extend(item)
    return out




class Referee:
    """Collects every leak (rather than stopping at the first) so a failure shows the pattern."""

    def __init__(self, t: LiveTable) -> None:
        self.t = t
        self.hands: dict[int, set[str]] = {}
        self.leaks: list[str] = []

    def board(self, where: str, board: dict[str, Any]) -> None:
        held = self.hands[board["seq"]]
        scoreboard = dict(board["scoreboard"])
        if "hands" in scoreboard:
            if board["outcome"] is None:
                self.leaks.append(f"{where}: the scoreboard lists hands while the game goes on")
            scoreboard.pop("hands")
        found = named(json.dumps({**board, "scoreboard": scoreboard}), held)
        if found:
            self.leaks.append(f"{where} (row {board['seq']}): shows {sorted(found)}, held in a hand")

    def row(self, where: str, row: dict[str, Any]) -> None:
        held = self.hands[row["seq"]]
        move = row.get("move") or {}
        shown: set[str] = set()
        illegal = row.get("verdict") is not None and not row["verdict"]["ok"]
        if illegal or move.get("do") in SHOWN_BY_MOVE[self.t.game.id]:
            shown = move_cards(move)
        found = named(json.dumps(row), held) - shown
        if found:
            self.leaks.append(f"{where} (row {row['seq']}, {move.get('do')}): names {sorted(found)}, held in a hand")

    def verdict(self) -> None:
        """Fail on any leak."""
        assert self.leaks == [], f"{len(self.leaks)} leaks, the first: {self.leaks[:3]}"


def log_rows(t: LiveTable) -> Iterator[dict[str, Any]]:
    after = 0
    while True:
        page = t.served.get_json(f"/api/log?after={after}&limit=500")
        assert isinstance(page, dict)
        yield from page["rows"]
        if not page["rows"] or page["next"] >= page["end"]:
            return
        after = page["next"]


def play_whole_game(t: LiveTable, page: Any) -> Referee:
    ref = Referee(t)
    ref.hands[t.session.log.last_seq] = hand_cards(t)
    stream = SSEReader(t.served.port, "/events?last=0")
    try:
        page.goto(t.base + "/")
        page.wait_for_selector("#live.on", timeout=10_000)
        for n, move in enumerate(t.moves, start=1):
            t.feed(move)
            t.played += 1
            seq = t.session.log.last_seq
            ref.hands[seq] = hand_cards(t)
            status, _, body = t.served.get("/api/board")
            assert status == 200
            ref.board("/api/board", json.loads(body))
            if n % PAGE_EVERY == 0 or n == len(t.moves):
                seen(page, "boardSeq", seq)
                if t.session.board()["outcome"] is None:
                    found = named(page.inner_html("#board"), ref.hands[seq])
                    if found:
                        ref.leaks.append(f"the scoreboard page (row {seq}): shows {sorted(found)}, held in a hand")
        assert t.game.outcome(t.session.state) is not None, "the playout should be a whole game"
        for row in log_rows(t):
            ref.row("/api/log", row)
        last = t.session.log.last_seq
        rows = boards = 0
        while True:
            event = stream.next_event()
            if event.get("event") not in ("row", "board"):
                continue
            data: dict[str, Any] = json.loads(event["data"])
            if event.get("event") == "row":
                rows += 1
                ref.row("/events row", data)
            elif event.get("event") == "board":
                boards += 1
                ref.board("/events board", data)
                if data["seq"] == last:
                    break
        assert rows == last, "the stream carried every row, the header too"
        # A stream sends only the newest of the boards waiting for it, so a slow reader gets fewer
        # boards than moves; every row still comes, and the last board is the final one.
        assert boards >= 1
    finally:
        stream.close()
    return ref


def test_escape_master_never_shows_a_hand_card(tmp_path: Path, page: Any) -> None:
    t = LiveTable(tmp_path, "escape-master", 1, options={}, illegal_every=9)
    try:
        ref = play_whole_game(t, page)
        ref.verdict()
        # the check can fail: hands were really held, and their cards are real names
        assert len(ref.hands) > 300 and any(len(h) >= 30 for h in ref.hands.values())
    finally:
        t.close()


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


def test_escape_house_never_shows_a_hand_card(tmp_path: Path, page: Any) -> None:
    t = LiveTable(tmp_path, "escape-house", 2)
    try:
        ref = play_whole_game(t, page)
        assert ref.leaks == [], f"{len(ref.leaks)} leaks, the first: {ref.leaks[:3]}"
    finally:
        t.close()


def test_the_check_catches_a_leak(tmp_path: Path) -> None:
    """The referee above is not blind: a board or row naming a held card is reported."""
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
