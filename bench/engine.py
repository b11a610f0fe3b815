"""Engine speed: moves checked and applied per second, and the time to replay a 1,000-move game.

Targets (DESIGN.md): at least 50,000 check+apply a second; a 1,000-move game replayed in < 50 ms.
Games come from each engine's seeded ``random_playout`` (a simulator; the engines have no randomness).
Times are this process's CPU time (``time.process_time``), the median of ``--repeat`` runs: the
machines are shared, and CPU time is what the engine costs whatever else is running. The table also
prints each figure's best run (the fastest) and its spread over the runs ((slowest - fastest) /
median): on a loaded machine it is often 30% or more, and a difference smaller than the spread is
noise (``bench/instructions.py`` counts instructions instead, which do not vary with the load). The
ok/SLOW verdicts judge the median.

``--against REF`` measures this tree and another commit side by side in one run. The commit is
checked out in a temporary ``git worktree`` (removed at the end). For each game, the games are made
once, by this tree's playouts, and written as notation text; two long-lived workers
(``bench/engine_worker.py``, one per tree, cwd and PYTHONPATH the tree measured, each in a
subprocess of this interpreter) read that text with their own tree's codec, so both trees measure
exactly the same moves; REF must be able to read this tree's notation of the game (a worker that
cannot says so, and the game is reported as failed). The workers are then asked for SINGLE passes
by turns: ``--passes`` pairs, each pair one check+apply pass and one replay pass of each tree,
which tree goes first alternating from pair to pair. A pass takes a few tens of milliseconds, so
both trees of a pair see the same state of the shared machine, whose speed swings by up to 1.7x
over seconds; whole rounds of runs let a slow minute fall on one tree. Each tree's column is the
median and the best of its passes; the ratio (how many times faster this tree is: check+apply/s
here / there, replay ms there / here) is computed pair by pair, and reported as the median of the
pairs' ratios with their quartiles. ok/SLOW judge this tree's median.

    .venv/bin/python bench/engine.py [--games ID ...] [--seed N] [--repeat N] [--json]
    .venv/bin/python bench/engine.py --against 5ed1253 [--passes 20] [--games ID ...] [--seed N] [--json]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import select
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, NoReturn

_BENCH = str(Path(__file__).resolve().parent)
if _BENCH not in sys.path:  # imported as bench.engine (a script has its folder first already)
    sys.path.append(_BENCH)  # last: bench/vision.py must not hide the vision package

from engine_worker import COMMANDS, PREFIX, READING, Engine, check_apply_pass, load_engine, notation_text, replay_pass  # noqa: E402 (bench/ is not a package)

from companion.core import Header, Move  # noqa: E402
from companion.games import game_ids, get_game, get_spec  # noqa: E402

TARGET_MOVES = 1000
TARGET_RATE = 50_000
TARGET_REPLAY_MS = 50.0
TREE = Path(__file__).resolve().parent.parent
WORKER = Path(__file__).resolve().parent / "engine_worker.py"
READY_TIMEOUT_S = 180.0
"""How long a worker may take to import its tree, read the games and make its untimed pass."""
GETTING_READY = "getting ready"
PASS_TIMEOUT_S = 60.0
"""How long one pass may take (a few tens of milliseconds when all is well)."""


def playout(game_id: str, seed: int) -> tuple[Header, list[Move]]:
    """The game's seeded playout, as its declaration names it (``GameSpec.playout``)."""
    header, moves = get_spec(game_id).playout(seed, TARGET_MOVES)
    return header, list(moves)


def games_of_1000_moves(game_id: str, seed: int) -> list[tuple[Header, list[Move]]]:
    """Whole games, from consecutive seeds, until they hold at least 1,000 moves between them."""
    out: list[tuple[Header, list[Move]]] = []
    total = 0
    while total < TARGET_MOVES:
        header, moves = playout(game_id, seed + len(out))
        if not moves:
            raise RuntimeError(f"{game_id}: random_playout({seed + len(out)}) made no moves")
        out.append((header, moves))
        total += len(moves)
    return out


def notation_texts(game_id: str, games: list[tuple[Header, list[Move]]]) -> list[str]:
    """Each game as notation text, with this tree's codec."""
    codec = get_game(game_id).codec
    return [notation_text(codec, header, moves) for header, moves in games]


