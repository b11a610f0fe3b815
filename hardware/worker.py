"""A reader's thread: started once, stopped on request, joined with a bounded wait.

The nfcpy reader and the serial bridge each run one loop in one thread until asked to stop; this
is that lifecycle, once. Subclasses set ``thread_name`` and implement ``_run``, which must return
soon after ``self._stop`` is set.
"""

from __future__ import annotations

import logging
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable

Around = Callable[[Callable[[], None]], Callable[[], None]]
"""Wraps a thread's body (a profiler in a benchmark); it changes nothing inside."""

log = logging.getLogger(__name__)


class ReaderThread(ABC):
    def __init__(self) -> None:
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    @abstractmethod
    def thread_name(self) -> str:
        """Names the thread (and the reader, in messages)."""

    @abstractmethod
    def _run(self) -> None: ...

    def start(self, around: Around | None = None) -> None:
        """Start the thread; ``around`` wraps its body (see :data:`Around`)."""
        if self._thread is not None:
            raise RuntimeError(f"{self.thread_name} is already running")
        self._stop.clear()
        body = around(self._run) if around is not None else self._run
        self._thread = threading.Thread(target=body, name=self.thread_name, daemon=True)
        self._thread.start()

    def request_stop(self) -> None:
        """Ask the thread to stop without waiting (several readers then stop in parallel)."""
        self._stop.set()

    def stop(self, timeout: float = 5.0) -> None:
        """Ask the thread to stop and wait for it, at most ``timeout`` seconds."""
        self._stop.set()
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.join(timeout)
            if thread.is_alive():
                log.error("%s did not stop within %.1f s", self.thread_name, timeout)

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()
