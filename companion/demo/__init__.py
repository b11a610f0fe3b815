"""``companion demo``: the whole pipeline with a simulated reader array and a scripted game.

A game of Escape Master is played at table speed: cards land on (and stack up on) the readers of a
simulated array, whose real firmware polls a simulated field and writes its frames down a
pseudo-terminal (companion/demo/rig.py); the real bridge reads the frames, the table model turns them into observations, the
session judges and logs them, and the scoreboard on localhost follows live. After every turn the demo
checks that the real pipeline reached the board the game's own simulation expects; where a tap was
read otherwise, the demo's referee undoes it and enters the move by hand (as a real referee would),
and the summary counts those fixes.
"""

from __future__ import annotations

import logging
import shutil
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from companion.app.config import WebConfig
from companion.core import Observation, ObservationKind
from companion.demo.escape_master import Lift, Say, Script, Tap, Turn, build_script, deck
from companion.demo.rig import DemoTable
from companion.core.errors import CompanionError
from companion.games import get_game
from companion.log.store import GameLog, LogRow
from companion.app.service import new_pin, print_welcome, start_web, table_secret
from companion.referee.session import Session

log = logging.getLogger(__name__)

SETTLE_TIMEOUT_S = 10.0
REFEREE = "demo:referee"


class DemoError(CompanionError):
    """The pipeline did not reach the board the scripted game expects, even after a referee's fix."""


@dataclass
class Tally:
    turns: int = 0
    taps: int = 0
    entries: int = 0
    fixes: int = 0
    illegal: int = 0
    beaten: int = 0


def _wait_for_rows(session: Session, after: int, count: int) -> list[LogRow]:
    """The rows the last ``count`` actions produced (readers and entries; health notes are skipped)."""
    deadline = time.monotonic() + SETTLE_TIMEOUT_S
    while True:
        rows = [r for r in session.log.rows(after=after) if r.kind in ("tag", "move", "undo")]
        if len(rows) >= count:
            return rows
        if time.monotonic() > deadline:
            raise DemoError(f"the pipeline produced {len(rows)} of {count} rows within {SETTLE_TIMEOUT_S:.0f} s")
        time.sleep(0.005)


def _reached(session: Session, turn: Turn) -> bool:
    board = session.board()["scoreboard"]
    return all(board.get(k) == v for k, v in turn.expected_board.items() if k not in turn.settles_later)


def _play_turn(session: Session, table: DemoTable, turn: Turn, speed: float, stop: threading.Event, tally: Tally) -> None:
    before = session.log.last_seq
    for action in turn.actions:
        if speed > 0 and stop.wait(action.pause / speed):
            return
        if isinstance(action, Tap):
            table.tap(action.zone, action.card)
            tally.taps += 1
        elif isinstance(action, Lift):
            table.lift(action.zone, action.card)
        elif isinstance(action, Say):
            session.submit(Observation(REFEREE, time.time(), ObservationKind.MOVE, action.move))
            tally.entries += 1
    rows = _wait_for_rows(session, before, len(turn.actions))
    if _reached(session, turn):
        return
    # The table read it otherwise: the referee takes back what was applied and enters the move.
    tally.fixes += 1
    applied = sum(1 for r in rows if r.verdict is not None and r.verdict.get("ok"))
    log.info("turn %d: the readers' reading differs from the script; the referee fixes it", tally.turns)
    for _ in range(applied):
        session.process(Observation(REFEREE, time.time(), ObservationKind.UNDO, {}))
    if turn.legal:
        for move in turn.intended:
            data = session.game.codec.to_json(move)
            data.pop("t", None)
            session.process(Observation(REFEREE, time.time(), ObservationKind.MOVE, data))
    if not _reached(session, turn):
        raise DemoError(f"turn {tally.turns}: the board differs from the scripted game even after the referee's fix")


def play(session: Session, table: DemoTable, script: Script, speed: float, stop: threading.Event) -> Tally:
    tally = Tally(illegal=script.illegal, beaten=script.beaten)
    for turn in script.turns:
        if stop.is_set():
            break
        _play_turn(session, table, turn, speed, stop, tally)
        tally.turns += 1
    return tally


def run_demo(
    folder: Path,
    host: str = "127.0.0.1",
    port: int = 8000,
    speed: float = 1.0,
    seed: int = 7,
    serve_after: bool = True,
    stop: threading.Event | None = None,
) -> Tally:
    """Set up the simulated table, serve the scoreboard, play the scripted game; returns the tally."""
    stop = stop or threading.Event()
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    script = build_script(seed=seed)
    game = get_game(script.header.game)
    game_log = GameLog(folder / f"{game.id}.sqlite")
    session = Session(game, game_log, script.header)
    session.start()
    pin = new_pin()
    secret = table_secret(folder / f"{game.id}.secret")
    web = start_web(session, WebConfig(host=host, port=port, threads=32), pin, secret)
    table = DemoTable(session, deck(), folder)
    try:
        print(f"{game.title} demo: {len(script.turns)} turns, {script.illegal} illegal plays, {script.beaten} beaten to the pile")
        from web.links import links

        print_welcome(
            web.url, None, pin, {p: links(web.app).path_for(p) for p in session.header.players}, folder / f"{game.id}.access"
        )
        print(f"log: {game_log.path}  (every tag, move and verdict; `companion log verify {game_log.path}`)")
        tally = play(session, table, script, speed, stop)
        rows = game_log.verify()
        outcome = game.outcome(session.state)
        print(
            f"done: {tally.turns} turns, {tally.taps} taps through the reader array, {tally.entries} entries, "
            f"{tally.fixes} referee fixes; log of {rows} rows verified"
        )
        print(f"outcome: {outcome.to_json() if outcome else 'game not finished'}")
        if serve_after and not stop.is_set():
            print("the scoreboard stays up; Ctrl-C to stop")
            while not stop.wait(1.0):
                pass
        return tally
    finally:
        table.close()
        web.close()
        session.stop()
        game_log.close()
