"""The service under test for crash safety: a real session on a real log, fed observations on stdin.

Prints ``ACK <seq> <scoreboard JSON>`` once a batch is durable (from the session's listener, which
runs only after the commit). The parent SIGKILLs this process at random moments.
"""

from __future__ import annotations

import json
import sys

from companion.core import Header, Observation, ObservationKind
from companion.games import get_game
from companion.log.store import GameLog
from companion.referee.session import Session


def main() -> None:
    log_path, header_json = sys.argv[1], sys.argv[2]
    header = Header(**json.loads(header_json))
    game = get_game(header.game)
    game_log = GameLog(log_path)
    session = Session(game, game_log, None if game_log.header() else header)
    out = sys.stdout

    def ack(rows: list, board: dict) -> None:  # type: ignore[type-arg]
        if rows:
            out.write(f"ACK {rows[-1].seq} {json.dumps(board['scoreboard'], sort_keys=True)}\n")
            out.flush()

    session.subscribe(ack)
    out.write(f"READY {game_log.last_seq} {json.dumps(session.board()['scoreboard'], sort_keys=True)}\n")
    out.flush()
    session.start()
    for line in sys.stdin:
        obs = json.loads(line)
        session.submit(Observation(obs["source"], obs["t"], ObservationKind(obs["kind"]), obs["payload"]))
    session.stop(timeout=30)


if __name__ == "__main__":
    main()