def spread(values: list[float]) -> float:
    """How far apart the runs were: (largest - smallest) / median, in percent."""
    middle = statistics.median(values)
    return 100 * (max(values) - min(values)) / middle if middle else 0.0


def check_apply_rate(engine: Engine, games: list[tuple[Header, list[Move]]], repeat: int) -> tuple[float, float, int, int, float]:
    """The median and the best (highest) rate, the moves and illegal attempts of one run, and the
    spread of the rates."""
    rates = []
    moves = illegal = 0
    for _ in range(repeat):
        rate, moves, illegal = check_apply_pass(engine, games)
        rates.append(rate)
    return statistics.median(rates), max(rates), moves, illegal, spread(rates)


def replay_time_ms(engine: Engine, texts: list[str], total_moves: int, repeat: int) -> tuple[float, float, float]:
    """Time to replay 1,000 moves from notation text, as ``companion replay`` does (parse + judge +
    apply): the median, the best (lowest) and the spread of the runs."""
    times = [replay_pass(engine, texts, total_moves) for _ in range(repeat)]
    return statistics.median(times), min(times), spread(times)


def measure(game_ids: list[str], seed: int, repeat: int) -> list[dict[str, Any]]:
    engine = load_engine()
    rows = []
    for game_id in game_ids:
        try:
            games = games_of_1000_moves(game_id, seed)
        except (ModuleNotFoundError, AttributeError) as exc:
            print(f"{game_id}: no playout to benchmark ({exc})", file=sys.stderr)
            continue
        rate, best_rate, moves, illegal, rate_spread = check_apply_rate(engine, games, repeat)
        replay_ms, best_replay_ms, replay_spread = replay_time_ms(engine, notation_texts(game_id, games), moves, repeat)
        rows.append({
            "game": game_id, "moves": moves, "illegal": illegal,
            "moves_per_s": round(rate), "moves_per_s_best": round(best_rate),
            "replay_1000_ms": round(replay_ms, 2), "replay_1000_ms_best": round(best_replay_ms, 2),
            "rate_spread_pct": round(rate_spread), "replay_spread_pct": round(replay_spread),
        })
    return rows


def _verdicts(row: dict[str, Any]) -> tuple[str, str]:
    return (
        "ok" if row["moves_per_s"] >= TARGET_RATE else "SLOW",
        "ok" if row["replay_1000_ms"] < TARGET_REPLAY_MS else "SLOW",
    )


TARGETS = "targets: >= 50,000 check+apply/s; 1,000-move replay < 50 ms (parse + judge + apply, as `companion replay`)"


def print_table(rows: list[dict[str, Any]], repeat: int) -> None:
    print(
        f"{'game':<22}{'moves':>7}{'illegal':>9}{'check+apply/s':>15}{'best':>11}{'spread':>8}"
        f"{'1,000-move replay':>21}{'best':>12}{'spread':>8}"
    )
    for row in rows:
        ok_rate, ok_replay = _verdicts(row)
        print(
            f"{row['game']:<22}{row['moves']:>7}{row['illegal']:>9}{row['moves_per_s']:>11,} {ok_rate:<4}"
            f"{row['moves_per_s_best']:>10,}{row['rate_spread_pct']:>7}%"
            f"{row['replay_1000_ms']:>13.2f} ms {ok_replay:<4}{row['replay_1000_ms_best']:>9.2f} ms{row['replay_spread_pct']:>7}%"
        )
    print(TARGETS)
    print(f"median of {repeat} runs (ok/SLOW judge it); best: the fastest run")
    print("spread: (slowest - fastest) / median of the runs; differences smaller than it are noise")


# -- side by side with another commit ---------------------------------------------------------------


class WorkerError(RuntimeError):
    """A worker that failed, exited, or did not answer in time; the message names its tree and game.
    ``doing``: what the worker was asked for; ``told``: its last line on stderr."""

    def __init__(self, message: str, doing: str = "", told: str = "") -> None:
        super().__init__(message)
        self.doing = doing
        self.told = told

    def unreadable(self) -> bool:
        """The tree could not read a game file (engine_worker.READING) while getting ready."""
        return self.doing == GETTING_READY and self.told.startswith(PREFIX + READING)


