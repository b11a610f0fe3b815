"""What changed at the venue since a version: the live page's stream waits on it."""

from __future__ import annotations

import threading


class Changes:
    """What changed since a version: every store write bumps the version and names the (venue, table)."""

    KEEP = 4096

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self.version = 0
        self._recent: list[tuple[int, str, str, int]] = []

    def note(self, venue: str, table: str, seq: int) -> None:
        with self._cond:
            self.version += 1
            self._recent.append((self.version, venue, table, seq))
            if len(self._recent) > self.KEEP:
                del self._recent[: self.KEEP // 2]
            self._cond.notify_all()

    def wait(self, since: int, timeout: float) -> tuple[int, dict[str, int]]:
        """Block until the version passes ``since`` (or ``timeout``); return the version and, per
        "venue/table", the highest seq noted since (an empty dict after a timeout)."""
        with self._cond:
            self._cond.wait_for(lambda: self.version > since, timeout=timeout)
            changed: dict[str, int] = {}
            for version, venue, table, seq in reversed(self._recent):  # newest first: stop at the first one seen
                if version <= since:
                    break
                key = f"{venue}/{table}"
                changed[key] = max(changed.get(key, 0), seq)
            return self.version, changed
