"""Where a slow tap waits (bench/tap_page.py --trace): the service's side of the timeline.

In the service process (:func:`install`) every request is stamped with one monotonic clock (shared by
the phones' process on Linux) at three points: when waitress queued it for a worker thread (the
request fully read by its main loop), when a worker began it, and when its answer's last byte was
handed back to waitress; with the worker thread's CPU time over it (wall minus CPU: waiting for the
interpreter lock or a core). Beside those: every garbage collection's pause, and when each batch of
events was put on the open streams. The phones stamp each request with ``X-Bench-Id`` so the two
sides meet; :func:`report` lays the slowest taps out.
"""

from __future__ import annotations

import gc
import statistics
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any

Record = dict[str, Any]


class ServiceTrace:
    """The service's records, appended from any thread (list.append is atomic)."""

    def __init__(self) -> None:
        self.requests: list[Record] = []
        self.gc_pauses: list[tuple[float, float, int]] = []
        self.broadcasts: list[float] = []
        self.warms: list[tuple[float, float]] = []
        self.appends: list[tuple[float, float]] = []
        self.idle_workers: list[tuple[float, int]] = []
        self._gc_started = 0.0

    def dump(self) -> Record:
        return {"requests": self.requests, "gc": self.gc_pauses, "broadcasts": self.broadcasts, "warms": self.warms,
                "appends": self.appends, "idle_workers": self.idle_workers,
                "switch_interval_s": sys.getswitchinterval(), "threads": threading.active_count()}


