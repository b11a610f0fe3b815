"""A bounded wait for the system clock to be synchronised, before the service starts.

A Raspberry Pi has no real-time clock: until NTP has set it, the clock is where the last shutdown
left it (systemd-timesyncd restores that from /var/lib/systemd/timesync/clock at time-set.target),
and every table time and log row would carry it. systemd's own wait, systemd-time-wait-sync.service,
waits for ever (its unit says ``TimeoutStartSec=infinity``; systemd issue #14061, PR #26813 was
turned down: "configure this locally ... via a simple drop-in"), so a table with no network would
never start. This wait is bounded instead: it returns when the clock is synchronised, or at a
deadline counted from *boot*, so a restart long after boot (a crash, ``systemctl restart``) never
waits again, and says which.

The clock counts as synchronised as systemd-time-wait-sync judges it (src/time-wait-sync/
time-wait-sync.c): ``/run/systemd/timesync/synchronized`` exists (systemd-timesyncd touches it
when it has synchronised), or the kernel's NTP state from ``adjtimex(2)`` is not ``TIME_ERROR``
(5: the clock is not synchronised). A step of the clock after the start is followed by the array
bridge (it re-learns the array's clock offset: :mod:`hardware.bridge`), and nfcpy readers stamp
each event with the clock as it is then.
"""

from __future__ import annotations

import ctypes
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)

SYNC_FILE = Path("/run/systemd/timesync/synchronized")
"""Touched by systemd-timesyncd once it has synchronised the clock (systemd-timesyncd.service(8))."""
TIME_ERROR = 5
"""adjtimex(2)'s return value while the kernel's clock is not synchronised (STA_UNSYNC)."""
DEFAULT_WITHIN_S = 90.0
"""Wait at most until this long after boot: a Pi on a network has synchronised well before it."""
_TIMEX_BYTES = 256
"""Room for struct timex (208 bytes on 64-bit Linux); ``modes`` 0 at its start asks, sets nothing."""


def kernel_clock_synced() -> bool | None:
    """The kernel's own view (``adjtimex(2)`` with no modes): True synchronised, False not, None unknown."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        adjtimex = libc.adjtimex
    except (OSError, AttributeError):  # not Linux
        return None
    timex = ctypes.create_string_buffer(_TIMEX_BYTES)
    state = int(adjtimex(timex))
    if state < 0:
        log.warning("adjtimex failed: errno %d", ctypes.get_errno())
        return None
    return state != TIME_ERROR


def seconds_since_boot() -> float:
    """CLOCK_BOOTTIME: time since boot, suspend included, never stepped by time sync."""
    return time.clock_gettime(time.CLOCK_BOOTTIME)


@dataclass(frozen=True)
class ClockWait:
    """How the wait ended."""

    synced: bool
    by: str
    """What said so: ``the sync file``, ``the kernel``, or why the wait gave up."""
    waited_s: float
    since_boot_s: float

    def sentence(self) -> str:
        if self.synced:
            return f"the system clock is synchronised ({self.by}) after waiting {self.waited_s:.1f} s, {self.since_boot_s:.0f} s after boot"
        return (
            f"the system clock is not synchronised ({self.by}) after waiting {self.waited_s:.1f} s, {self.since_boot_s:.0f} s after boot: "
            "starting with the clock as it is; table times follow it when it is set later"
        )


def wait_for_clock(
    within_s: float = DEFAULT_WITHIN_S,
    *,
    sync_file: Path = SYNC_FILE,
    kernel_synced: Callable[[], bool | None] = kernel_clock_synced,
    since_boot: Callable[[], float] = seconds_since_boot,
    sleep: Callable[[float], None] = time.sleep,
    poll_s: float = 0.5,
) -> ClockWait:
    """Wait until the clock is synchronised or ``within_s`` seconds after boot, whichever comes first."""
    started = since_boot()
    while True:
        now = since_boot()
        if sync_file.exists():
            result = ClockWait(True, "the sync file", now - started, now)
            break
        if kernel_synced() is True:
            result = ClockWait(True, "the kernel", now - started, now)
            break
        if now >= within_s:
            why = f"no sync by {within_s:.0f} s after boot: no network or no time server"
            result = ClockWait(False, why, now - started, now)
            break
        sleep(min(poll_s, within_s - now))
    (log.info if result.synced else log.warning)("%s", result.sentence())
    return result