class Worker:
    """One tree's ``bench/engine_worker.py`` for one game: started on the games' notation files,
    then asked for one pass at a time. Reads from it wait at most a bounded time."""

    def __init__(self, name: str, tree: Path, game_id: str, args: Sequence[str]) -> None:
        self.name = name
        self.tree = tree
        self.game_id = game_id
        self._buffer = b""
        self._stderr = tempfile.TemporaryFile()
        self._process = subprocess.Popen(
            [sys.executable, str(WORKER), *args],
            cwd=tree, env=dict(os.environ, PYTHONPATH=str(tree)), bufsize=0,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr,
        )

    def __enter__(self) -> Worker:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None) -> None:
        self.close(check=kind is None)

    def wait_ready(self) -> dict[str, Any]:
        """The worker's ``ready`` line: how many games and moves it read, how many it judged illegal."""
        line = self._line(READY_TIMEOUT_S, GETTING_READY)
        word, _, rest = line.partition(" ")
        try:
            info = json.loads(rest) if word == "ready" else None
        except json.JSONDecodeError:
            info = None
        if not isinstance(info, dict) or not all(isinstance(info.get(k), int) for k in ("games", "moves", "illegal")):
            self._fail(f"said {line!r} instead of ready")
        return info

    def ask(self, command: str) -> float:
        """One pass: check+apply's moves per second, or replay's milliseconds per 1,000 moves."""
        stdin = self._process.stdin
        assert stdin is not None
        try:
            stdin.write(command.encode() + b"\n")
        except BrokenPipeError:
            self._fail(f"was gone before {command}")
        line = self._line(PASS_TIMEOUT_S, command)
        try:
            value = float(line)
        except ValueError:
            self._fail(f"answered {line!r} to {command}")
        if not 0 < value < float("inf"):
            self._fail(f"answered {line!r} to {command}")
        return value

    def close(self, check: bool = True) -> None:
        """End the worker (the end of its stdin, a bounded wait, then a kill); with ``check``, an
        exit status other than 0 is an error."""
        try:
            if self._process.stdin is not None:
                self._process.stdin.close()
            try:
                self._process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
                if check:
                    self._fail("did not exit at the end of its input")
            if check and self._process.returncode != 0:
                self._fail("failed at the end of its input")
        finally:
            if self._process.stdout is not None:
                self._process.stdout.close()
            self._stderr.close()

    def _line(self, timeout: float, doing: str) -> str:
        stdout = self._process.stdout
        assert stdout is not None
        deadline = time.monotonic() + timeout
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([stdout], [], [], left)[0]:
                self._fail(f"did not answer within {timeout:.0f} s ({doing})", doing)
            chunk = os.read(stdout.fileno(), 4096)
            if not chunk:
                self._fail(f"exited ({doing})", doing)
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.decode().strip()

    def _fail(self, what: str, doing: str = "") -> NoReturn:
        if self._process.poll() is None:
            self._process.kill()
        try:
            code = self._process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            code = None
        self._stderr.seek(0)
        told = self._stderr.read().decode(errors="replace").strip().splitlines()
        last = told[-1] if told else "(nothing on stderr)"
        tail = "".join(f"\n    {line}" for line in told[-20:-1])
        raise WorkerError(
            f"{self.game_id}: the worker measuring {self.name} ({self.tree}) {what}; exit status {code}: {last}"
            + (f"\n  its stderr:{tail}" if tail else ""),
            doing,
            last,
        )


def _ratios(values: list[float]) -> tuple[float, list[float]]:
    """The median of the pairs' ratios and their quartiles (the first and the third)."""
    q1, _q2, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return round(statistics.median(values), 2), [round(q1, 2), round(q3, 2)]


def _side(ready: dict[str, Any], rates: list[float], replays: list[float]) -> dict[str, Any]:
    return {
        "moves": ready["moves"], "illegal": ready["illegal"],
        "moves_per_s": round(statistics.median(rates)), "moves_per_s_best": round(max(rates)),
        "replay_1000_ms": round(statistics.median(replays), 2), "replay_1000_ms_best": round(min(replays), 2),
    }


