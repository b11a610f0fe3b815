"""Every benchmark in bench/, one after another, and one table of the figures against DESIGN.md's promises.

Each benchmark runs as its own subprocess with ``--json`` (so one cannot disturb the next), under
a time limit. ``make bench`` runs this; about four minutes on a 2-core machine (``--quick``: one).
The lights and the voice (issue 25) have no promise in DESIGN.md: their figures are shown, not judged.

    .venv/bin/python bench/run.py [--quick] [--scenes 20] [--only engine bridge vision service lights voice] [--json]

Exit status 0 when every promise is kept, 1 when one is missed or a benchmark failed.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
BENCHES = ("engine", "bridge", "vision", "service", "lights", "voice")
VISION_TARGET_MEASURES = ("zone states", "cube zones", "pawn squares", "slots occupied")

Row = tuple[str, str, str, str]
"""(measure, figure, target, ok / MISSED / -- / FAILED)"""


def machine() -> dict[str, Any]:
    model = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "nproc": os.cpu_count(), "cpu": model, "python": platform.python_version(),
        "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }


def command(name: str, quick: bool, scenes: int) -> tuple[list[str], float]:
    """The command line for one benchmark and its time limit in seconds."""
    script = [sys.executable, str(HERE / f"{name}.py"), "--json"]
    if name == "engine":
        return script + (["--repeat", "2"] if quick else []), 180
    if name == "bridge":
        return script + (["--seconds", "2"] if quick else []), 240
    if name == "vision":
        return script + ["--scenes", str(3 if quick else scenes)], 420
    if name in ("lights", "voice"):  # verdicts at the table (issue 25): LED frames, tones and words
        return script + ["--count", str(40 if quick else 200)], 240
    return script + (["--quick"] if quick else []), 480


def run(name: str, quick: bool, scenes: int) -> tuple[Any, str | None, float]:
    """(parsed JSON or None, why it failed or None, seconds taken)."""
    argv, limit = command(name, quick, scenes)
    start = time.monotonic()
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=limit, cwd=HERE.parent)
    except subprocess.TimeoutExpired:
        return None, f"did not finish within {limit:.0f} s", time.monotonic() - start
    took = time.monotonic() - start
    out = done.stdout.strip()
    try:
        if name == "engine":
            return [json.loads(line) for line in out.splitlines() if line.startswith("{")], None, took
        return json.loads(out), None, took
    except json.JSONDecodeError:
        tail = (done.stderr.strip() or out)[-400:]
        return None, f"exit {done.returncode}, no JSON: {tail}", took


def mark(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def engine_rows(data: list[dict[str, Any]]) -> list[Row]:
    rows: list[Row] = []
    for g in data:
        rows.append((f"engine {g['game']}: check+apply", f"{g['moves_per_s']:,}/s", ">= 50,000/s", mark(g["moves_per_s"] >= 50_000)))
        rows.append((f"engine {g['game']}: 1,000-move replay", f"{g['replay_1000_ms']:.1f} ms", "< 50 ms", mark(g["replay_1000_ms"] < 50)))
    return rows


def bridge_rows(data: dict[str, Any]) -> list[Row]:
    rows: list[Row] = []
    rate = data["rate"]
    for key, what in (("observation", "serial line -> TAG observation"), ("verdict", "serial line -> durable verdict")):
        r = data["runs"].get(key)
        if r is None:
            continue
        whole = r["received"] == r["events"] and r["in_order"]
        rows.append((f"bridge {what}", f"{r['rate']:,.0f} ev/s{'' if whole else ', LOST/REORDERED'}",
                     f">= {rate:,.0f} ev/s, none lost", mark(whole and r["rate"] >= 0.98 * rate)))
        rows.append((f"bridge {what} at {rate:,.0f}/s", f"p50 {r['p50']:.2f} / p99 {r['p99']:.2f} ms", "p99 < 20 ms", mark(r["p99"] < 20)))
    return rows


def vision_rows(data: list[dict[str, Any]]) -> list[Row]:
    rows: list[Row] = []
    for detector in dict.fromkeys(r["detector"] for r in data):
        mine = [r for r in data if r["detector"] == detector]
        worst = max((r["median_frame_ms"] or 0.0) for r in mine)
        rows.append((f"vision {detector}: ms/frame (slowest level)", f"{worst:.1f} ms", "< 25 ms", mark(worst < 25)))
        for r in (r for r in mine if r["level"] == "middle"):
            for measure, t in r["measures"].items():
                target = measure in VISION_TARGET_MEASURES
                rows.append((f"vision {detector}: {measure} (middle, {r['scenes']} scenes)",
                             f"{100 * t['accuracy']:.2f}% of {t['scored']}", ">= 99.5%" if target else "--",
                             mark(t["accuracy"] >= 0.995) if target else "--"))
    return rows


def service_rows(data: dict[str, Any]) -> list[Row]:
    rows: list[Row] = []
    peak = 0.0
    for name, s in data["runs"].items():
        lat = s["latency_ms"]
        peak = max(peak, s["service"]["peak_rss_mb"])
        whole = s["no_loss_in_order"]
        if name.startswith("latency"):
            rows.append((f"serial -> SSE, {name.split(', ')[1]} at {s['rate_asked']:.0f}/s", f"p50 {lat['p50']:.2f} / p99 {lat['p99']:.2f} ms",
                         "p99 < 20 ms", mark(lat["p99"] < 20 and whole)))
        else:
            if whole:
                rows_seen = "none lost, in order"
            elif s["gaps"] or s["duplicates"] or s["wrong_reader"]:
                rows_seen = "LOST OR REORDERED"
            else:
                rows_seen = f"{s['undelivered']:,} undelivered at the end"
            rows.append((f"service {name} at {s['rate_asked']:,.0f}/s", f"{s['achieved_rate'] or 0:,.0f} ev/s, {rows_seen}",
                         f">= {s['rate_asked']:,.0f} ev/s, none lost", mark(whole and (s["achieved_rate"] or 0) >= 0.98 * s["rate_asked"])))
            rows.append((f"serial -> SSE, {name} at {s['rate_asked']:,.0f}/s", f"p50 {lat['p50']:.1f} / p99 {lat['p99']:.1f} ms",
                         "--", "--"))
    rows.append(("service peak memory (RSS, service process)", f"{peak:.0f} MB", "--", "--"))
    return rows


def lights_rows(data: dict[str, Any]) -> list[Row]:
    """DESIGN.md promises no figure for the lights: they are reported, not judged."""
    n = data["verdicts"]
    return [
        (f"verdict -> LED frame written ({n} verdicts)", f"p50 {data['written_p50_ms']:.2f} / p99 {data['written_p99_ms']:.2f} ms", "--", "--"),
        (f"verdict -> LED lit, simulated array ({n})", f"p50 {data['seen_p50_ms']:.2f} / p99 {data['seen_p99_ms']:.2f} ms", "--", "--"),
    ]


def voice_rows(data: dict[str, Any]) -> list[Row]:
    """Nor for the tones and words: reported, not judged."""
    n = data["verdicts"]
    return [
        (f"verdict -> tone started ({n} verdicts)", f"p50 {data['tone_p50_ms']:.2f} / p99 {data['tone_p99_ms']:.2f} ms", "--", "--"),
        (f"verdict -> words started ({n} verdicts)", f"p50 {data['words_p50_ms']:.2f} / p99 {data['words_p99_ms']:.2f} ms", "--", "--"),
        (f"espeak-ng alone, cold ({data['texts']} refusals)", f"p50 {data['espeak_p50_ms']:.1f} / p99 {data['espeak_p99_ms']:.1f} ms", "--", "--"),
    ]


ROWS: dict[str, Callable[[Any], list[Row]]] = {
    "engine": engine_rows, "bridge": bridge_rows, "vision": vision_rows, "service": service_rows,
    "lights": lights_rows, "voice": voice_rows,
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="short runs of each (about a minute in all)")
    parser.add_argument("--scenes", type=int, default=20, help="vision scenes per detector and level (default 20)")
    parser.add_argument("--only", nargs="+", choices=BENCHES, default=list(BENCHES))
    parser.add_argument("--json", action="store_true", help="print one JSON object: machine, every benchmark's figures, the table")
    args = parser.parse_args(argv)
    where = machine()
    if not args.json:
        print(f"{where['nproc']} x {where['cpu']}, Python {where['python']}, {where['date']}, load average {where['load_average']}")
    results: dict[str, Any] = {}
    table: list[Row] = []
    for name in args.only:
        if not args.json:
            print(f"running {name} ...", flush=True)
        data, failed, took = run(name, args.quick, args.scenes)
        results[name] = {"seconds": round(took, 1), "failed": failed, "figures": data}
        if failed is not None:
            table.append((f"{name} benchmark", failed.splitlines()[0][:60], "--", "FAILED"))
            continue
        try:
            table.extend(ROWS[name](data))
        except (KeyError, TypeError, ValueError) as exc:  # a changed output format is a failure to report, not a crash
            table.append((f"{name} benchmark", f"unreadable figures ({exc!r})"[:60], "--", "FAILED"))
    missed = [row for row in table if row[3] in ("MISSED", "FAILED")]
    if args.json:
        print(json.dumps({"machine": where, "results": results, "table": [list(r) for r in table], "all_kept": not missed}))
        return 1 if missed else 0
    width = max(len(r[0]) for r in table) + 2
    fig = max(len(r[1]) for r in table) + 2
    tgt = max(len(r[2]) for r in table) + 2
    print()
    print(f"{'measure':<{width}}{'figure':<{fig}}{'target':<{tgt}}")
    print("-" * (width + fig + tgt + 6))
    for measure, figure, target, status in table:
        print(f"{measure:<{width}}{figure:<{fig}}{target:<{tgt}}{status}")
    print()
    print("took: " + ", ".join(f"{n} {r['seconds']:.0f} s" for n, r in results.items()))
    service = results.get("service", {}).get("figures") or {}
    if service.get("runs"):  # latency here moves with what else the shared machine is doing
        loads = "; ".join(f"{k} {v['load_average'][0]} -> {v['load_average'][1]}" for k, v in service["runs"].items())
        print(f"machine load average during the service runs: {loads}")
    print("all promises kept" if not missed else f"{len(missed)} missed or failed: " + "; ".join(r[0] for r in missed))
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