def install(web: Any) -> ServiceTrace:
    """Stamp ``web``'s requests (a started :class:`companion.app.service.WebServer`), its collections and
    its streams' broadcasts."""
    from companion.log.store import GameLog
    from web.broadcast import Stream
    from web.offers import OfferWarmer

    trace = ServiceTrace()
    dispatcher = web.server.task_dispatcher
    queue_it = dispatcher.add_task

    def add_task(channel: Any) -> None:
        channel.bench_queued = now = time.monotonic()  # waitress queues the channel whose request is read
        trace.idle_workers.append((now, len(dispatcher.threads) - dispatcher.active_count - len(dispatcher.queue)))
        queue_it(channel)

    dispatcher.add_task = add_task

    def on_gc(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            trace._gc_started = time.monotonic()
        else:
            trace.gc_pauses.append((trace._gc_started, time.monotonic(), info["generation"]))

    gc.callbacks.append(on_gc)
    put_many = Stream.put_many

    def stamped_put_many(self: Stream, events: Any) -> None:
        trace.broadcasts.append(time.monotonic())
        put_many(self, events)

    Stream.put_many = stamped_put_many  # type: ignore[method-assign]
    _time_calls(OfferWarmer, "_warm", trace.warms)
    _time_calls(GameLog, "append_many", trace.appends)
    inner = web.app.wsgi_app

    def timed(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        began, cpu = time.monotonic(), time.thread_time()
        ident = environ.get("HTTP_X_BENCH_ID")
        disconnected = environ.get("waitress.client_disconnected")
        queued = getattr(getattr(disconnected, "__self__", None), "bench_queued", began)
        body: Iterable[bytes] = inner(environ, start_response)
        if ident is None:
            return body

        def answered() -> Iterator[bytes]:
            try:
                yield from body
            finally:
                close = getattr(body, "close", None)  # WSGI: the server closes what the app returned
                if close is not None:
                    close()
            trace.requests.append({"id": ident, "path": environ.get("PATH_INFO", ""), "queued": queued,
                                   "began": began, "ended": time.monotonic(), "cpu": time.thread_time() - cpu})

        return answered()

    web.app.wsgi_app = timed
    return trace


def _time_calls(owner: type, name: str, into: list[tuple[float, float]]) -> None:
    """Record when each call of ``owner.name`` began and ended."""
    wrapped = getattr(owner, name)

    def timed(*args: Any, **kwargs: Any) -> Any:
        began = time.monotonic()
        try:
            return wrapped(*args, **kwargs)
        finally:
            into.append((began, time.monotonic()))

    setattr(owner, name, timed)


def _overlap(spans: list[tuple[float, float]], start: float, end: float) -> float:
    return sum(max(0.0, min(e, end) - max(s, start)) for s, e in spans)


def _ms(x: float) -> float:
    return round(1000 * x, 1)


def report(taps: list[Record], service: Record, slowest: int = 8) -> list[str]:
    """Lines laying out the ``slowest`` taps and the same parts over every tap.

    ``taps``: per tap, ``t0``, ``post`` (the POST's client record), ``phones`` ({name: {"event": t,
    "fetches": [client records]}}) and ``done``. A client record is ``{"id", "path", "sent", "answered"}``.
    """
    by_id = {r["id"]: r for r in service["requests"]}
    lines = [f"service: switch interval {service['switch_interval_s'] * 1000:.1f} ms, "
             f"{service['threads']} threads alive, {len(service['gc'])} collections "
             f"(longest {max((_ms(e - s) for s, e, _ in service['gc']), default=0.0)} ms)"]

    def parts(tap: Record) -> Record:
        last = max(tap["phones"], key=lambda name: tap["phones"][name]["done"])
        phone = tap["phones"][last]
        fetches = []
        for each in phone["fetches"]:
            seen = by_id.get(each["id"])
            if seen is None:
                continue
            fetches.append({"path": each["path"].rsplit("/", 1)[-1], "to_queue": seen["queued"] - each["sent"],
                            "queue": seen["began"] - seen["queued"], "handle": seen["ended"] - seen["began"],
                            "cpu": seen["cpu"], "back": each["answered"] - seen["ended"]})
        post = by_id.get(tap["post"]["id"], {})
        in_window = [(s, e) for s, e, _ in service["gc"] if tap["t0"] <= s <= tap["done"]]
        puts = [b for b in service["broadcasts"] if tap["t0"] <= b <= tap["done"]]
        idle = [n for at, n in service["idle_workers"] if tap["t0"] <= at <= tap["done"]]
        appended = [e - s for s, e in service["appends"] if tap["t0"] <= s <= tap["done"]]
        return {"total": tap["done"] - tap["t0"], "last": last,
                "post": tap["post"]["answered"] - tap["t0"],
                "post_handle": post.get("ended", 0.0) - post.get("began", 0.0), "post_cpu": post.get("cpu", 0.0),
                "first_put": (min(puts) - tap["t0"]) if puts else float("nan"),
                "event": phone["event"] - tap["t0"], "fetches": fetches,
                "gc": sum(e - s for s, e in in_window), "gcs": len(in_window),
                "warming": _overlap(service["warms"], tap["t0"], tap["done"]),
                "append": sum(appended), "idle_min": min(idle, default=-1),
                "others_queue": sum(max(0.0, by_id[c["id"]]["began"] - by_id[c["id"]]["queued"])
                                    for p in tap["phones"].values() for c in p["fetches"] if c["id"] in by_id)}

    laid = sorted((parts(t) for t in taps), key=lambda p: -p["total"])
    lines.append("slowest taps (ms from the tap; the last phone's fetches: to-queue / queue / handle (cpu) / back):")
    for p in laid[:slowest]:
        fetched = "; ".join(f"{f['path']} {_ms(f['to_queue'])}/{_ms(f['queue'])}/{_ms(f['handle'])} ({_ms(f['cpu'])})/{_ms(f['back'])}"
                            for f in p["fetches"])
        lines.append(f"  {_ms(p['total'])}: move answered {_ms(p['post'])} (handled {_ms(p['post_handle'])}, cpu {_ms(p['post_cpu'])}), "
                     f"put on streams {_ms(p['first_put'])}, {p['last']}'s event {_ms(p['event'])}; {fetched}; "
                     f"gc {_ms(p['gc'])} in {p['gcs']}; every request's queue {_ms(p['others_queue'])}; "
                     f"log append {_ms(p['append'])}; warmer busy {_ms(p['warming'])}; fewest idle workers {p['idle_min']}")

    def mean_of(rows: list[Record], key: str) -> float:
        return _ms(statistics.fmean(r[key] for r in rows)) if rows else 0.0

    def fetch_mean(rows: list[Record], key: str) -> float:
        values = [f[key] for r in rows for f in r["fetches"]]
        return _ms(statistics.fmean(values)) if values else 0.0

    top = laid[: max(1, len(laid) // 20)]
    for label, rows in (("slowest 5%", top), ("every tap", laid)):
        lines.append(f"{label} (mean ms): total {mean_of(rows, 'total')}, move answered {mean_of(rows, 'post')}, "
                     f"last phone's event {mean_of(rows, 'event')}, its fetch to-queue {fetch_mean(rows, 'to_queue')}, "
                     f"queue {fetch_mean(rows, 'queue')}, handle {fetch_mean(rows, 'handle')} (cpu {fetch_mean(rows, 'cpu')}), "
                     f"back {fetch_mean(rows, 'back')}; gc {mean_of(rows, 'gc')}; every request's queue {mean_of(rows, 'others_queue')}; "
                     f"log append {mean_of(rows, 'append')}; warmer busy {mean_of(rows, 'warming')}; "
                     f"fewest idle workers {min((r['idle_min'] for r in rows), default=-1)}")
    return lines