def against_game(ref: str, other: Path, scratch: Path, game_id: str, seed: int, passes: int) -> dict[str, Any] | None:
    """One game, both trees: ``passes`` pairs of single passes; None if the game has no playout.

    Both trees measure this tree's games, written as notation; if ``ref`` cannot read that notation
    (a field added to the game's moves since), each tree measures its own playouts of the same seeds
    instead (``engine_worker.py --own-games``), and the row says so (``"games": "own"``)."""
    try:
        games = games_of_1000_moves(game_id, seed)
    except (ModuleNotFoundError, AttributeError) as exc:
        print(f"{game_id}: no playout to benchmark ({exc})", file=sys.stderr)
        return None
    folder = scratch / "games" / game_id
    folder.mkdir(parents=True)
    files = []
    for number, text in enumerate(notation_texts(game_id, games)):
        files.append(folder / f"{number:03}.jsonl")
        files[-1].write_text(text + "\n", encoding="utf-8")
    moves = sum(len(ms) for _, ms in games)
    args = [str(f) for f in files]
    with contextlib.ExitStack() as workers:
        # REF's worker first: if it cannot read this tree's notation, it stops before it is kept.
        there = Worker(ref, other, game_id, args)
        try:
            there_ready: dict[str, Any] | None = there.wait_ready()
        except WorkerError as exc:
            there.close(check=False)
            if not exc.unreadable():
                raise
            print(f"{game_id}: {ref} cannot read this tree's notation of the game; each tree measures its own playouts", file=sys.stderr)
            args = ["--own-games", game_id, str(seed)]
            there, there_ready = Worker(ref, other, game_id, args), None
        shared = there_ready is not None
        workers.enter_context(there)
        here = workers.enter_context(Worker("this tree", TREE, game_id, args))
        ready = [here.wait_ready(), there_ready or there.wait_ready()]
        for worker, said in zip((here, there), ready):
            if shared and said["moves"] != moves:
                raise WorkerError(f"{game_id}: the worker measuring {worker.name} read {said['moves']} moves of the {moves} written")
        runs: list[dict[str, list[float]]] = [{command: [] for command in COMMANDS} for _ in (here, there)]
        sides = [(here, runs[0]), (there, runs[1])]
        for pair in range(passes):
            for command in COMMANDS:
                for worker, side in sides if pair % 2 == 0 else sides[::-1]:
                    side[command].append(worker.ask(command))
    here_rates, here_replays = runs[0]["check-apply"], runs[0]["replay"]
    there_rates, there_replays = runs[1]["check-apply"], runs[1]["replay"]
    rate_ratios = [h / t for h, t in zip(here_rates, there_rates)]
    replay_ratios = [t / h for h, t in zip(here_replays, there_replays)]
    rate_ratio, rate_quartiles = _ratios(rate_ratios)
    replay_ratio, replay_quartiles = _ratios(replay_ratios)
    return {
        "game": game_id, "moves": ready[0]["moves"], "passes": passes, "games": "same" if shared else "own",
        "here": _side(ready[0], here_rates, here_replays), "ref": _side(ready[1], there_rates, there_replays),
        "rate_ratio": rate_ratio, "rate_ratio_quartiles": rate_quartiles,
        "replay_ratio": replay_ratio, "replay_ratio_quartiles": replay_quartiles,
        "rate_ratios": [round(r, 3) for r in rate_ratios], "replay_ratios": [round(r, 3) for r in replay_ratios],
    }


def against(ref: str, game_ids: list[str], seed: int, passes: int) -> tuple[list[dict[str, Any]], list[str]]:
    """This tree and ``ref``, game by game: the rows, and the games whose measure failed (reported
    on stderr as they fail)."""
    git = ["git", "-C", str(TREE)]
    rows: list[dict[str, Any]] = []
    failed: list[str] = []
    with tempfile.TemporaryDirectory(prefix="bench-engine-") as scratch_name:
        scratch = Path(scratch_name)
        other = scratch / "tree"
        subprocess.run(git + ["worktree", "add", "--detach", "--quiet", str(other), ref], check=True)
        try:
            for game_id in game_ids:
                try:
                    row = against_game(ref, other, scratch, game_id, seed, passes)
                except WorkerError as exc:
                    print(f"engine.py: {exc}", file=sys.stderr)
                    failed.append(game_id)
                    continue
                if row is not None:
                    rows.append(row)
        finally:
            subprocess.run(git + ["worktree", "remove", "--force", str(other)], check=True)
    return rows, failed


