"""Everest: a pawn set down where no plan put it -> the referee's alert, on the wall clock (issue 21).

The sensor runner plays Everest's whole-game.jsonl up to the first move that moves the yeti (rendered
frames through the real vision pipeline, the real session and its SQLite log). Then a hand sets one
yeti down on a square next to its own, and the camera runs at table speed: a frame every 1/FPS s on
the wall clock (the hand's frames first, then the table), each read by ``VisionPipeline.process``;
the view it settles goes to the session, which judges it against the state and writes the alert.
Two moments per run, from the hand's first frame:

- settled: the frame at which the pipeline reported the grid's view (the camera's clock), and how far
  behind that frame's time the pipeline read it (on this machine the rendering of the simulated
  camera's frames shares the cores with the pipeline: a real camera renders nothing);
- alert: the session's listener is told of the alert row (written durably, published to the screens),
  from the hand's first frame on the wall clock, and from the settled view reaching the table model.

    .venv/bin/python bench/pawn_alert.py [--runs 3] [--json]

Each run is a fresh table. The pawn is set back between runs, so each alert is raised afresh.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

# bench/vision.py would shadow the vision package: run from the repo root, without this folder on the path
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
ROOT = str(_HERE.parent)
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)
from companion.contract.sensors import Pawns  # noqa: E402
from companion.core import JsonObject, Observation  # noqa: E402
from companion.demo.camera import FPS  # noqa: E402
from companion.demo.measure import table_games  # noqa: E402
from companion.demo.runner import SensorRun  # noqa: E402
from companion.games import get_spec  # noqa: E402
from companion.log.store import LogRow  # noqa: E402
from tests.games.everest_scenes import a_misplaced_pawn  # noqa: E402

SPEC = get_spec("everest")
GAME = next(g for g in table_games(SPEC, 0) if g.name == "whole-game.jsonl")


def one_run(folder: Path) -> dict[str, float]:
    run = SensorRun(SPEC, GAME.header, folder, fast=True)
    try:
        _, squares, player, wrong = a_misplaced_pawn(run, GAME)  # up to the first move that moved the yeti
        alerted = threading.Event()
        at: list[float] = []

        def listen(rows: list[LogRow], board: JsonObject) -> None:
            if not alerted.is_set() and any(r.alert is not None and r.alert.get("zone") == "grid" for r in rows):
                at.append(time.time())
                alerted.set()

        unsubscribe = run.session.subscribe(listen)
        assert run.camera is not None
        reached: list[float] = []
        sink = run.camera.sink

        def timed(observation: Observation) -> object:
            reached.append(time.time())  # the pipeline has just reported the settled view
            return sink(observation)

        run.camera.sink = timed
        reading: list[float] = []
        process = run.camera.pipeline.process

        def read(frame: Any) -> Any:
            begun = time.perf_counter()
            try:
                return process(frame)
            finally:
                reading.append(time.perf_counter() - begun)  # the pipeline's own time on each frame

        run.camera.pipeline.process = read  # type: ignore[method-assign]
        run.camera.hand, run.camera.fast = True, False  # table speed: every frame, on the wall clock
        run.table.apply(Pawns("grid", {**squares, player: wrong}))
        shown = run.camera.show(run.table)
        if not alerted.wait(10.0):
            raise SystemExit("no alert within 10 s")
        unsubscribe()
        # at table speed the camera's clock is the wall clock: ``began`` is when the hand's first
        # frame was taken (the fast frames before may have left it ahead of the wall: it waited)
        settled_wall = reached[0] - shown.began
        return {"settled_s": shown.settle_s, "behind_s": settled_wall - shown.settle_s, "judged_s": at[0] - reached[0],
                "alert_s": at[0] - shown.began, "frames": float(shown.frames), "read_max_s": max(reading),
                "read_median_s": statistics.median(reading)}
    finally:
        run.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(args.runs):
            results.append(one_run(Path(tmp) / f"run-{k + 1}"))
    summary: dict[str, Any] = {
        "runs": args.runs,
        "settled_s": [round(r["settled_s"], 3) for r in results],
        "behind_s": [round(r["behind_s"], 3) for r in results],
        "judged_s": [round(r["judged_s"], 3) for r in results],
        "alert_s": [round(r["alert_s"], 3) for r in results],
        "read_median_ms": round(1000 * statistics.median(r["read_median_s"] for r in results), 1),
        "read_max_ms": round(1000 * max(r["read_max_s"] for r in results), 1),
        "alert_median_s": round(statistics.median(r["alert_s"] for r in results), 3),
        "alert_max_s": round(max(r["alert_s"] for r in results), 3),
    }
    if args.json:
        print(json.dumps(summary))
    else:
        print(f"{args.runs} runs, a pawn set down where no plan put it (the hand's first frame) -> the alert")
        print(f"  the pipeline settled the grid's view after (camera clock): {', '.join(f'{s:.2f} s' for s in summary['settled_s'])}")
        print(f"  the settled frame read that much after its time (frames rendered and read late): {', '.join(f'{s:.2f} s' for s in summary['behind_s'])}")
        print(f"  the view to the alert (table model, session, log): {', '.join(f'{s:.3f} s' for s in summary['judged_s'])}")
        print(f"  the session's alert after (wall clock): {', '.join(f'{s:.2f} s' for s in summary['alert_s'])}")
        print(f"  median {summary['alert_median_s']:.2f} s, longest {summary['alert_max_s']:.2f} s")
        print(f"  the pipeline's own time a frame: median {summary['read_median_ms']:.1f} ms, longest {summary['read_max_ms']:.1f} ms (a frame every {1000 / FPS:.0f} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
