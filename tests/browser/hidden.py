"""No hidden card ever reaches a public payload, over whole games: the harness of the games' own
tests (tests/browser/test_<game>_hidden.py), for every game whose hands are secret (its scene says so,
tests/games/scenes.py).

A whole simulator game (with illegal attempts mixed in, where the test asks) is played through a
served Session. After every row we note every card then held in a hand (as the game's scene reads
a player's own view: dealt and drawn face down, seen only by its holder) and check:

- ``/api/board`` after that row, and the page's board panel now and then in Chromium;
- every public row (``/api/log``) against the hands just after it;
- every event on one ``/events`` stream that watched the whole game (rows and boards).

Which cards are hidden when: a card is hidden while it is in a hand. A row is judged against the
hands right after it (a card discarded face up and later drawn again was public *then*, not now).
A card a move itself shows on the table is fine even if it stays in a hand: an illegal play (the
card was laid on a pile, then taken back) and the verbs the game's scene names (``shown_by_move``).
A game may lay every hand open when it ends (the scoreboard's ``hands``): the final board is exempt
from the board check, and that key must appear only then.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from companion.games import get_spec
from tests.browser.live import LiveTable, seen
from tests.games.scenes import Hands, scene
from tests.leakcheck import board_names, named, shown_by
from tests.serving import SSEReader

PAGE_EVERY = 60
"""Moves between two looks at the page in Chromium (every move is checked through the API)."""


def secret_hands(t: LiveTable) -> Hands:
    hands = scene(get_spec(t.game.id)).hands
    assert hands is not None and hands.secret, f"{t.game.id} keeps no hand secret"
    return hands


def hand_cards(t: LiveTable) -> set[str]:
    return secret_hands(t).held(t.game, t.session.state, t.header.players)


class Referee:
    """Collects every leak (rather than stopping at the first) so a failure shows the pattern."""

    def __init__(self, t: LiveTable) -> None:
        self.t = t
        self.shown_by_move = secret_hands(t).shown_by_move
        self.hands: dict[int, set[str]] = {}
        self.leaks: list[str] = []

    def board(self, where: str, board: dict[str, Any]) -> None:
        found, early = board_names(board, self.hands[board["seq"]])
        if early:
            self.leaks.append(f"{where}: the scoreboard lists hands while the game goes on")
        if found:
            self.leaks.append(f"{where} (row {board['seq']}): shows {sorted(found)}, held in a hand")

    def row(self, where: str, row: dict[str, Any]) -> None:
        found = named(json.dumps(row), self.hands[row["seq"]]) - shown_by(row, self.shown_by_move)
        if found:
            move = row.get("move") or {}
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