def _ratio_text(row: dict[str, Any], key: str) -> str:
    q1, q3 = row[f"{key}_quartiles"]
    return f"{row[key]:.2f} [{q1:.2f}-{q3:.2f}]"


def print_against(ref: str, commit: str, rows: list[dict[str, Any]], passes: int) -> None:
    name = ref[:10]
    print(
        f"this tree against {ref} ({commit}): {passes} pairs of single passes in two long-lived workers,"
        " which tree goes first alternating; both trees measure the same moves unless a note below says not"
    )
    tables: tuple[tuple[str, str, str, str, Callable[[Any], str]], ...] = (
        ("check+apply/s", "moves_per_s", "rate_ratio", f"here / {name}", "{:,}".format),
        ("1,000-move replay, ms", "replay_1000_ms", "replay_ratio", f"{name} / here", "{:.2f}".format),
    )
    for number, (title, key, ratio, ratio_title, show) in enumerate(tables):
        print(f"{title:<29}{'this tree':^26}{name:^21}   {ratio_title}")
        print(f"{'game':<22}{'moves':>7}{'median':>11}{'':5}{'best':>10}{'median':>11}{'best':>10}   median [quartiles]")
        for row in rows:
            here, there = row["here"], row["ref"]
            verdict = _verdicts(here)[number]
            print(
                f"{row['game']:<22}{row['moves']:>7}{show(here[key]):>11} {verdict:<4}{show(here[key + '_best']):>10}"
                f"{show(there[key]):>11}{show(there[key + '_best']):>10}   {_ratio_text(row, ratio)}"
            )
    for row in rows:
        if row.get("games") == "own":
            print(
                f"note: {ref} cannot read this tree's notation of {row['game']}: each tree measured its own playouts"
                f" of the same seeds ({row['here']['moves']} moves here, {row['ref']['moves']} there)"
            )
        for side, who in (("here", "this tree"), ("ref", ref)):
            if row[side]["illegal"]:
                print(f"note: {who} judged {row[side]['illegal']} of the {row['moves']} moves of {row['game']} illegal (checked, not applied)")
    print(
        f"ratio: how many times faster this tree is than {ref}, pair by pair (check+apply/s here / there;"
        " replay ms there / here): the median of the pairs, and their quartiles"
    )
    print("median and best: of each tree's passes (best: the fastest)")
    print(TARGETS + "; ok/SLOW judge this tree's median")


def _at_least_two(text: str) -> int:
    value = int(text)
    if value < 2:
        raise argparse.ArgumentTypeError("at least 2 (the ratio's quartiles need two pairs)")
    return value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", nargs="*", default=[g for g in game_ids() if get_spec(g).package.startswith("companion.games.")])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=5, help="runs of each measure, without --against")
    parser.add_argument("--json", action="store_true", help="print one JSON object per game instead of a table")
    parser.add_argument("--against", metavar="REF", help="a commit to measure side by side with this tree")
    parser.add_argument("--passes", type=_at_least_two, default=20, help="with --against: pairs of single passes, one of each tree")
    args = parser.parse_args(argv)
    if args.against:
        found = subprocess.run(
            ["git", "-C", str(TREE), "rev-parse", "--short", "--verify", "--quiet", args.against + "^{commit}"],
            capture_output=True, text=True, check=False,
        )
        if found.returncode != 0:
            parser.error(f"--against {args.against}: not a commit of {TREE}")
        rows, failed = against(args.against, args.games, args.seed, args.passes)
        if args.json:
            for row in rows:
                print(json.dumps(row))
        else:
            print_against(args.against, found.stdout.strip(), rows, args.passes)
        if failed:
            print(f"engine.py: not measured against {args.against}: {', '.join(failed)} (see above)", file=sys.stderr)
            return 1
        return 0
    rows = measure(args.games, args.seed, args.repeat)
    if args.json:
        for row in rows:
            print(json.dumps(row))
        return 0
    print_table(rows, args.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
